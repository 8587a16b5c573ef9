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


def git(repo: Path, *args: str, stdin: str = "") -> str:
    """Run git in `repo` with no user or system configuration."""
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "XDG_CONFIG_HOME": str(repo / ".no-config"), "HOME": str(repo)}  # fmt: skip
    done = subprocess.run(
        ["git", *args], cwd=repo, env=env, input=stdin, capture_output=True, text=True, check=False
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
