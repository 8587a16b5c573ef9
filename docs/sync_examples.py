"""Keep the code blocks of docs/writing-a-plugin.md equal to the checked files they show.

Each ```python and ```toml block follows a marker naming its source, relative to docs/:

    <!-- source: examples/no_secrets.py -->      the block is the whole file
    <!-- excerpt: ../plugins/x/pyproject.toml --> the block is a run of lines from the file

The files are type-checked (mypy --strict, see pyproject.toml) and run by the test suite
(tests/test_docs_plugin_guide.py).

python docs/sync_examples.py            copy every source file into its block
python docs/sync_examples.py --check    exit 1 if a block differs or has no source
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
PAGES = ("writing-a-plugin.md",)
CHECKED_LANGUAGES = ("python", "toml")

_MARKER = re.compile(r"^<!-- (source|excerpt): (\S+) -->$")
_FENCE = re.compile(r"^```(\w*)$")


def _blocks(lines: list[str]) -> list[tuple[int, int, str, str | None, str | None]]:
    """Return (first line, closing line, language, marker kind, marker path) of each block."""
    found = []
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        end = index + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        marker = _MARKER.match(lines[index - 1]) if index > 0 else None
        kind, path = (marker.group(1), marker.group(2)) if marker else (None, None)
        found.append((index, end, opening.group(1), kind, path))
        index = end + 1
    return found


def check(page: Path) -> list[str]:
    """Say what is wrong with the page's code blocks: a block without a source, or a block that
    differs from its source."""
    lines = page.read_text().splitlines()
    problems = []
    for start, end, language, kind, path in _blocks(lines):
        where = f"{page.name}:{start + 1}"
        if kind is None or path is None:
            if language in CHECKED_LANGUAGES:
                problems.append(f"{where}: a ```{language} block without a source marker")
            continue
        source = (page.parent / path).resolve()
        if not source.is_file():
            problems.append(f"{where}: {path} does not exist")
            continue
        block = "\n".join(lines[start + 1 : end])
        text = source.read_text().rstrip("\n")
        if kind == "source" and block != text:
            problems.append(f"{where}: differs from {path} (run python docs/sync_examples.py)")
        if kind == "excerpt" and f"\n{block}\n" not in f"\n{text}\n":
            problems.append(f"{where}: is not a run of lines of {path}")
    return problems


def sync(page: Path) -> None:
    """Copy each `source` file into its block."""
    lines = page.read_text().splitlines()
    for start, end, _, kind, path in reversed(_blocks(lines)):
        if kind == "source" and path is not None:
            text = (page.parent / path).read_text().rstrip("\n")
            lines[start + 1 : end] = text.splitlines()
    page.write_text("\n".join(lines) + "\n")


def main() -> int:
    """Check or rewrite the pages."""
    pages = [DOCS / name for name in PAGES]
    if "--check" in sys.argv:
        problems = [problem for page in pages for problem in check(page)]
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    for page in pages:
        sync(page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
