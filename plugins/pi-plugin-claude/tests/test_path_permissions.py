"""Path rules decide on resolved paths: `@`, `~`, `//`, `..`, symlinks, searches, acceptEdits.

Each row is one call against a real folder tree (see `tree`), under the probe's rules:
deny `Read(./secrets/**)`, `Read(~/.ssh/**)` and `Edit(//<locked>/**)`. `{p}` is the project
(the cwd), `{o}` a folder outside it, `{h}` the home folder and `{l}` the locked folder.
The expected decision is Claude Code 2.1's, except where a comment says otherwise: the Read,
Write, Edit and Bash rows were checked against Claude Code 2.1.197 (`claude -p` driven by a
loopback fake model); that build offers no Grep, Glob, LS or NotebookRead tool, so those rows
follow its code and its documentation.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_claude.permissions import PermissionPolicy, parse_mode, parse_rule
from pi_plugin_claude.permissions.paths import call_spellings, is_inside, resolve_call_path

DENY = ["Read(./secrets/**)", "Read(~/.ssh/**)", "Edit(/{l}/**)"]  # `//` + the absolute path


@pytest.fixture
def tree(tmp_path: Path) -> dict[str, str]:
    """A project with a secret, symlinks into it and out of the project, a home and a lock."""
    proj, out, home, locked = (tmp_path / n for n in ("proj", "outside", "home", "locked"))
    for folder in (proj / "secrets", proj / "src", proj / "docs", out, home / ".ssh", locked):
        folder.mkdir(parents=True)
    (proj / "secrets" / "key").write_text("MARKER")
    (proj / "src" / "a.py").write_text("print()")
    (proj / "secretsfile.txt").write_text("public")
    (out / "file.txt").write_text("outside")
    (home / ".ssh" / "id").write_text("MARKER")
    (locked / "conf").write_text("locked")
    (proj / "src" / "link_secrets").symlink_to(proj / "secrets")
    (proj / "keylink").symlink_to(proj / "secrets" / "key")
    (proj / "src" / "out").symlink_to(out)
    (proj / "lockdir").symlink_to(locked)
    (proj / "dangling").symlink_to(out / "new.txt")
    return {"p": str(proj), "o": str(out), "h": str(home), "l": str(locked)}


def _fill(value: Any, tree: dict[str, str]) -> Any:
    if isinstance(value, str):
        return value.format(**tree)
    if isinstance(value, dict):
        return {key: _fill(item, tree) for key, item in value.items()}
    return value


def decide(tree: dict[str, str], mode: str, tool: str, tool_input: dict[str, Any]) -> str:
    """The policy's decision for one call (rules filled in for this tree)."""
    policy = PermissionPolicy(
        mode=parse_mode(mode),
        deny=[parse_rule(_fill(rule, tree), tree["p"]) for rule in DENY],
        cwd=tree["p"],
        home=tree["h"],
    )
    return policy.decide(tool, _fill(tool_input, tree)).behavior


CASES = [
    # (id, mode, tool, input, expected)
    # -- Read rules on Read, through every spelling of the path
    ("read-plain", "default", "Read", {"file_path": "secrets/key"}, "deny"),
    ("read-dot", "default", "Read", {"file_path": "./secrets/key"}, "deny"),
    ("read-abs", "default", "Read", {"file_path": "{p}/secrets/key"}, "deny"),
    ("read-double-slash", "default", "Read", {"file_path": "/{p}/secrets/key"}, "deny"),
    ("read-doubled-inner", "default", "Read", {"file_path": "{p}//secrets//key"}, "deny"),
    # pi's read drops a leading `@` (Claude Code's Read keeps it and finds no file): both count
    ("read-at", "default", "Read", {"file_path": "@secrets/key"}, "deny"),
    ("read-at-abs", "default", "Read", {"file_path": "@{p}/secrets/key"}, "deny"),
    ("read-dotdot", "default", "Read", {"file_path": "src/../secrets/key"}, "deny"),
    ("read-dotdot-out-in", "default", "Read", {"file_path": "../proj/secrets/key"}, "deny"),
    ("read-symlink-dir", "default", "Read", {"file_path": "src/link_secrets/key"}, "deny"),
    ("read-symlink-file", "default", "Read", {"file_path": "keylink"}, "deny"),
    ("read-at-symlink", "default", "Read", {"file_path": "@keylink"}, "deny"),
    ("read-home-tilde", "default", "Read", {"file_path": "~/.ssh/id"}, "deny"),
    ("read-home-at-tilde", "default", "Read", {"file_path": "@~/.ssh/id"}, "deny"),
    ("read-home-abs", "default", "Read", {"file_path": "{h}/.ssh/id"}, "deny"),
    ("read-home-bypass", "bypassPermissions", "Read", {"file_path": "~/.ssh/id"}, "deny"),
    ("read-bypass-symlink", "bypassPermissions", "Read", {"file_path": "keylink"}, "deny"),
    # (Claude Code 2.1 has no NotebookRead tool; the rule covers it as the docs say)
    ("notebook-read", "default", "NotebookRead", {"notebook_path": "secrets/n.ipynb"}, "deny"),
    # safe twins: near names, the project's own files, every harmless spelling
    # Claude Code counts `secrets/**` as covering the folder `secrets` itself as well
    ("read-folder-itself", "default", "Read", {"file_path": "secrets"}, "deny"),
    ("read-folder-slash", "default", "Read", {"file_path": "secrets/"}, "deny"),
    ("read-sibling-name", "default", "Read", {"file_path": "secretsfile.txt"}, "allow"),
    ("read-src", "default", "Read", {"file_path": "src/a.py"}, "allow"),
    ("read-src-at", "default", "Read", {"file_path": "@src/a.py"}, "allow"),
    ("read-src-double-slash", "default", "Read", {"file_path": "/{p}/src/a.py"}, "allow"),
    ("read-src-dotdot", "default", "Read", {"file_path": "secrets/../src/a.py"}, "allow"),
    ("read-home-other", "bypassPermissions", "Read", {"file_path": "~/notes.txt"}, "allow"),
    # reading outside the working folder asks (as given, or through a symlink)
    ("read-outside", "default", "Read", {"file_path": "../outside/file.txt"}, "ask"),
    ("read-outside-abs", "default", "Read", {"file_path": "{o}/file.txt"}, "ask"),
    ("read-symlink-out", "default", "Read", {"file_path": "src/out/file.txt"}, "ask"),
    ("read-at-dotdot", "default", "Read", {"file_path": "@../outside/file.txt"}, "ask"),
    ("read-tilde-out", "default", "Read", {"file_path": "~/notes.txt"}, "ask"),
    (
        "read-tilde-user",
        "default",
        "Read",
        {"file_path": "~root/x"},
        "ask",
    ),  # Claude's Read expands it
    ("read-nul-byte", "default", "Read", {"file_path": "secrets/k\x00ey"}, "deny"),
    # -- the same Read rule covers every tool that reads, pi's grep/find/ls judged as these
    ("grep-denied-dir", "default", "Grep", {"pattern": "M", "path": "secrets"}, "deny"),
    ("grep-symlink", "default", "Grep", {"pattern": "M", "path": "src/link_secrets"}, "deny"),
    ("grep-at", "default", "Grep", {"pattern": "M", "path": "@secrets"}, "deny"),
    ("glob-denied-dir", "default", "Glob", {"pattern": "*", "path": "secrets"}, "deny"),
    ("glob-pattern-in", "default", "Glob", {"pattern": "secrets/*"}, "deny"),
    (
        "glob-pattern-dotdot",
        "default",
        "Glob",
        {"pattern": "../secrets/*", "path": "src"},
        "deny",
    ),
    ("ls-denied-dir", "default", "LS", {"path": "secrets"}, "deny"),
    ("ls-double-slash", "default", "LS", {"path": "/{p}/secrets"}, "deny"),
    ("ls-home-ssh", "default", "LS", {"path": "~/.ssh"}, "deny"),
    # a search whose root CONTAINS the denied folder: Claude Code runs it with the folder
    # excluded (`--glob !…`); this engine refuses the call (see docs/security.md)
    ("grep-root", "default", "Grep", {"pattern": "MARKER"}, "deny"),
    ("grep-root-dot", "default", "Grep", {"pattern": "MARKER", "path": "."}, "deny"),
    ("grep-root-abs", "default", "Grep", {"pattern": "MARKER", "path": "/{p}"}, "deny"),
    ("glob-root", "default", "Glob", {"pattern": "**/*"}, "deny"),
    ("ls-root", "default", "LS", {"path": "."}, "deny"),
    ("ls-home", "bypassPermissions", "LS", {"path": "~"}, "deny"),
    # safe twins: searches beside the denied folder
    ("grep-src", "default", "Grep", {"pattern": "x", "path": "src"}, "allow"),
    ("grep-src-at", "default", "Grep", {"pattern": "x", "path": "@src"}, "allow"),
    ("glob-src", "default", "Glob", {"pattern": "**/*.py", "path": "src"}, "allow"),
    ("ls-src", "default", "LS", {"path": "src"}, "allow"),
    ("ls-docs", "default", "LS", {"path": "./docs"}, "allow"),
    ("grep-outside", "default", "Grep", {"pattern": "x", "path": "../outside"}, "ask"),
    ("glob-escape", "default", "Glob", {"pattern": "../../outside/*", "path": "src"}, "ask"),
    # -- Edit rules cover every tool that writes
    ("edit-locked", "acceptEdits", "Edit", {"file_path": "{l}/conf"}, "deny"),
    ("write-locked-symlink", "acceptEdits", "Write", {"file_path": "lockdir/conf"}, "deny"),
    ("write-locked-new", "bypassPermissions", "Write", {"file_path": "lockdir/new"}, "deny"),
    ("write-locked-dslash", "acceptEdits", "Write", {"file_path": "/{l}/x"}, "deny"),
    # pi's write drops the `@` and would write into the locked folder (Claude's Write creates
    # a folder named `@lockdir` in the project instead)
    ("write-locked-at", "acceptEdits", "Write", {"file_path": "@lockdir/x"}, "deny"),
    ("multiedit-locked", "acceptEdits", "MultiEdit", {"file_path": "{l}/conf"}, "deny"),
    ("notebook-locked", "acceptEdits", "NotebookEdit", {"notebook_path": "{l}/n.ipynb"}, "deny"),
    ("read-locked-ok", "default", "Read", {"file_path": "lockdir/conf"}, "ask"),
    # -- acceptEdits covers the working folder only (real paths)
    ("accept-write-in", "acceptEdits", "Write", {"file_path": "src/new.py"}, "allow"),
    ("accept-write-at-in", "acceptEdits", "Write", {"file_path": "@src/new.py"}, "allow"),
    ("accept-write-at-out", "acceptEdits", "Write", {"file_path": "@../x"}, "ask"),
    ("accept-write-dotdot", "acceptEdits", "Write", {"file_path": "src/../../x"}, "ask"),
    ("accept-write-symlink-out", "acceptEdits", "Write", {"file_path": "src/out/x"}, "ask"),
    # stricter than Claude Code 2.1.197, which writes through a dangling symlink out unasked
    ("accept-write-dangling", "acceptEdits", "Write", {"file_path": "dangling"}, "ask"),
    ("accept-edit-tilde", "acceptEdits", "Edit", {"file_path": "~/.bashrc"}, "ask"),
    ("accept-write-dslash-out", "acceptEdits", "Write", {"file_path": "//tmp/x"}, "ask"),
    ("default-write-in", "default", "Write", {"file_path": "src/new.py"}, "ask"),
    ("accept-rm-in", "acceptEdits", "Bash", {"command": "rm -rf build"}, "allow"),
    ("accept-rm-out", "acceptEdits", "Bash", {"command": "rm -rf ../outside"}, "ask"),
    ("accept-rm-abs-out", "acceptEdits", "Bash", {"command": "rm {o}/file.txt"}, "ask"),
    ("accept-rm-symlink-out", "acceptEdits", "Bash", {"command": "rm src/out/file.txt"}, "ask"),
    ("accept-rm-tilde", "acceptEdits", "Bash", {"command": "rm -rf ~/x"}, "ask"),
    ("accept-rm-var", "acceptEdits", "Bash", {"command": "rm -rf $HOME/x"}, "ask"),
    ("accept-rm-tilde-user", "acceptEdits", "Bash", {"command": "rm -rf ~root/x"}, "ask"),
    ("accept-rm-dashdash", "acceptEdits", "Bash", {"command": "rm -- -x ../y"}, "ask"),
    ("accept-mv-out", "acceptEdits", "Bash", {"command": "mv src/a.py ../a.py"}, "ask"),
    ("accept-mv-in", "acceptEdits", "Bash", {"command": "mv src/a.py docs/a.py"}, "allow"),
    ("accept-cp-out", "acceptEdits", "Bash", {"command": "cp src/a.py {o}/"}, "ask"),
    (
        "accept-cp-target-dir",
        "acceptEdits",
        "Bash",
        {"command": "cp --target-directory=.. a"},
        "ask",
    ),
    ("accept-cp-in", "acceptEdits", "Bash", {"command": "cp src/a.py docs/"}, "allow"),
    ("accept-touch-out", "acceptEdits", "Bash", {"command": "touch ../new"}, "ask"),
    ("accept-touch-in", "acceptEdits", "Bash", {"command": "touch docs/new"}, "allow"),
    ("accept-mkdir-out", "acceptEdits", "Bash", {"command": "mkdir -p ../../made"}, "ask"),
    ("accept-mkdir-in", "acceptEdits", "Bash", {"command": "mkdir -p docs/made"}, "allow"),
    (
        "accept-sed-out",
        "acceptEdits",
        "Bash",
        {"command": "sed -i s/a/b/ ../outside/file.txt"},
        "ask",
    ),
    (
        "accept-sed-e-out",
        "acceptEdits",
        "Bash",
        {"command": "sed -i -e s/a/b/ {o}/file.txt"},
        "ask",
    ),
    ("accept-sed-in", "acceptEdits", "Bash", {"command": "sed -i 's/a/b/' src/a.py"}, "allow"),
    ("accept-chain-out", "acceptEdits", "Bash", {"command": "mkdir x && rm -rf ../outside"}, "ask"),
]


@pytest.mark.parametrize(
    ("mode", "tool", "tool_input", "expected"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_a_path_is_decided_by_where_it_really_leads(
    tree: dict[str, str], mode: str, tool: str, tool_input: dict[str, Any], expected: str
) -> None:
    assert decide(tree, mode, tool, tool_input) == expected


def test_the_table_covers_at_least_sixty_cases() -> None:
    assert len(CASES) >= 60
    assert len({case[0] for case in CASES}) == len(CASES)


def test_a_call_path_is_resolved_as_pi_tools_resolve_it(tree: dict[str, str]) -> None:
    resolved = resolve_call_path("@src/link_secrets/key", tree["p"], tree["h"])
    assert resolved.given == os.path.join(tree["p"], "src", "link_secrets", "key")
    assert resolved.real == os.path.join(tree["p"], "secrets", "key")
    assert resolve_call_path("//etc//x/../y", tree["p"], tree["h"]).given == "/etc/y"
    assert resolve_call_path("~/a", tree["p"], tree["h"]).given == os.path.join(tree["h"], "a")
    # a leading `@` is judged both dropped (pi's tools) and kept (Claude's tools)
    spellings = call_spellings("@x", tree["p"], tree["h"])
    assert spellings == [os.path.join(tree["p"], "x"), os.path.join(tree["p"], "@x")]


def test_is_inside_compares_whole_path_components() -> None:
    assert is_inside("/proj/src/a", ["/proj"])
    assert is_inside("/proj", ["/proj"])
    assert not is_inside("/project/a", ["/proj"])
    assert is_inside("/anything", ["/"])


@pytest.mark.parametrize(
    ("mode", "tool", "tool_input", "expected"),
    [
        ("default", "Read", {"file_path": "secrets/key"}, "deny"),
        ("default", "Read", {"file_path": "{p}/secrets/key"}, "deny"),
        ("default", "Read", {"file_path": "{p}/src/a.py"}, "allow"),
        ("acceptEdits", "Write", {"file_path": "{p}/docs/new.md"}, "allow"),
        ("acceptEdits", "Bash", {"command": "touch {p}/docs/new.md"}, "allow"),
        ("acceptEdits", "Write", {"file_path": "{o}/new.md"}, "ask"),
    ],
)
def test_a_cwd_reached_through_a_symlink_counts_as_given_and_as_real(
    tree: dict[str, str],
    tmp_path: Path,
    mode: str,
    tool: str,
    tool_input: dict[str, Any],
    expected: str,
) -> None:
    """The rules and the working folder follow the cwd's own symlink (macOS's /tmp, say)."""
    (tmp_path / "linked").symlink_to(tree["p"])
    linked = {**tree, "p": str(tmp_path / "linked")}
    policy = PermissionPolicy(
        mode=parse_mode(mode),
        deny=[parse_rule(_fill(rule, linked), linked["p"]) for rule in DENY],
        cwd=linked["p"],
        home=tree["h"],
    )
    assert policy.decide(tool, _fill(tool_input, tree)).behavior == expected


def test_a_search_refused_for_what_it_contains_says_how_to_narrow_it(
    tree: dict[str, str],
) -> None:
    policy = PermissionPolicy(
        deny=[parse_rule("Read(./secrets/**)", tree["p"])], cwd=tree["p"], home=tree["h"]
    )
    wide = policy.decide("Grep", {"pattern": "x", "path": "."})
    assert wide.message == (
        "Permission to use Grep has been denied. The search would reach paths that "
        "Read(./secrets/**) covers; search a folder that does not contain them."
    )
    inside = policy.decide("Grep", {"pattern": "x", "path": "secrets"})
    assert inside.message == "Permission to use Grep has been denied."
