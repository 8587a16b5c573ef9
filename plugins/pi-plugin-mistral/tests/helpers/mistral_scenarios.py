"""The scripts both agents run against the loopback fake for the request comparison with pi
0.73.1 (`../record_pi.py` records pi's requests; `../test_requests_vs_pi.py` runs ours)."""

from __future__ import annotations

from dataclasses import dataclass

from mistral_fake import mistral_stream

from pi_core.testing import FakeResponse


@dataclass(frozen=True)
class Scenario:
    """A model, the arguments after the program, and what the fake answers."""

    model: str
    args: tuple[str, ...]
    tool_loop: bool = False

    def answers(self) -> list[FakeResponse]:
        """The fake's answers, request by request."""
        if self.tool_loop:
            call = ("AbCdEfGh1", "read", {"path": "note.txt"})
            first = mistral_stream(thinking="Let me read it.", tool_calls=[call])
            return [first, mistral_stream("It says hello.")]
        return [mistral_stream("Hi.")]


_COMMON = ("-p", "--no-session", "--tools", "read")
SCENARIOS = {
    "plain": Scenario("mistral-large-latest", (*_COMMON, "--thinking", "off", "Say hi.")),
    "effort-tool": Scenario(
        "mistral-small-latest", (*_COMMON, "--thinking", "high", "Read note.txt."), True
    ),
    "prompt-mode-tool": Scenario(
        "magistral-medium-latest", (*_COMMON, "--thinking", "low", "Read note.txt."), True
    ),
    "reasoning-off": Scenario("magistral-small", (*_COMMON, "--thinking", "off", "Say hi.")),
    "image": Scenario("pixtral-12b", (*_COMMON, "--thinking", "off", "@pic.png", "Describe it.")),
    "image-text-only": Scenario(
        "codestral-latest", (*_COMMON, "--thinking", "off", "@pic.png", "Describe it.")
    ),
}
"""Key → scenario; fixtures are `fixtures/requests/<key>.json`."""
