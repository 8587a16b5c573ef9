"""The `@` file search ignores what git ignores: a table of rules checked by `git check-ignore`.

Each case writes a small tree into a fresh repository; the paths `project_files` offers must be
exactly those `git check-ignore` does not report, and the ignored ones must be the case's own.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from pi_core.modes.interactive.files import project_files

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

CASES: dict[str, tuple[dict[str, str], set[str]]] = {
    "double-star folder": (
        {
            ".gitignore": "**/node_modules\n",
            "node_modules/a.js": "",
            "web/node_modules/b.js": "",
            "src/node_modules_x.js": "",
        },
        {"node_modules/", "node_modules/a.js", "web/node_modules/", "web/node_modules/b.js"},
    ),
    "slash anchors": (
        {
            ".gitignore": "doc/*.txt\n",
            "doc/a.txt": "",
            "doc/sub/b.txt": "",
            "x/doc/c.txt": "",
            "a.txt": "",
        },
        {"doc/a.txt"},
    ),
    "leading slash": (
        {".gitignore": "/build\n", "build/out.o": "", "src/build/keep.c": "", "build.txt": ""},
        {"build/", "build/out.o"},
    ),
    "negation": (
        {
            ".gitignore": "*.log\n!keep.log\n",
            "a.log": "",
            "keep.log": "",
            "sub/keep.log": "",
            "sub/b.log": "",
        },
        {"a.log", "sub/b.log"},
    ),
    "no re-including inside an ignored folder": (
        {".gitignore": "out/\n!out/keep.txt\n", "out/keep.txt": "", "out/x.txt": ""},
        {"out/", "out/keep.txt", "out/x.txt"},
    ),
    "nested files": (
        {
            ".gitignore": "*.tmp\n",
            "sub/.gitignore": "!special.tmp\n*.md\n/only-here\n",
            "a.tmp": "",
            "sub/special.tmp": "",
            "sub/x.tmp": "",
            "sub/r.md": "",
            "sub/deep/r.md": "",
            "r.md": "",
            "sub/only-here": "",
            "sub/deep/only-here": "",
            "only-here": "",
        },
        {"a.tmp", "sub/x.tmp", "sub/r.md", "sub/deep/r.md", "sub/only-here"},
    ),
    "trailing slash matches folders only": (
        {".gitignore": "cache/\n", "cache/x": "", "a/cache/y": "", "b/cache": ""},
        {"cache/", "cache/x", "a/cache/", "a/cache/y"},
    ),
    "escaped hash and comments": (
        {".gitignore": "\\#file\n#other\n", "#file": "", "#other": ""},
        {"#file"},
    ),
    "trailing spaces": (
        {".gitignore": "trail.txt   \nspace\\ \n", "trail.txt": "", "space ": "", "space": ""},
        {"trail.txt", "space "},
    ),
    "info/exclude below .gitignore": (
        {
            ".git/info/exclude": "*.env\n",
            ".gitignore": "!public.env\n",
            "secret.env": "",
            "public.env": "",
        },
        {"secret.env"},
    ),
    "deeper file wins": (
        {".gitignore": "!*.gen\n", "lib/.gitignore": "*.gen\n", "a.gen": "", "lib/b.gen": ""},
        {"lib/b.gen"},
    ),
}


@pytest.fixture(autouse=True)
def home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty home and config folder, read alike by git and by the search."""
    folder = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / ".config"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("GIT_CONFIG_GLOBAL", raising=False)
    return folder


def git(repo: Path, *args: str, stdin: str = "") -> str:
    """Run git in `repo` (with the test's home, and no system configuration)."""
    done = subprocess.run(
        ["git", *args], cwd=repo, input=stdin, capture_output=True, text=True, check=False
    )
    assert done.returncode in (0, 1), done.stderr
    return done.stdout


def make_repo(root: Path, files: dict[str, str]) -> list[str]:
    """A fresh repository holding `files`; every path in it (folders end in `/`) but .git's."""
    git(root, "init", "-q")
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    paths = []
    for folder, dirs, names in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git"]
        rel = Path(folder).relative_to(root).as_posix()
        prefix = "" if rel == "." else rel + "/"
        paths += [prefix + d + "/" for d in dirs] + [prefix + n for n in names]
    return sorted(paths)


def git_ignored(repo: Path, paths: list[str]) -> set[str]:
    """The paths `git check-ignore` reports as ignored."""
    out = git(repo, "check-ignore", "--stdin", "-z", stdin="\0".join(paths) + "\0")
    return {path for path in out.split("\0") if path}


@pytest.mark.parametrize("case", sorted(CASES))
def test_at_search_offers_exactly_what_git_does_not_ignore(tmp_path: Path, case: str) -> None:
    files, ignored = CASES[case]
    paths = make_repo(tmp_path, files)
    assert git_ignored(tmp_path, paths) == ignored  # the table states git's own answer
    assert sorted(project_files(tmp_path)) == sorted(set(paths) - ignored)


def test_rules_of_the_folders_above_apply_in_a_subfolder(tmp_path: Path) -> None:
    files = {".gitignore": "*.o\npkg/gen/\n", "pkg/.gitignore": "!keep.o\n", "pkg/a.o": "",
             "pkg/keep.o": "", "pkg/gen/x.py": "", "pkg/main.py": ""}  # fmt: skip
    paths = make_repo(tmp_path, files)
    ignored = git_ignored(tmp_path, paths)
    assert ignored == {"pkg/a.o", "pkg/gen/", "pkg/gen/x.py"}
    expected = {p.removeprefix("pkg/") for p in paths if p.startswith("pkg/") and p != "pkg/"}
    assert sorted(project_files(tmp_path / "pkg")) == sorted(expected - {"a.o", "gen/", "gen/x.py"})


def test_outside_a_repository_only_ignore_and_fdignore_count(tmp_path: Path) -> None:
    """As `fd` (pi's `@` search) does: `.gitignore` needs a git repository, `.ignore` does not."""
    folder = tmp_path / "plain"
    folder.mkdir()
    for name, text in {".gitignore": "a.txt\n", ".ignore": "b.txt\n", ".fdignore": "c.txt\n",
                       "a.txt": "", "b.txt": "", "c.txt": "", "d.txt": ""}.items():  # fmt: skip
        (folder / name).write_text(text)
    assert sorted(project_files(folder)) == [".fdignore", ".gitignore", ".ignore", "a.txt",
                                                 "d.txt"]  # fmt: skip


def test_git_global_excludes_file_counts_inside_a_repository(tmp_path: Path, home: Path) -> None:
    (home / ".gitconfig").write_text(
        "[user]\n\tname = x\n[core]\n\texcludesFile = ~/global-ignore\n"
    )
    (home / "global-ignore").write_text("*.bak\n")
    paths = make_repo(tmp_path, {".gitignore": "!keep.bak\n", "a.bak": "", "keep.bak": ""})
    assert git_ignored(tmp_path, paths) == {"a.bak"}
    assert "a.bak" not in project_files(tmp_path) and "keep.bak" in project_files(tmp_path)


def test_the_default_global_excludes_file(tmp_path: Path, home: Path) -> None:
    (home / ".config" / "git").mkdir(parents=True)
    (home / ".config" / "git" / "ignore").write_text("*.swp\n")
    paths = make_repo(tmp_path, {"a.swp": "", "a.txt": ""})
    assert git_ignored(tmp_path, paths) == {"a.swp"}
    assert "a.swp" not in project_files(tmp_path) and "a.txt" in project_files(tmp_path)


def test_linked_folders_are_entered_and_loops_left_out(tmp_path: Path) -> None:
    """As `fd --follow` walks: a link to a folder lists the folder's files under the link."""
    make_repo(tmp_path, {"real/x.py": "", "real/sub/y.py": ""})
    (tmp_path / "link").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "sub" / "up").symlink_to(tmp_path / "real")
    files = project_files(tmp_path)
    assert {"link/", "link/x.py", "link/sub/y.py", "real/sub/y.py"} <= set(files)
    assert not any("/up" in path for path in files)
