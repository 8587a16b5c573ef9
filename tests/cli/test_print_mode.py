"""`pi -p` and `--mode json` as a user runs them, against the fake server."""

from __future__ import annotations

import base64
import json

from pi_core.testing import chat_error, chat_models_json, chat_stream
from tests.cli.conftest import Cli

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)


def test_print_mode_runs_tools_and_prints_the_final_answer(cli: Cli) -> None:
    (cli.cwd / "a.txt").write_text("hello from a")
    cli.server.queue(
        chat_stream(tool_calls=[("read", {"path": "a.txt"})]), chat_stream("It says hello.")
    )
    result = cli.run("-p", "What does a.txt say?")
    assert result.returncode == 0, result.stderr
    assert result.stdout == "It says hello.\n"
    [session] = cli.sessions()
    assert '"toolResult"' in session.read_text() and "hello from a" in session.read_text()


def test_several_messages_run_in_turn(cli: Cli) -> None:
    cli.server.queue(chat_stream("one"), chat_stream("two"))
    result = cli.run("-p", "first", "second")
    assert result.stdout == "two\n"
    last = cli.server.requests[1].json()["messages"]
    assert [m["content"] for m in last if m["role"] == "user"][-1][0]["text"] == "second"


def test_json_mode_prints_the_header_then_every_event(cli: Cli) -> None:
    cli.server.queue(chat_stream("hi"))
    result = cli.run("--mode", "json", "hello")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines[0]["type"] == "session" and lines[0]["version"] == 3
    kinds = [line["type"] for line in lines[1:] if line["type"] != "message_update"]
    assert kinds == ["agent_start", "turn_start", "message_start", "message_end",
                     "message_start", "message_end", "turn_end", "agent_end"]  # fmt: skip


def test_file_arguments_are_inlined_and_images_attached(cli: Cli) -> None:
    (cli.cwd / "notes.md").write_text("# Notes\nbuy milk")
    (cli.cwd / "dot.png").write_bytes(PNG)
    vision = chat_models_json(cli.server.base_url, input=["text", "image"])
    (cli.agent_dir / "models.json").write_text(json.dumps(vision))
    cli.server.queue(chat_stream("seen"))
    result = cli.run("-p", "@notes.md", "@dot.png", "Summarize")
    assert result.returncode == 0, result.stderr
    content = cli.server.requests[0].json()["messages"][-1]["content"]
    text = content[0]["text"]
    assert f'<file name="{cli.cwd / "notes.md"}">\n# Notes\nbuy milk\n</file>' in text
    assert text.endswith("Summarize")
    assert content[1]["type"] == "image_url"


def test_piped_stdin_comes_first(cli: Cli) -> None:
    cli.server.queue(chat_stream("ok"))
    cli.run("-p", "explain this", stdin="def f(): pass\n")
    text = cli.server.requests[0].json()["messages"][-1]["content"][0]["text"]
    # pi trims piped text and joins it to the message with nothing between
    assert text == "def f(): passexplain this"


def test_a_plugin_flag_appears_in_help_and_reaches_the_plugin(cli: Cli) -> None:
    plugin = cli.cwd / "shout.py"
    plugin.write_text(
        "from pi_core import hookimpl\n\n"
        "@hookimpl\n"
        "def register_flags(register):\n"
        "    register('shout', type='boolean', description='Answer in capitals')\n\n"
        "@hookimpl\n"
        "def before_agent_start(event, ctx):\n"
        "    if ctx.get_flag('shout'):\n"
        "        return {'system_prompt': event.system_prompt + '\\nANSWER IN CAPITALS'}\n"
    )
    help_text = cli.run("-e", str(plugin), "--help").stdout
    assert "--shout" in help_text and "Answer in capitals" in help_text
    cli.server.queue(chat_stream("OK"))
    result = cli.run("-e", str(plugin), "--shout", "-p", "hi")
    assert result.returncode == 0, result.stderr
    assert cli.server.requests[0].json()["messages"][0]["content"].endswith("ANSWER IN CAPITALS")


def test_a_plugin_flag_with_dashes_in_its_name_works(cli: Cli) -> None:
    plugin = cli.cwd / "dashed.py"
    plugin.write_text(
        "from pi_core import hookimpl\n\n"
        "@hookimpl\n"
        "def register_flags(register):\n"
        "    register('answer-style', type='string', description='How to answer')\n\n"
        "@hookimpl\n"
        "def before_agent_start(event, ctx):\n"
        "    style = ctx.get_flag('answer-style')\n"
        "    return {'system_prompt': event.system_prompt + f'\\nSTYLE={style}'}\n"
    )
    assert "--answer-style" in cli.run("-e", str(plugin), "--help").stdout
    cli.server.queue(chat_stream("OK"))
    result = cli.run("-e", str(plugin), "--answer-style", "terse", "-p", "hi")
    assert result.returncode == 0, result.stderr
    assert cli.server.requests[0].json()["messages"][0]["content"].endswith("STYLE=terse")


def test_list_models(cli: Cli) -> None:
    result = cli.run("--list-models", "fake")
    assert result.returncode == 0
    assert "fake-model" in result.stdout and "128K" in result.stdout


# --- bad input -------------------------------------------------------------------------------


def test_an_unknown_flag_is_a_usage_error(cli: Cli) -> None:
    result = cli.run("--no-such-flag", "-p", "hi")
    assert result.returncode == 2 and "No such option '--no-such-flag'" in result.stderr


def test_an_unknown_model_is_one_clear_line(cli: Cli) -> None:
    result = cli.run("--model", "nope/nothing", "-p", "hi")
    assert result.returncode == 1
    assert result.stderr.startswith("Error: Unknown model 'nope/nothing'")
    assert cli.server.requests == [] and cli.sessions() == []


def test_a_missing_key_says_what_to_set(cli: Cli) -> None:
    models = json.loads((cli.agent_dir / "models.json").read_text())
    del models["providers"]["fake"]["apiKey"]
    (cli.agent_dir / "models.json").write_text(json.dumps(models))
    result = cli.run("-p", "hi")
    assert result.returncode == 1
    assert "No API key for provider 'fake'" in result.stderr and "auth.json" in result.stderr


def test_an_unreadable_file_argument_stops_before_anything_is_sent(cli: Cli) -> None:
    result = cli.run("-p", "@missing.txt", "hi")
    assert result.returncode == 1
    assert f"File not found: {cli.cwd / 'missing.txt'}" in result.stderr
    assert cli.server.requests == []


def test_a_session_that_does_not_exist(cli: Cli) -> None:
    result = cli.run("--session", str(cli.cwd / "gone.jsonl"), "-p", "hi")
    assert result.returncode == 1 and "Session file not found" in result.stderr
    result = cli.run("--session", "abcdef12", "-p", "hi")
    assert result.returncode == 1 and "No session matches 'abcdef12'" in result.stderr


def test_a_provider_error_exits_non_zero_and_keeps_the_prompt(cli: Cli) -> None:
    cli.settings(defaultProvider="fake", defaultModel="fake-model", retry={"enabled": False})
    cli.server.queue(chat_error(400, "bad request: model overloaded with nonsense"))
    result = cli.run("-p", "keep this prompt")
    assert result.returncode == 1
    assert "400" in result.stderr
    [session] = cli.sessions()
    assert "keep this prompt" in session.read_text()


def test_continue_picks_up_the_last_session(cli: Cli) -> None:
    cli.server.queue(chat_stream("first answer"), chat_stream("second answer"))
    cli.run("-p", "remember 42")
    result = cli.run("-c", "-p", "what did I say?")
    assert result.stdout == "second answer\n"
    users = [m for m in cli.server.requests[1].json()["messages"] if m["role"] == "user"]
    assert len(users) == 2 and len(cli.sessions()) == 1
