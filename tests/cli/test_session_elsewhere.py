"""`pi --session ID` whose id only another project's sessions hold asks whether to fork it into
the current folder, as pi 0.73.1 does (checked against it: the question on stdin in every mode,
its words on stderr in print and rpc modes; "y"/"yes" forks, anything else says "Aborted." and
exits 0, a stdin that ends exits 0 without a word)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli
from tests.session.saved_sessions import SESSION_ID, write_saved_session

SHORT_ID = SESSION_ID[:13]
FOUND = "Session found in different project: {}\n"
QUESTION = "Fork this session into current directory? [y/N] "


def elsewhere(cli: Cli) -> tuple[Path, Path]:
    """Another project folder with a saved session; the folder and the session file."""
    there = cli.cwd.parent / "there"
    there.mkdir()
    return there, write_saved_session(cli.agent_dir, there)


def test_yes_forks_the_session_into_the_current_folder(cli: Cli) -> None:
    there, source = elsewhere(cli)
    cli.server.queue(chat_stream("forked"))
    result = cli.run("--session", SHORT_ID, "-p", "go on", stdin="YES\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "forked\n"
    assert result.stderr.startswith(FOUND.format(there) + QUESTION)
    body = cli.server.requests[0].json()
    assert "plums noted" in json.dumps(body["messages"])  # the history came along
    prompt = body["messages"][0]["content"]
    assert re.findall(r"Current working directory: (.*)", prompt) == [str(cli.cwd)]
    forks = [p for p in cli.sessions() if p != source]
    assert len(forks) == 1 and forks[0].parent != source.parent
    header = json.loads(forks[0].read_text().splitlines()[0])
    assert header["cwd"] == str(cli.cwd) and header["parentSession"] == str(source)
    assert header["id"] != SESSION_ID
    assert source.read_text().count("\n") == 3  # the source is left as it was


def test_any_other_answer_aborts_with_exit_code_0(cli: Cli) -> None:
    there, source = elsewhere(cli)
    result = cli.run("--session", SHORT_ID, "-p", "go on", stdin="n\n")
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == FOUND.format(there) + QUESTION + "Aborted.\n"
    assert cli.server.requests == [] and cli.sessions() == [source]


def test_stdin_that_ends_without_an_answer_exits_0_quietly(cli: Cli) -> None:
    there, source = elsewhere(cli)
    result = cli.run("--session", SHORT_ID, "-p", "go on", stdin="")
    assert result.returncode == 0, result.stderr
    assert result.stderr == FOUND.format(there) + QUESTION
    assert cli.server.requests == [] and cli.sessions() == [source]


def test_rpc_mode_reads_the_answer_from_its_first_line(cli: Cli) -> None:
    """pi asks before RPC starts: the first command line is the answer, and not a yes."""
    there, source = elsewhere(cli)
    command = json.dumps({"id": "s", "type": "get_state"}) + "\n"
    result = cli.run("--mode", "rpc", "--session", SHORT_ID, stdin=command)
    assert result.returncode == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == FOUND.format(there) + QUESTION + "Aborted.\n"
    assert cli.sessions() == [source]


def test_an_id_of_the_current_folder_opens_without_a_question(cli: Cli) -> None:
    source = write_saved_session(cli.agent_dir, cli.cwd)
    local = cli.agent_dir / "sessions" / "--project--"
    local.mkdir()
    cli.settings(defaultProvider="fake", defaultModel="fake-model", sessionDir=str(local))
    moved = source.rename(local / source.name)
    cli.server.queue(chat_stream("same"))
    result = cli.run("--session", SHORT_ID, "-p", "go on", stdin="")
    assert result.returncode == 0, result.stderr
    assert "different project" not in result.stderr
    assert result.stdout == "same\n" and cli.sessions() == [moved]


LOUD_PLUGIN = """
from pathlib import Path

Path(__file__).with_name("loaded-marker").write_text("loaded")
"""


def test_the_question_comes_before_any_plugin_loads(cli: Cli) -> None:
    """pi asks before it loads anything: on no, the start folder's plugins never load."""
    there, _ = elsewhere(cli)
    plugins = cli.cwd / ".pi" / "extensions"
    plugins.mkdir(parents=True)
    (plugins / "loud.py").write_text(LOUD_PLUGIN)
    result = cli.run("--session", SHORT_ID, "-p", "go on", stdin="n\n")
    assert result.returncode == 0, result.stderr
    assert result.stderr == FOUND.format(there) + QUESTION + "Aborted.\n"
    assert not (plugins / "loaded-marker").exists()


def test_on_yes_the_current_folders_plugins_load_once_asked(cli: Cli) -> None:
    elsewhere(cli)
    plugins = cli.cwd / ".pi" / "extensions"
    plugins.mkdir(parents=True)
    (plugins / "loud.py").write_text(LOUD_PLUGIN)
    cli.server.queue(chat_stream("forked"))
    result = cli.run("--session", SHORT_ID, "-p", "go on", stdin="y\n")
    assert result.returncode == 0, result.stderr
    assert result.stderr.count(QUESTION) == 1  # asked once, not again after the plugins
    assert (plugins / "loaded-marker").exists()
