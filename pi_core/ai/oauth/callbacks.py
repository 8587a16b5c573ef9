"""What a login flow asks of the interface that runs it (the REPL's `/login`, a test)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class LoginPrompt:
    """A question for the user: the message, a placeholder, whether blank is a valid answer."""

    message: str
    placeholder: str | None = None
    allow_empty: bool = False


@dataclass
class LoginCallbacks:
    """How a flow talks to the user.

    `on_auth(url, instructions)` shows the URL to open (or the device-code page and its code);
    `on_prompt` asks a question and returns the answer; `on_progress` reports a step;
    `on_manual_code_input`, when given, waits for a pasted redirect URL or code while the
    callback server waits for the browser: whichever comes first wins. `models` are the ids of
    the provider's models known here (GitHub Copilot enables them after the login, as pi does).
    """

    on_auth: Callable[[str, str | None], None]
    on_prompt: Callable[[LoginPrompt], Awaitable[str]]
    on_progress: Callable[[str], None] | None = None
    on_manual_code_input: Callable[[], Awaitable[str]] | None = None
    models: list[str] = field(default_factory=list)

    def progress(self, message: str) -> None:
        """Report a step, if the interface listens."""
        if self.on_progress is not None:
            self.on_progress(message)
