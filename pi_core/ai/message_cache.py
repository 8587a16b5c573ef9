"""Each message's provider form, converted once: a request at message 1,200 then costs what one at
message 10 does, plus sending the bytes.

A message in the context is finished (the agent replaces, never edits, what a hook changes; the
`context` hook works on deep copies), so its converted form can be kept for as long as the message
object lives. Entries are keyed by the object itself and a `variant` (the model flags the conversion
reads) and are dropped when the message is. Callers must treat what they get as read-only: build
fresh containers around it, never mutate it (the payload hook receives a copy).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class MessageCache(Generic[T]):
    """Converted forms of finished messages, by message identity and variant."""

    def __init__(self) -> None:
        self._entries: dict[int, tuple[weakref.ref[object], Hashable, T]] = {}

    def get(self, message: Any, variant: Hashable, convert: Callable[[Any], T]) -> T:
        """Return the cached form of `message` for `variant`; `convert(message)` makes it once."""
        key = id(message)
        found = self._entries.get(key)
        if found is not None and found[0]() is message and found[1] == variant:
            return found[2]
        value = convert(message)
        entries = self._entries

        def forget(ref: weakref.ref[object], key: int = key) -> None:
            current = entries.get(key)
            if current is not None and current[0] is ref:
                del entries[key]

        entries[key] = (weakref.ref(message, forget), variant, value)
        return value

    def __len__(self) -> int:
        """Return how many messages have a cached form."""
        return len(self._entries)
