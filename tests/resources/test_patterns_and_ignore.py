"""Settings patterns (globs, `!`, `+`, `-`) and `.gitignore`-style rules in resource folders."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pi_core.resources.discovery import (
    ancestor_agents_skill_dirs,
    collect_files,
    collect_top_level,
    expand_tilde,
    find_git_root,
)
from pi_core.resources.ignore import IgnoreMatcher, prefix_pattern
from pi_core.resources.patterns import (
    apply_patterns,
    enabled_by_overrides,
    is_pattern,
    split_patterns,
)

Write = Callable[[Path, str], Path]


@pytest.mark.parametrize(
    ("rules", "path", "ignored"),
    [
        (["*.log"], "a/b/debug.log", True),
        (["build/"], "build/", True),
        (["build/"], "build", False),  # a file named build
        (["build/"], "build/out.md", True),  # inside an ignored folder
        (["docs/*.md"], "docs/a.md", True),
        (["docs/*.md"], "x/docs/a.md", False),  # a slash anchors the rule
        (["**/tmp"], "a/b/tmp/", True),
        (["a/**/z.md"], "a/b/c/z.md", True),
        (["*.md", "!keep.md"], "keep.md", False),
        (["drafts/", "!drafts/keep.md"], "drafts/keep.md", True),  # parent stays ignored
        (["\\#literal"], "#literal", True),
        (["file[0-9].md"], "file7.md", True),
        (["?.md"], "ab.md", False),
    ],
)
def test_ignore_rules(rules: list[str], path: str, ignored: bool) -> None:
    matcher = IgnoreMatcher()
    matcher.add(rules)
    assert matcher.ignores(path) is ignored


def test_rules_from_nested_folders_are_prefixed() -> None:
    assert prefix_pattern("/build", "sub/") == "sub/build"
    assert prefix_pattern("!keep", "sub/") == "!sub/keep"
    assert prefix_pattern("\\!bang", "") == "!bang"
    assert prefix_pattern("# comment", "") is None
    assert prefix_pattern("   ", "") is None


def test_ignore_files_apply_while_collecting(tmp_path: Path, write: Write) -> None:
    write(tmp_path / ".fdignore", "secret.md\n")
    write(tmp_path / "sub" / ".ignore", "local.md\n")
    for rel in ("a.md", "secret.md", "sub/local.md", "sub/b.md", "sub/deeper/local.md"):
        write(tmp_path / rel, "x")
    found = [Path(p).relative_to(tmp_path).as_posix() for p in collect_files(str(tmp_path), ".md")]
    # pi's quirk: "local.md" from sub/.ignore becomes "sub/local.md", anchored to sub/
    assert found == ["a.md", "sub/b.md", "sub/deeper/local.md"]
    assert [Path(p).name for p in collect_top_level(str(tmp_path), ".md")] == ["a.md"]


def test_broken_symlinks_are_skipped(tmp_path: Path, write: Write) -> None:
    write(tmp_path / "real.md", "x")
    (tmp_path / "dangling.md").symlink_to(tmp_path / "missing.md")
    (tmp_path / "alias.md").symlink_to(tmp_path / "real.md")
    names = [Path(p).name for p in collect_top_level(str(tmp_path), ".md")]
    assert names == ["alias.md", "real.md"]


def test_settings_patterns(tmp_path: Path) -> None:
    base = str(tmp_path)
    files = [f"{base}/skills/{n}/SKILL.md" for n in ("alpha", "beta", "draft-x")] + [
        f"{base}/prompts/a.md"
    ]
    assert split_patterns(["./x", "*.md", "!y", "+z", "-w"]) == (
        ["./x"],
        ["*.md", "!y", "+z", "-w"],
    )
    assert is_pattern("a?b") and not is_pattern("plain/path")
    assert apply_patterns(files, [], base) == set(files)
    assert apply_patterns(files, ["skills/*/SKILL.md"], base) == set(files[:3])
    assert apply_patterns(files, ["!draft-*"], base) == {files[0], files[1], files[3]}
    assert apply_patterns(files, ["!draft-*", "+skills/draft-x"], base) == set(files)
    assert apply_patterns(files, ["+./skills/beta", "-skills/beta"], base) == {
        files[0],
        files[2],
        files[3],
    }
    assert apply_patterns(files, ["a.md"], base) == {files[3]}  # a base name matches
    assert enabled_by_overrides(files[0], ["plain", "!alpha"], base) is False
    assert enabled_by_overrides(files[0], ["!alpha", "+skills/alpha"], base) is True
    assert enabled_by_overrides(files[0], ["+skills/alpha", "-skills/alpha"], base) is False
    assert enabled_by_overrides(files[0], [f"-{base}/skills/alpha/SKILL.md"], base) is False


def test_git_root_and_agents_dirs(tmp_path: Path) -> None:
    inner = tmp_path / "repo" / "pkg" / "src"
    inner.mkdir(parents=True)
    (tmp_path / "repo" / ".git").write_text("gitdir: elsewhere")  # worktrees use a .git file
    assert find_git_root(str(inner)) == str(tmp_path / "repo")
    assert ancestor_agents_skill_dirs(str(inner)) == [
        str(inner / ".agents" / "skills"),
        str(tmp_path / "repo" / "pkg" / ".agents" / "skills"),
        str(tmp_path / "repo" / ".agents" / "skills"),
    ]


def test_tilde(home: Path) -> None:
    assert expand_tilde("~") == str(home)
    assert expand_tilde(" ~/x ") == str(home / "x")
    assert expand_tilde("~x") == str(home / "x")  # pi's reading of "~x"
    assert expand_tilde("/abs") == "/abs"


def test_settings_globs_read_as_minimatch_does(tmp_path: Path) -> None:
    base = str(tmp_path)
    files = [f"{base}/skills/{n}/SKILL.md" for n in ("alpha", "beta", ".hidden")]
    assert apply_patterns(files, ["skills/{alpha,beta}/SKILL.md"], base) == set(files[:2])
    assert apply_patterns(files, ["skills/*/SKILL.md"], base) == set(files[:2])  # no dot files
    hidden = ["skills/@(alpha|.hidden)/SKILL.md"]  # an extglob naming the dot explicitly
    assert apply_patterns(files, hidden, base) == {files[0], files[2]}
