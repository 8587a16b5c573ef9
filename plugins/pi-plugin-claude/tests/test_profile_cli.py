"""Each Claude tool through the real `pi -p` with the profile on, against the fake server."""

from __future__ import annotations

from claude_pi import Pi

from pi_core.testing import chat_stream


def test_the_profile_is_inert_unless_turned_on(pi: Pi) -> None:
    pi.queue(chat_stream("hi"))
    done = pi.run("hello")
    assert done.returncode == 0, done.stderr
    names = pi.tool_names()
    assert "read" in names and "Read" not in names


def test_the_setting_replaces_pis_tools_with_claudes(pi: Pi) -> None:
    pi.settings(toolProfile="claude")
    pi.queue(chat_stream("hi"))
    done = pi.run("hello")
    assert done.returncode == 0, done.stderr
    names = pi.tool_names()
    assert {"Bash", "Read", "Write", "Edit", "MultiEdit", "Glob", "Grep", "LS", "TodoWrite",
            "ExitPlanMode", "Task"} <= set(names)  # fmt: skip
    assert not {"read", "bash", "edit"} & set(names)
    read = next(t for t in pi.request(0)["tools"] if t["function"]["name"] == "Read")
    assert set(read["function"]["parameters"]["properties"]) == {"file_path", "offset", "limit"}
    grep = next(t for t in pi.request(0)["tools"] if t["function"]["name"] == "Grep")
    assert {"-B", "-A", "-C", "-n", "-i", "output_mode", "head_limit"} <= set(
        grep["function"]["parameters"]["properties"]
    )


def test_the_flag_turns_the_profile_on(pi: Pi) -> None:
    pi.queue(chat_stream("hi"))
    done = pi.run("hello", "--claude")
    assert done.returncode == 0, done.stderr
    assert "Bash" in pi.tool_names() and "bash" not in pi.tool_names()


def run_tool(pi: Pi, name: str, **arguments: object) -> str:
    """Have the model call one tool, and return the result text the next request carried."""
    start = len(pi.server.requests)
    pi.call(name, **arguments)
    pi.queue(chat_stream("done"))
    done = pi.run("go", "--claude")
    assert done.returncode == 0, done.stderr
    results = pi.tool_results(start + 1)
    assert len(results) == 1
    return results[0]


def test_bash(pi: Pi) -> None:
    text = run_tool(pi, "Bash", command="echo hello && echo oops >&2", description="Say hello")
    assert text == "hello\noops"
    assert run_tool(pi, "Bash", command="true") == "(Bash completed with no output)"


def test_read_numbers_lines(pi: Pi) -> None:
    (pi.cwd / "a.txt").write_text("one\ntwo\nthree\nfour\n")
    text = run_tool(pi, "Read", file_path=str(pi.cwd / "a.txt"), offset=2, limit=2)
    assert text.startswith("2\ttwo\n3\tthree\n\n[")  # pi's continuation note follows
    assert run_tool(pi, "Read", file_path="a.txt") == "1\tone\n2\ttwo\n3\tthree\n4\tfour"
    assert run_tool(pi, "Read", file_path=str(pi.cwd / "missing.txt")).startswith(
        "File does not exist."
    )


def test_write_creates_then_updates(pi: Pi) -> None:
    target = pi.cwd / "new.txt"
    assert run_tool(pi, "Write", file_path=str(target), content="x\n") == (
        f"File created successfully at: {target}"
    )
    assert target.read_text() == "x\n"
    assert run_tool(pi, "Write", file_path=str(target), content="y\n") == (
        f"The file {target} has been updated successfully."
    )


def test_edit_and_replace_all(pi: Pi) -> None:
    target = pi.cwd / "e.py"
    target.write_text("a = 1\nb = 1\n")
    text = run_tool(pi, "Edit", file_path=str(target), old_string="a = 1", new_string="a = 2")
    assert text == f"The file {target} has been updated successfully."
    assert target.read_text() == "a = 2\nb = 1\n"
    many = run_tool(pi, "Edit", file_path=str(target), old_string="= ", new_string=":= ")
    assert many.startswith("Found 2 matches of the string to replace, but replace_all is false.")
    text = run_tool(
        pi, "Edit", file_path=str(target), old_string="= ", new_string=":= ", replace_all=True
    )
    assert (
        text == f"The file {target} has been updated. All occurrences were successfully replaced."
    )
    assert target.read_text() == "a := 2\nb := 1\n"


def test_multi_edit(pi: Pi) -> None:
    target = pi.cwd / "m.txt"
    target.write_text("alpha beta\n")
    text = run_tool(
        pi, "MultiEdit", file_path=str(target),
        edits=[{"old_string": "alpha", "new_string": "gamma"},
               {"old_string": "gamma beta", "new_string": "done"}],
    )  # fmt: skip
    assert text.startswith(f'Applied 2 edits to {target}:\n1. Replaced "alpha" with "gamma"')
    assert target.read_text() == "done\n"


def test_glob_grep_and_ls(pi: Pi) -> None:
    (pi.cwd / "src").mkdir()
    (pi.cwd / "src" / "a.py").write_text("import os\nprint(os.name)\n")
    (pi.cwd / "src" / "b.py").write_text("x = 1\n")
    (pi.cwd / "notes.md").write_text("os notes\n")
    assert sorted(run_tool(pi, "Glob", pattern="**/*.py").split("\n")) == ["src/a.py", "src/b.py"]
    assert run_tool(pi, "Glob", pattern="*.rs") == "No files found"
    files = run_tool(pi, "Grep", pattern="os", glob="*.py")
    assert files == "Found 1 file\nsrc/a.py"
    content = run_tool(pi, "Grep", pattern="os", output_mode="content", path="src")
    assert content.split("\n") == ["src/a.py:1:import os", "src/a.py:2:print(os.name)"]
    count = run_tool(pi, "Grep", pattern="os", output_mode="count")
    assert count.endswith("Found 3 total occurrences across 2 files.")
    assert run_tool(pi, "Grep", pattern="nothing-matches-this") == "No files found"
    listing = run_tool(pi, "LS", path=str(pi.cwd))
    assert listing.split("\n") == [
        f"- {pi.cwd}/", "  - notes.md", "  - src/", "    - a.py", "    - b.py",
    ]  # fmt: skip


def test_todo_write_and_exit_plan_mode(pi: Pi) -> None:
    todos = [{"content": "Write tests", "status": "in_progress", "activeForm": "Writing tests"}]
    assert run_tool(pi, "TodoWrite", todos=todos).startswith(
        "Todos have been modified successfully."
    )
    assert run_tool(pi, "ExitPlanMode", plan="1. do it").startswith(
        "User has approved your plan. You can now start coding."
    )


def test_task_runs_a_subagent_from_claude_agents(pi: Pi) -> None:
    agents = pi.cwd / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\n---\n"
        "You are a meticulous reviewer.\n"
    )
    (pi.cwd / "f.txt").write_text("subagent data\n")
    pi.call("Task", description="Review f", prompt="Read f.txt", subagent_type="reviewer")
    pi.call("Read", file_path=str(pi.cwd / "f.txt"))  # the subagent's first turn
    pi.queue(chat_stream("The file says: subagent data"))  # the subagent's answer
    pi.queue(chat_stream("done"))
    done = pi.run("go", "--claude")
    assert done.returncode == 0, done.stderr
    subagent = pi.request(1)
    assert "You are a meticulous reviewer." in subagent["messages"][0]["content"]
    assert sorted(t["function"]["name"] for t in subagent["tools"]) == ["Grep", "Read"]
    assert pi.tool_results(2) == ["1\tsubagent data"]
    assert pi.tool_results(3) == ["The file says: subagent data"]
