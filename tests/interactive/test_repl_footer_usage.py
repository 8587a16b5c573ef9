"""The footer's ↑ ↓ R W and $ count every assistant message in the session file, every branch."""

from __future__ import annotations

from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, stripped_lines


def ask(screen: Screen, text: str, answer: str) -> None:
    screen.server.queue(chat_stream(answer))
    screen.type(text)
    screen.keys("Enter")
    screen.wait_for(lambda s: answer in stripped_lines(s))


def footer_usage(screen: Screen) -> str:
    """The footer's second line (the usage figures and the model)."""
    lines = [line for line in screen.text().splitlines() if "(fake) fake-model" in line]
    return lines[-1] if lines else ""


def test_footer_counts_every_branch_after_tree_resume_and_fork(screen: Screen) -> None:
    screen.start()
    screen.ready()
    ask(screen, "first question", "answer one")
    ask(screen, "second question", "answer two")
    screen.wait_for("↑20 ↓10")
    screen.type("/tree")
    screen.keys("Enter")
    screen.wait_for("Session Tree")
    screen.type("first")
    screen.wait_for("(1/1)")
    screen.keys("Enter")
    screen.wait_for("Summarize branch?")
    screen.keys("Enter")  # no summary: the leaf moves to before the first question
    screen.wait_for("Navigated to selected point")
    screen.keys("C-c")
    # the branch left behind still counts: 2 answers there, 1 on the new branch
    ask(screen, "third question", "answer three")
    screen.wait_for(lambda s: "↑30 ↓15" in footer_usage(screen))
    screen.type("/quit")
    screen.keys("Enter")
    screen.wait_for("EXIT=0")
    screen.close()

    screen.start("-c")  # the file read back: still every branch
    screen.wait_for(lambda s: "↑30 ↓15" in footer_usage(screen))
    screen.type("/fork")
    screen.keys("Enter")
    screen.wait_for("Fork from Message")
    screen.type("third")
    screen.keys("Enter")
    screen.wait_for("Forked to new session")
    # the new file holds only the path before "third question": no answer, no usage
    screen.wait_for(lambda s: "↑" not in footer_usage(screen) and footer_usage(screen) != "")
