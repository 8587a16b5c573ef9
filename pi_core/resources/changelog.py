"""The project's CHANGELOG.md: where it is, its entries, and which are new since a version."""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

FILE_NAME = "CHANGELOG.md"
_HEADING = re.compile(r"##\s+\[?(?:(\d+)\.(\d+)\.(\d+)|(Unreleased))\]?", re.IGNORECASE)
UNRELEASED = (10**9, 0, 0)  # newer than any release


@dataclass(frozen=True)
class ChangelogEntry:
    """One `## [x.y.z]` (or `## [Unreleased]`) section, heading included."""

    version: tuple[int, int, int]
    content: str


def changelog_text() -> str | None:
    """Read CHANGELOG.md: shipped inside the `pi_core` package (a wheel), else at the root of
    the checkout `pi_core` was imported from (an editable install); None when neither exists."""
    shipped = resources.files("pi_core").joinpath(FILE_NAME)
    if shipped.is_file():
        return shipped.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[2] / FILE_NAME
    if checkout.is_file():
        return checkout.read_text(encoding="utf-8")
    return None


def parse_changelog(text: str) -> list[ChangelogEntry]:
    """Split the file into its version sections, in file order (newest first); text before the
    first section and sections without a version are left out, as pi does."""
    entries: list[ChangelogEntry] = []
    version: tuple[int, int, int] | None = None
    lines: list[str] = []

    def close() -> None:
        if version is not None:
            entries.append(ChangelogEntry(version, "\n".join(lines).strip()))

    for line in text.splitlines():
        if line.startswith("## "):
            close()
            match = _HEADING.match(line)
            version = _version_of(match) if match else None
            lines = [line]
        elif version is not None:
            lines.append(line)
    close()
    return entries


def parse_version(text: str) -> tuple[int, int, int]:
    """`1.2.3` → (1, 2, 3); missing or non-numeric parts count as 0."""
    parts = [int(part) if part.isdigit() else 0 for part in text.strip().split(".")[:3]]
    parts += [0] * (3 - len(parts))
    return parts[0], parts[1], parts[2]


def newer_than(entries: list[ChangelogEntry], version: str) -> list[ChangelogEntry]:
    """The released entries newer than `version` (Unreleased never counts as an upgrade)."""
    last = parse_version(version)
    return [e for e in entries if last < e.version != UNRELEASED]


def _version_of(match: re.Match[str]) -> tuple[int, int, int]:
    if match.group(4):
        return UNRELEASED
    return int(match.group(1)), int(match.group(2)), int(match.group(3))
