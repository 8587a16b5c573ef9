"""One export's rendered fragments, kept by content: a repeated text or output renders once."""

from __future__ import annotations

from collections.abc import Hashable


class RenderCache:
    """Fragments by key (the content and how it is rendered); lives for one export."""

    def __init__(self) -> None:
        self._fragments: dict[Hashable, str] = {}

    def get(self, key: Hashable) -> str | None:
        """The fragment rendered earlier for `key`, or None."""
        return self._fragments.get(key)

    def put(self, key: Hashable, fragment: str) -> str:
        """Keep `fragment` for `key`; returns it."""
        self._fragments[key] = fragment
        return fragment

    def clear(self) -> None:
        """Forget every fragment (a new export starts)."""
        self._fragments.clear()
