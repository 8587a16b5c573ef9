"""Which `git` invocations only read: the subcommand, its form, no writing or running option."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class GitVerdict:
    """Whether a git command line only reads, and the folders/files it names (`-C`, --no-index)."""

    read_only: bool
    paths: tuple[str, ...] = ()


_READ_ONLY = frozenset(
    {"status", "diff", "log", "show", "shortlog", "blame", "ls-files", "rev-parse", "rev-list",
     "describe", "cat-file", "for-each-ref", "grep", "merge-base", "ls-remote", "version",
     "show-ref", "ls-tree", "count-objects", "name-rev", "whatchanged", "diff-tree",
     "diff-files", "diff-index", "check-ignore", "check-attr", "var"}
)  # fmt: skip

# Options that write a file or run a program, in any read-only subcommand.
_UNSAFE_OPTIONS = frozenset(
    {"--output", "--output-directory", "--ext-diff", "--textconv", "-O",
     "--open-files-in-pager", "--upload-pack", "--exec", "--receive-pack", "--run",
     "--create-reflog", "--batch-all-objects", "--filters"}
)  # fmt: skip

_GLOBAL_WITH_VALUE = frozenset({"-C", "--git-dir", "--work-tree", "--namespace"})
_GLOBAL_PLAIN = frozenset(
    {"--no-pager", "-P", "--paginate", "-p", "--no-replace-objects", "--bare",
     "--literal-pathspecs", "--no-optional-locks", "--glob-pathspecs", "--noglob-pathspecs",
     "--icase-pathspecs"}
)  # fmt: skip

_LIST_ARGS = frozenset(
    {"--contains", "--no-contains", "--points-at", "--sort", "--format", "--merged",
     "--no-merged", "-n"}
)  # fmt: skip
_BRANCH_FLAGS = frozenset(
    {"-l", "--list", "-a", "--all", "-r", "--remotes", "-v", "-vv", "--verbose", "--color",
     "--no-color", "--column", "--no-column", "--abbrev", "--no-abbrev", "--contains",
     "--no-contains", "--merged", "--no-merged", "--points-at", "--sort", "--show-current",
     "-i", "--ignore-case", "--format"}
)  # fmt: skip
_TAG_FLAGS = frozenset(
    {"-l", "--list", "-n", "--contains", "--no-contains", "--merged", "--no-merged", "--sort",
     "--format", "--points-at", "--column", "--no-column", "-i", "--ignore-case"}
)  # fmt: skip
_SIGNATURE_FORMAT = re.compile(r"%[-+ ]?G|%\(\*?signature")


def git_classify(args: list[str]) -> GitVerdict:
    """Classify `git ARGS` (the words after `git`)."""
    paths: list[str] = []
    index = 0
    while index < len(args) and args[index].startswith("-"):
        flag, eq, value = args[index].partition("=")
        if flag in _GLOBAL_WITH_VALUE:
            paths.append(value if eq else args[index + 1] if index + 1 < len(args) else "")
            index += 1 if eq else 2
        elif flag in _GLOBAL_PLAIN:
            index += 1
        else:
            return GitVerdict(False)  # -c, --exec-path, --config-env … change what git runs
    if index >= len(args):
        return GitVerdict(False)
    sub, rest = args[index], args[index + 1 :]
    if any(_unsafe(arg) for arg in rest):
        return GitVerdict(False)
    if sub in ("branch", "tag"):
        return GitVerdict(_lists_only(rest, _BRANCH_FLAGS if sub == "branch" else _TAG_FLAGS))
    if sub == "stash":
        return GitVerdict(bool(rest) and rest[0] in ("list", "show"), tuple(paths))
    if sub == "worktree":
        return GitVerdict(bool(rest) and rest[0] == "list", tuple(paths))
    if sub == "remote":
        listing = all(a in ("-v", "--verbose") for a in rest)
        return GitVerdict(listing or rest[0] in ("show", "get-url"), tuple(paths))
    if sub == "reflog":
        return GitVerdict(not rest or rest[0] in ("show", "list") or rest[0].startswith("-"))
    if sub == "config":
        getters = {"--get", "--get-all", "--get-regexp", "--list", "-l", "get", "list"}
        return GitVerdict(any(a in getters for a in rest), tuple(paths))
    if sub not in _READ_ONLY:
        return GitVerdict(False)
    if "--no-index" in rest:
        paths.extend(a for a in rest if not a.startswith("-"))
    return GitVerdict(True, tuple(paths))


def _unsafe(arg: str) -> bool:
    flag = arg.partition("=")[0]
    # %G in a format verifies signatures: it runs gpg
    signature = flag in ("--format", "--pretty") and bool(_SIGNATURE_FORMAT.search(arg))
    return flag in _UNSAFE_OPTIONS or signature


def _lists_only(args: list[str], flags: frozenset[str]) -> bool:
    """`git branch`/`git tag` only list: known flags, and a name only after `--list`/`-l`."""
    listing = False
    index = 0
    while index < len(args):
        arg = args[index]
        flag = arg.partition("=")[0]
        if arg.startswith("-"):
            if flag not in flags:
                return False
            listing = listing or flag in ("-l", "--list")
            takes_value = (
                flag in _LIST_ARGS and "=" not in arg and flag not in ("--merged", "--no-merged")
            )
            index += 2 if takes_value else 1
            continue
        if not listing and (index == 0 or args[index - 1] not in ("--merged", "--no-merged")):
            return False  # `git branch NAME` creates a branch
        index += 1
    return True
