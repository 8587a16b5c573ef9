"""When the session is replaced the REPL shows only the new one and its prompts, as pi 0.73.1
does (checked against its source and in tmux): `/new` takes the old conversation off the screen
and keeps the editor's history; `/resume` of another folder's session shows only that session,
Up brings back its prompts, and what is typed next is kept in that folder's history; a session
opened at start puts its prompts in the history too."""

from __future__ import annotations

from pi_core.modes.interactive.editor import history_path
from pi_core.testing import chat_stream
from tests.interactive.conftest import Screen, editor_lines, stripped_lines
from tests.session.saved_sessions import resume_saved_session, write_saved_session


def ask(screen: Screen, question: str, answer: str) -> None:
    """Send `question`; the fake model answers `answer`."""
    screen.server.queue(chat_stream(answer))
    screen.type(question)
    screen.keys("Enter")
    screen.wait_for(lambda s: answer in stripped_lines(s))


def test_new_takes_the_old_conversation_off_the_screen_and_keeps_the_history(
    screen: Screen,
) -> None:
    screen.start()
    screen.ready()
    ask(screen, "first question", "FIRST-ANSWER")
    screen.type("/new")
    screen.keys("Enter")
    text = screen.wait_for("New session started")
    assert "FIRST-ANSWER" not in text and "first question" not in text
    screen.keys("Up", "Up")  # the history is the editor's, not the session's: it stays
    screen.wait_for(lambda s: "first question" in " ".join(editor_lines(s)))


def resume_elsewhere(screen: Screen) -> str:
    """Ask a question here, then `/resume` another folder's saved session; the screen."""
    there = screen.cwd.parent / "there"
    there.mkdir()
    write_saved_session(screen.agent_dir, there)
    screen.start()
    screen.ready()
    ask(screen, "question here", "ANSWER-HERE")
    resume_saved_session(screen)
    return screen.wait_for(lambda s: "plums noted" in s and "Resumed session" in s)


def test_resume_shows_only_the_opened_session(screen: Screen) -> None:
    text = resume_elsewhere(screen)
    assert "ANSWER-HERE" not in text and "question here" not in text


def test_resume_of_another_folder_follows_its_prompts_and_history_file(screen: Screen) -> None:
    resume_elsewhere(screen)
    screen.keys("Up")  # the opened session's prompt comes first
    screen.wait_for(lambda s: "remember plums" in " ".join(editor_lines(s)))
    screen.keys("C-c")
    screen.wait_for(lambda s: "remember plums" not in " ".join(editor_lines(s)))
    ask(screen, "question there", "ANSWER-THERE")
    there = screen.cwd.parent / "there"
    there_history = history_path(screen.agent_dir, str(there)).read_text()
    here_history = history_path(screen.agent_dir, str(screen.cwd)).read_text()
    assert "question there" in there_history and "question there" not in here_history
    assert "question here" in here_history


def test_a_session_opened_at_start_puts_its_prompts_in_the_history(screen: Screen) -> None:
    there = screen.cwd.parent / "there"
    there.mkdir()
    session = write_saved_session(screen.agent_dir, there)
    screen.start("--session", str(session))
    screen.wait_for(lambda s: "plums noted" in s and "(fake) fake-model" in s)
    screen.keys("Up")
    screen.wait_for(lambda s: "remember plums" in " ".join(editor_lines(s)))
