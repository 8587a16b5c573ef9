"""The ignore rules `fd` applies when it walks a folder (pi's `@` file search walks with `fd`).

Inside a git repository: git's global excludes file, the repository's `.git/info/exclude`, and the
`.gitignore`, `.ignore` and `.fdignore` files of every folder from the repository's top down;
outside one, only `.ignore` and `.fdignore`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from pi_core.resources.discovery import find_git_root
from pi_core.resources.ignore import (
    IGNORE_FILE_NAMES,
    IgnoreMatcher,
    add_folder_rules,
    add_git_exclude,
)

_EXCLUDES_FILE = re.compile(r"^\s*excludesfile\s*=\s*(.*?)\s*$", re.IGNORECASE)
_SECTION = re.compile(r"^\s*\[\s*([^\]\s]+)[^\]]*\]")


def git_dir(top: Path) -> Path:
    """The repository's git folder: `.git` itself, or where a `.git` file (a worktree) points."""
    marker = top / ".git"
    if marker.is_file():
        text = marker.read_text(encoding="utf-8", errors="replace").strip()
        if text.startswith("gitdir:"):
            return top / text.removeprefix("gitdir:").strip()
    return marker


def global_excludes_file(environ: Mapping[str, str] = os.environ) -> str:
    """Git's global excludes file: `core.excludesFile` of the user's git config, else the default.

    The config files are read as git reads them (`$XDG_CONFIG_HOME/git/config`, then
    `~/.gitconfig`, the later winning); the default is `$XDG_CONFIG_HOME/git/ignore`.
    """
    home = environ.get("HOME") or os.path.expanduser("~")
    config_home = environ.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
    found = os.path.join(config_home, "git", "ignore")
    for config in (os.path.join(config_home, "git", "config"), os.path.join(home, ".gitconfig")):
        try:
            with open(config, encoding="utf-8", errors="replace") as handle:
                lines = handle.read().splitlines()
        except OSError:
            continue
        section = ""
        for line in lines:
            header = _SECTION.match(line)
            if header:
                section = header.group(1).lower()
                continue
            value = _EXCLUDES_FILE.match(line)
            if section == "core" and value and value.group(1):
                text = value.group(1).strip('"')
                found = os.path.join(home, text[2:]) if text.startswith("~/") else text
    return found


def rules_above(
    root: Path, environ: Mapping[str, str] = os.environ
) -> tuple[IgnoreMatcher, str, tuple[str, ...]]:
    """A matcher holding the rules that apply above `root`, `root`'s path in it ("" or ending
    in `/`), and the ignore files to read in each folder walked below it."""
    matcher = IgnoreMatcher()
    top_name = find_git_root(str(root))
    if top_name is None:
        return matcher, "", tuple(name for name in IGNORE_FILE_NAMES if name != ".gitignore")
    top = Path(top_name)
    try:
        with open(global_excludes_file(environ), encoding="utf-8") as handle:
            matcher.add(handle.read().splitlines(), "", -1)
    except (OSError, UnicodeDecodeError):
        pass
    add_git_exclude(matcher, str(git_dir(top)))
    for folder in reversed([root, *root.parents][: len(root.parents) - len(top.parents) + 1]):
        if folder != root:
            rel = folder.relative_to(top).as_posix()
            add_folder_rules(matcher, str(folder), "" if rel == "." else rel + "/")
    rel = root.relative_to(top).as_posix()
    return matcher, "" if rel == "." else rel + "/", IGNORE_FILE_NAMES
