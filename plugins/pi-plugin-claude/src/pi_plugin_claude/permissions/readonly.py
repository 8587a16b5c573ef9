"""Whether one simple command only reads, and which paths it reads, as Claude Code classifies it.

A command is read-only only if its name is on the list and every option is one known not to
write or execute (`find` without `-delete`/`-exec`, `sort` without `-o`, `git branch` only
listing …); the lists follow Claude Code 2.1's. Redirections are judged by the caller.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pi_plugin_claude.permissions.git_readonly import git_classify
from pi_plugin_claude.permissions.shell import SimpleCommand

Operands = Literal["paths", "none", "pattern", "one_path"]


@dataclass(frozen=True)
class Classification:
    """A simple command's verdict: read-only or not, and the paths it reads."""

    read_only: bool
    paths: tuple[str, ...] = ()
    unknown_paths: bool = False
    """A path argument is only known at run time (`cat $F`, words from xargs)."""


NOT_READ_ONLY = Classification(False)


@dataclass(frozen=True)
class _Spec:
    """A read-only command: its options (None: any), those taking a value, its operands."""

    operands: Operands = "paths"
    flags: frozenset[str] | None = None
    with_value: frozenset[str] = frozenset()
    path_values: frozenset[str] = frozenset()
    """Options whose value is a file read (`grep -f FILE`, `date -r FILE`)."""
    max_operands: int | None = None
    check: Callable[[list[str]], bool] | None = None
    """Extra test of the operands (not options); False means not read-only."""
    denied: frozenset[str] = frozenset()
    """Options that write even though the command otherwise only reads."""


def _f(*names: str) -> frozenset[str]:
    return frozenset(names)


_GREP_VALUES = _f("-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "-B", "-C",
                  "--after-context", "--before-context", "--context", "--include", "--exclude",
                  "--exclude-dir", "--exclude-from", "-d", "--directories", "-D", "--devices",
                  "--label", "--binary-files", "--group-separator",
                  "--color", "--colour")  # fmt: skip
_RG_FLAGS = _f("-e", "--regexp", "-f", "--file", "-i", "--ignore-case", "-S", "--smart-case",
               "-F", "--fixed-strings", "-w", "--word-regexp", "-v", "--invert-match", "-c",
               "--count", "-l", "--files-with-matches", "--files-without-match", "-n",
               "--line-number", "-o", "--only-matching", "-A", "--after-context", "-B",
               "--before-context", "-C", "--context", "-H", "-h", "--heading", "--no-heading",
               "-q", "--quiet", "--column", "-g", "--glob", "-t", "--type", "-T", "--type-not",
               "--type-list", "--hidden", "--no-ignore", "-u", "-m", "--max-count", "-d",
               "--max-depth", "-a", "--text", "-L", "--follow", "--color", "--json", "--stats",
               "--help", "--version", "--debug", "--files", "-N", "--no-line-number")  # fmt: skip
_RG_VALUES = _f("-e", "--regexp", "-f", "--file", "-A", "--after-context", "-B",
                "--before-context", "-C", "--context", "-g", "--glob", "-t", "--type", "-T",
                "--type-not", "-m", "--max-count", "-d", "--max-depth", "--color")  # fmt: skip
_SORT_FLAGS = _f("-b", "--ignore-leading-blanks", "-d", "--dictionary-order", "-f",
                 "--ignore-case", "-g", "--general-numeric-sort", "-h", "--human-numeric-sort",
                 "-i", "--ignore-nonprinting", "-M", "--month-sort", "-n", "--numeric-sort", "-R",
                 "--random-sort", "-r", "--reverse", "--sort", "-s", "--stable", "-u",
                 "--unique", "-V", "--version-sort", "-z", "--zero-terminated", "-k", "--key",
                 "-t", "--field-separator", "-c", "--check", "-C", "--check-char-order", "-m",
                 "--merge", "-S", "--buffer-size", "--parallel", "--batch-size", "--help",
                 "--version")  # fmt: skip
_SORT_VALUES = _f("--sort", "-k", "--key", "-t", "--field-separator", "-S", "--buffer-size",
                  "--parallel", "--batch-size")  # fmt: skip
_TREE_FLAGS = _f("-a", "-d", "-l", "-f", "-x", "-L", "-P", "-I", "--gitignore", "--ignore-case",
                 "--matchdirs", "--metafirst", "--prune", "--noreport", "--charset",
                 "--filelimit", "-q", "-N", "-Q", "-p", "-u", "-g", "-s", "-h", "--si", "--du",
                 "-D", "--timefmt", "-F", "--inodes", "--device", "-v", "-t", "-c", "-U", "-r",
                 "--dirsfirst", "--filesfirst", "--sort", "-i", "-A", "-S", "-n", "-C", "-X",
                 "-J", "--help", "--version")  # fmt: skip
_TREE_VALUES = _f("-L", "-P", "-I", "--charset", "--filelimit", "--timefmt", "--sort")
_UNIQ_FLAGS = _f("-c", "--count", "-d", "--repeated", "-D", "-u", "--unique", "-i",
                 "--ignore-case", "-z", "--zero-terminated", "-f", "--skip-fields", "-s",
                 "--skip-chars", "-w", "--check-chars", "--all-repeated", "--group")  # fmt: skip
_DATE_FLAGS = _f("-d", "--date", "-r", "--reference", "-u", "--utc", "--universal", "-I",
                 "--iso-8601", "-R", "--rfc-email", "--rfc-3339", "--debug", "--help",
                 "--version")  # fmt: skip
_SED_FLAGS = _f("-e", "--expression", "-n", "--quiet", "--silent", "-E", "-r",
                "--regexp-extended", "--posix", "-l", "--line-length", "-z",
                "--zero-terminated", "-s", "--separate", "-u", "--unbuffered", "--debug",
                "--help", "--version")  # fmt: skip
_FIND_UNSAFE = _f("-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0",
                  "-fprintf", "-fls", "-files0-from")  # fmt: skip
_JQ_UNSAFE = _f("-f", "--from-file", "--rawfile", "--slurpfile", "-L", "--library-path",
                "--run-tests")  # fmt: skip


def _date_operands(operands: list[str]) -> bool:
    return all(op.startswith("+") for op in operands)  # `date 0101…` sets the clock


_SED_ADDRESS = r"(?:\d+|\$|/(?:[^/\\]|\\.)*/)(?:\s*,\s*(?:\d+|\$|/(?:[^/\\]|\\.)*/))?"
_SED_SUBST = r"s(.)(?:(?!\1)[^\\]|\\.)*\1(?:(?!\1)[^\\]|\\.)*\1[gpiIm0-9]*"
_SED_COMMAND = re.compile(rf"\s*(?:{_SED_ADDRESS})?\s*!?\s*(?:[pdqQ=lnNgGhHxz]|{_SED_SUBST})?\s*")


def sed_script_is_safe(script: str) -> bool:
    """Whether a sed script only prints and substitutes (no `w`, `e`, `r` commands or flags)."""
    return all(_SED_COMMAND.fullmatch(part) for part in re.split(r"[;\n]", script) if part.strip())


_JQ_ENV = re.compile(r"\benv\b|\$ENV|\binput_filename\b|\binclude\b|\bimport\b")


def _jq_filter(operands: list[str]) -> bool:
    return not operands or not _JQ_ENV.search(operands[0])


_PATHS = _Spec(denied=_f("--files0-from"))  # `wc --files0-from=F` reads the files F names
_NO_PATHS = _Spec(operands="none")

SPECS: dict[str, _Spec] = {
    **dict.fromkeys(
        (
            "cat",
            "tac",
            "rev",
            "nl",
            "wc",
            "stat",
            "strings",
            "hexdump",
            "od",
            "column",
            "paste",
            "comm",
            "cmp",
            "diff",
            "fold",
            "expand",
            "unexpand",
            "fmt",
            "du",
            "df",
            "realpath",
            "readlink",
            "ls",
            "sha256sum",
            "sha1sum",
            "md5sum",
            "cksum",
            "cd",
        ),
        _PATHS,
    ),
    "file": _Spec(denied=_f("-C", "--compile")),  # -C writes a compiled magic file
    "hostname": _Spec(operands="none", check=lambda operands: not operands),  # NAME sets it
    "head": _Spec(with_value=_f("-n", "-c", "--lines", "--bytes")),
    "tail": _Spec(with_value=_f("-n", "-c", "--lines", "--bytes", "-s", "--sleep-interval")),
    "cut": _Spec(with_value=_f("-d", "-f", "-c", "-b", "--delimiter", "--fields")),
    **dict.fromkeys(
        (
            "echo",
            "printf",
            "true",
            "false",
            "pwd",
            "whoami",
            "id",
            "uname",
            "which",
            "type",
            "seq",
            "sleep",
            "expr",
            "basename",
            "dirname",
            "groups",
            "nproc",
            "locale",
            "cal",
            "uptime",
            "free",
            "arch",
            "printenv",
            "env",
            "tr",
            "test",
            "[",
            "[[",
        ),
        _NO_PATHS,
    ),
    "command": _Spec(operands="none", flags=_f("-v", "-V", "-p")),
    **dict.fromkeys(
        ("grep", "egrep", "fgrep"),
        _Spec(operands="pattern", with_value=_GREP_VALUES, path_values=_f("-f", "--file")),
    ),
    "rg": _Spec(
        operands="pattern", flags=_RG_FLAGS, with_value=_RG_VALUES, path_values=_f("-f", "--file")
    ),
    "sort": _Spec(flags=_SORT_FLAGS, with_value=_SORT_VALUES),
    "uniq": _Spec(flags=_UNIQ_FLAGS, with_value=_f("-f", "-s", "-w"), max_operands=1),
    "tree": _Spec(flags=_TREE_FLAGS, with_value=_TREE_VALUES),
    "date": _Spec(
        operands="none",
        flags=_DATE_FLAGS,
        with_value=_f("-d", "--date", "-r", "--reference"),
        path_values=_f("-r", "--reference"),
        check=_date_operands,
    ),
    "jq": _Spec(
        operands="pattern", with_value=_f("--arg", "--argjson", "--indent"), check=_jq_filter
    ),
}


def classify(command: SimpleCommand) -> Classification:
    """Classify one simple command (after wrapper removal) as read-only or not."""
    if command.unknown:
        return NOT_READ_ONLY
    if not command.argv:
        return Classification(True)  # a bare `X=1`: nothing runs
    name, args = command.argv[0], list(command.argv[1:])
    dynamic = {i - 1 for i in command.dynamic if i > 0}
    if name == "git":
        verdict = git_classify(args)
        return Classification(verdict.read_only, verdict.paths, bool(dynamic) and verdict.read_only)
    if name == "find":
        return _find(args, dynamic)
    if name == "sed":
        return _sed(args, dynamic)
    if name == "cd":
        return _cd(args, dynamic)
    spec = SPECS.get(name)
    if spec is None:
        return NOT_READ_ONLY
    if name in ("jq",) and any(a.split("=")[0] in _JQ_UNSAFE for a in args):
        return NOT_READ_ONLY
    return _by_spec(spec, args, dynamic)


def _by_spec(spec: _Spec, args: list[str], dynamic: set[int]) -> Classification:
    operands: list[tuple[int, str]] = []
    paths: list[str] = []
    unknown = False
    index = 0
    options_done = False
    while index < len(args):
        arg = args[index]
        if (
            options_done
            or not arg.startswith("-")
            or arg == "-"
            or (spec.operands == "none" and spec.flags is None)
        ):
            operands.append((index, arg))
            index += 1
            continue
        if arg == "--":
            options_done = True
            index += 1
            continue
        flag, eq, value = arg.partition("=")
        short_value = ""
        if not flag.startswith("--") and len(flag) > 2 and flag[:2] in spec.with_value:
            flag, short_value = flag[:2], flag[2:]
        elif not flag.startswith("--") and len(flag) > 2 and spec.flags is not None:
            if not all(f"-{c}" in spec.flags and f"-{c}" not in spec.with_value for c in flag[1:]):
                return NOT_READ_ONLY  # combined short flags must all be known and plain
            index += 1
            continue
        if (spec.flags is not None and flag not in spec.flags) or flag in spec.denied:
            return NOT_READ_ONLY
        if flag in spec.with_value and not eq and not short_value:
            value = args[index + 1] if index + 1 < len(args) else ""
            unknown = unknown or (index + 1 in dynamic and flag in spec.path_values)
            index += 2
        else:
            index += 1
        if flag in spec.path_values:
            paths.append(value or short_value)
    if any(f in args for f in ("-e", "--regexp", "-f", "--file")) and spec.operands == "pattern":
        pattern_taken = True
    else:
        pattern_taken = spec.operands != "pattern"
    if spec.check is not None and not spec.check([arg for _, arg in operands]):
        return NOT_READ_ONLY
    if spec.max_operands is not None and len(operands) > spec.max_operands:
        return NOT_READ_ONLY
    if spec.operands in ("paths", "pattern"):
        for position, (at, arg) in enumerate(operands):
            if not pattern_taken and position == 0:
                continue
            if at in dynamic:
                unknown = True
            else:
                paths.append(arg)
    return Classification(True, tuple(p for p in paths if p and p != "-"), unknown)


def _find(args: list[str], dynamic: set[int]) -> Classification:
    if any(arg in _FIND_UNSAFE for arg in args):
        return NOT_READ_ONLY
    paths: list[str] = []
    unknown = False
    start = 0
    while start < len(args) and (
        args[start] in ("-H", "-L", "-P", "-D") or args[start][:2] == "-O"
    ):
        start += 2 if args[start] == "-D" else 1  # options before the paths: find -L / …
    for index, arg in enumerate(args):
        if index < start:
            continue
        if arg.startswith(("-", "(", "!")) or arg in ("(", ")", "!"):
            break
        if index in dynamic:
            unknown = True
        else:
            paths.append(arg)
    # an expression whose operand is dynamic could be `-delete` once expanded
    unknown = unknown or any(i >= start + len(paths) for i in dynamic)
    return Classification(True, tuple(paths) or (".",), unknown)


def _sed(args: list[str], dynamic: set[int]) -> Classification:
    scripts: list[str] = []
    operands: list[str] = []
    index = 0
    while index < len(args):
        arg = args[index]
        if index in dynamic:
            return NOT_READ_ONLY
        flag, eq, value = arg.partition("=")
        if flag in ("-e", "--expression"):
            scripts.append(value if eq else args[index + 1] if index + 1 < len(args) else "")
            index += 1 if eq else 2
            continue
        if arg.startswith("-") and arg != "-":
            if flag in _SED_FLAGS or (
                all(f"-{c}" in _SED_FLAGS for c in flag[1:]) and not flag.startswith("--")
            ):
                index += 1
                continue
            return NOT_READ_ONLY  # -i edits in place, -f reads a script we cannot see
        operands.append(arg)
        index += 1
    if not scripts:
        if not operands:
            return NOT_READ_ONLY
        scripts, operands = [operands[0]], operands[1:]
    if not all(sed_script_is_safe(script) for script in scripts):
        return NOT_READ_ONLY
    if not any(a in ("-n", "--quiet", "--silent") or _short_has(a, "n") for a in args):
        return NOT_READ_ONLY  # without -n sed echoes every line: Claude Code asks for it
    return Classification(True, tuple(operands))


def _cd(args: list[str], dynamic: set[int]) -> Classification:
    """`cd DIR` reads nothing but moves later commands: its folder must be inside."""
    operands = [(i, a) for i, a in enumerate(args) if not a.startswith("-") or a == "-"]
    if len(operands) > 1 or any(i in dynamic or a == "-" for i, a in operands):
        return Classification(True, (), unknown_paths=True)  # `cd -`, `cd $X`: unknown folder
    return Classification(True, (operands[0][1] if operands else "~",))


def _short_has(arg: str, letter: str) -> bool:
    """Whether a bundle of short options (`-nE`) holds `letter`."""
    return arg.startswith("-") and not arg.startswith("--") and letter in arg[1:]


def sed_edit_is_safe(args: list[str]) -> bool:
    """Whether `sed ARGS` (maybe with `-i`) only prints and substitutes: no `w`, `e`, `r`, `-f`."""
    scripts: list[str] = []
    operands: list[str] = []
    index = 0
    while index < len(args):
        flag, eq, value = args[index].partition("=")
        if flag in ("-e", "--expression"):
            scripts.append(value if eq else args[index + 1] if index + 1 < len(args) else "")
            index += 1 if eq else 2
            continue
        if flag in ("-f", "--file") or (_short_has(flag, "f") and not flag.startswith("--")):
            return False
        if not args[index].startswith("-") or args[index] == "-":
            operands.append(args[index])
        index += 1
    scripts = scripts or operands[:1]
    return bool(scripts) and all(sed_script_is_safe(script) for script in scripts)
