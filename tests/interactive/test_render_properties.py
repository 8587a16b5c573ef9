"""Every REPL render path, fed random text, writes only pi's own escape codes.

What may reach the terminal: SGR colour and style sequences, and OSC 8 hyperlinks whose
parameters and URI hold no control character; besides those, no C0 control other than newline,
tab and carriage return, and no ESC or C1 control at all.
"""

from __future__ import annotations

import asyncio
import io
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pi_plugin_tools.bash import create_tool
from rich.text import Text

from pi_core.messages.agent import BashExecutionMessage, CustomMessage
from pi_core.messages.content import TextContent, ThinkingContent, ToolCall
from pi_core.messages.llm import AssistantMessage, UserMessage
from pi_core.modes.interactive.dialogs import Dialog
from pi_core.modes.interactive.dumb import DumbRepl
from pi_core.modes.interactive.header import custom_block
from pi_core.modes.interactive.images import image_lines
from pi_core.modes.interactive.rendering import ansi_fragments, render_ansi
from pi_core.modes.interactive.selectors.picker import Row
from pi_core.modes.interactive.theme import Theme
from pi_core.modes.interactive.transcript import Transcript
from pi_core.terminal_text import incomplete_tail, sanitize
from pi_core.tools.tool import ToolResult

OURS = re.compile(
    r"\x1b\[[0-9;]*m"  # SGR
    r"|\x1b\]8;[^\x00-\x1f\x7f-\x9f;]*;[^\x00-\x1f\x7f-\x9f]*\x1b\\"  # an OSC 8 hyperlink
)
FORBIDDEN = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")

hostile_text = st.one_of(
    st.lists(
        st.one_of(
            st.sampled_from(list("\x1b[]P_^X\\;:0123456789m?Jc8 \n\t\r\x07\x00\x7fab*`#-()<>:/")),
            st.characters(min_codepoint=0x80, max_codepoint=0x9F),
            st.sampled_from(["](http://x/", "[link", "```\n", "\n\n", "**", "\x1b]8;;", "\x1b\\"]),
        ),
        max_size=40,
    ).map("".join),
    st.binary(max_size=60).map(lambda data: data.decode("latin-1")),  # any byte, as a character
)
EXAMPLES = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])  # fmt: skip


def assert_only_ours(ansi: str) -> None:
    """Nothing but pi's own sequences and plain text."""
    rest = OURS.sub("", ansi)
    found = FORBIDDEN.search(rest)
    assert found is None, (found, ansi)


def transcript(text: str) -> Transcript:
    def renderer(message: Any, options: Any, theme: Any) -> Any:
        return text if len(text) % 2 else Text(text, style="bold")  # an ANSI string or rich Text

    def tools(name: str) -> Any:
        return create_tool() if name == "bash" else None

    return Transcript(Theme(), tools, lambda kind: renderer, lambda what, error: None)


@given(hostile_text)
@EXAMPLES
def test_the_transcript_writes_only_our_sequences(text: str) -> None:
    shown = transcript(text)
    shown.status(text, "yellow")
    shown.user(UserMessage(content=text), 60)
    shown.bash_result(BashExecutionMessage(command=text, output=text, exit_code=1), 60)
    shown.custom(CustomMessage(custom_type="plugin" + text, content=text), 60)
    shown.labelled(text, text, text, 60)
    calls = [ToolCall(id="b", name="bash", arguments={"command": text}),
             ToolCall(id="o", name="other", arguments={"x": text})]  # fmt: skip
    message = AssistantMessage(
        content=[ThinkingContent(thinking=text), TextContent(text=text), *calls]
    )
    shown.assistant_start(message)
    for cut in range(0, len(text) + 1, 7):  # streamed: the live tail of each prefix
        partial = AssistantMessage(content=[ThinkingContent(thinking=text[:cut])])
        shown.assistant_update(partial)
        shown.advance(60)
        assert_only_ours(shown.tail(60))
    shown.assistant_update(message)
    shown.advance(60)
    for call in calls:
        shown.tool_start(call.id, call.name, call.arguments)
    assert_only_ours(shown.live_tools(60))
    shown.assistant_end(message, 60)
    for call in calls:
        shown.tool_end(call.id, ToolResult.text(text), len(text) % 2 == 1, 60)
    assert_only_ours(shown.take_out())


@given(hostile_text)
@EXAMPLES
def test_plugin_drawings_keep_their_colours_and_nothing_else(text: str) -> None:
    coloured = f"\x1b[31m{text}\x1b[0m"
    for drawn in (coloured, [coloured, text], Text(text, style="red")):
        ansi = render_ansi(custom_block(lambda options, d=drawn: d, False), 60)
        assert_only_ours(ansi)
    assert "\x1b[31m" in render_ansi(custom_block(lambda options: "\x1b[31mred", False), 60)


@given(hostile_text)
@EXAMPLES
def test_live_region_fragments_hold_no_control_character(text: str) -> None:
    for style, fragment in ansi_fragments(f"\x1b[2m{text}\x1b[0m\n\x01{text}\x02"):
        assert "ZeroWidthEscape" not in style
        assert FORBIDDEN.search(fragment) is None, fragment


@given(hostile_text)
@EXAMPLES
def test_pickers_and_dialogs_hold_no_control_character(text: str) -> None:
    assert FORBIDDEN.search(Row(text, text).text) is None

    async def view() -> Any:  # a dialog holds a future of the running loop
        return Dialog("select", text, [text], message=text).view(0.0)

    fragments = asyncio.run(view())
    assert all(FORBIDDEN.search(fragment[1]) is None for fragment in fragments)


@given(hostile_text, st.integers(min_value=1, max_value=9))
@EXAMPLES
def test_the_dumb_repl_writes_no_escape_code(text: str, piece: int) -> None:
    class Session:
        def subscribe(self, listener: Any) -> None:
            self.listener = listener

    from pi_core.events.agent import MessageEndEvent, MessageUpdateEvent
    from pi_core.messages.stream import TextDelta

    out = io.StringIO()
    session = Session()
    DumbRepl(session, out)
    partial = AssistantMessage(content=[TextContent(text="")])  # it follows the deltas alone
    for cut in range(0, len(text), piece):
        delta = TextDelta(content_index=0, delta=text[cut : cut + piece], partial=partial)
        session.listener(MessageUpdateEvent(message=partial, assistant_message_event=delta))
        sent = text[: cut + piece]
        assert out.getvalue() == sanitize(sent[: incomplete_tail(sent)])  # all but a cut sequence
    session.listener(MessageEndEvent(message=AssistantMessage(content=[TextContent(text=text)])))
    written = out.getvalue()
    assert FORBIDDEN.search(written) is None
    assert written == sanitize(text) + "\n"  # streamed in pieces, cleaned as a whole


OUR_IMAGES = re.compile(
    r"\x1b_G[A-Za-z0-9=,]*;[A-Za-z0-9+/=]*\x1b\\"  # kitty graphics
    r"|\x1b\]1337;File=[a-z0-9=;A-Z]*:[A-Za-z0-9+/=]*\x07"  # iTerm2 inline image
)


@given(hostile_text, hostile_text)
@EXAMPLES
def test_image_data_and_type_cannot_break_out_of_our_sequences(data: str, mime: str) -> None:
    for protocol in ("kitty", "iterm", None):
        for mime_type in ("image/png", mime):
            drawn = image_lines(data, mime_type, protocol)
            assert FORBIDDEN.search(OUR_IMAGES.sub("", drawn)) is None, drawn
