"""`.gitignore`-style rules: one matcher for resource folders and for the REPL's `@` file search.

`IgnoreMatcher` holds layers of rules, each read in one folder and applied below it with git's
rules (`pathspec`): the last matching rule of a layer wins, a deeper layer beats a shallower one,
a higher tier beats a lower one, and a path inside an ignored folder stays ignored.

Resource folders fill it as pi's resource loader does (`add_ignore_rules`: every ignore file's
rules prefixed with its folder and put at the root); the `@` search fills it as `fd` does
(`add_folder_rules`: each folder's own layer, `.fdignore` over `.ignore` over `.gitignore` over
`.git/info/exclude`).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathspec import GitIgnoreSpec

IGNORE_FILE_NAMES = (".gitignore", ".ignore", ".fdignore")


@dataclass
class _Layer:
    base: str
    tier: int
    patterns: list[str]
    spec: GitIgnoreSpec | None = None

    def verdict(self, rel_path: str) -> bool | None:
        """True (ignored), False (re-included by a `!` rule) or None (no rule of this layer)."""
        if not rel_path.startswith(self.base) or rel_path == self.base:
            return None
        if self.spec is None:
            from pathspec import GitIgnoreSpec  # only when some folder has ignore rules

            self.spec = GitIgnoreSpec.from_lines(self.patterns)
        return self.spec.check_file(rel_path[len(self.base) :]).include


@dataclass
class IgnoreMatcher:
    """Accumulates ignore rules and answers whether a relative posix path is ignored.

    Each path is tested with git's rules (`pathspec`); a path inside an ignored folder stays
    ignored even when a later `!rule` names it, as git and pi's `ignore` package decide.
    """

    _layers: list[_Layer] = field(default_factory=list, repr=False)

    def add(self, patterns: list[str], base: str = "", tier: int = 0) -> None:
        """Add the rules of one ignore file read in folder `base` ("" or ending in `/`).

        `!` negates and a trailing `/` matches folders only; among layers that match a path, the
        highest `tier` decides, and within a tier the layer added last (the deepest) does.
        """
        if patterns:
            self._layers.append(_Layer(base, tier, list(patterns)))

    def ignores_entry(self, rel_path: str) -> bool:
        """Whether the rules ignore this path itself (a trailing `/` marks a folder).

        Its folders are not checked: for a walk that never enters an ignored folder.
        """
        decided: tuple[int, bool] | None = None
        for layer in self._layers:
            verdict = layer.verdict(rel_path)
            if verdict is not None and (decided is None or layer.tier >= decided[0]):
                decided = (layer.tier, verdict)
        return decided is not None and decided[1]

    def ignores(self, rel_path: str) -> bool:
        """Return whether `rel_path` (a trailing `/` marks a folder) or one of its folders is."""
        if not self._layers:
            return False
        parts = rel_path.rstrip("/").split("/")
        for depth in range(1, len(parts)):
            if self.ignores_entry("/".join(parts[:depth]) + "/"):
                return True
        return self.ignores_entry(rel_path)


def _lines(path: str) -> list[str] | None:
    try:
        with open(path, encoding="utf-8") as handle:
            return re.split(r"\r?\n", handle.read())
    except (OSError, UnicodeDecodeError):
        return None


def prefix_pattern(line: str, prefix: str) -> str | None:
    """Turn one ignore-file line into a rule relative to the scan root (None for blanks)."""
    trimmed = line.strip()
    if not trimmed or (trimmed.startswith("#") and not trimmed.startswith("\\#")):
        return None
    pattern = line
    negated = False
    if pattern.startswith("!"):
        negated = True
        pattern = pattern[1:]
    elif pattern.startswith("\\!"):
        pattern = pattern[1:]
    if pattern.startswith("/"):
        pattern = pattern[1:]
    prefixed = f"{prefix}{pattern}" if prefix else pattern
    return f"!{prefixed}" if negated else prefixed


def add_ignore_rules(matcher: IgnoreMatcher, folder: str, root: str) -> None:
    """Read the ignore files in `folder` into `matcher`, relative to `root` (pi's resource rules).

    Each rule is prefixed with the folder's path, so a nested `*.md` only matches files directly
    in that folder, as pi's resource loader decides.
    """
    relative = os.path.relpath(folder, root)
    prefix = "" if relative == "." else relative.replace(os.sep, "/") + "/"
    for name in IGNORE_FILE_NAMES:
        lines = [prefix_pattern(line, prefix) for line in _lines(os.path.join(folder, name)) or []]
        matcher.add([line for line in lines if line])


def add_folder_rules(
    matcher: IgnoreMatcher, folder: str, base: str, names: tuple[str, ...] = IGNORE_FILE_NAMES
) -> None:
    """Read the ignore files `names` in `folder` as its own layers, as git and `fd` apply them.

    `base` is the folder relative to the matcher's root ("" or ending in `/`); a later name in
    `names` takes precedence over an earlier one, as `.fdignore` does over `.gitignore` in `fd`.
    """
    for tier, name in enumerate(names, start=1):
        matcher.add(_lines(os.path.join(folder, name)) or [], base, tier)


def add_git_exclude(matcher: IgnoreMatcher, git_dir: str, base: str = "") -> None:
    """Read `.git/info/exclude`: rules at the repository root below every ignore file."""
    matcher.add(_lines(os.path.join(git_dir, "info", "exclude")) or [], base, 0)
