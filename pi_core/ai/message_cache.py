"""Each message's provider form, converted once: a request at message 1,200 then costs what one at
message 10 does, plus sending the bytes.

A message in the context is finished (the agent replaces, never edits, what a hook changes; the
`context` hook works on deep copies), so its converted form can be kept for as long as the message
object lives. Entries are keyed by the object itself and a `variant` (the model flags the conversion
reads) and are dropped when the message is. Callers must treat what they get as read-only: build
fresh containers around it, never mutate it (the payload hook receives a copy).

A converted message's JSON text can be kept the same way: `EncodedParts` and `encode_body` splice
it into the next request body instead of encoding the whole history again.
"""

from __future__ import annotations

import json
import operator
import weakref
from collections.abc import Callable, Hashable
from typing import Any, Generic, TypeVar

import pydantic_core

from pi_core import deep

T = TypeVar("T")


class _KeyedRef(weakref.ref):  # type: ignore[type-arg]
    """A weak reference that knows its cache key (one shared callback instead of a closure each)."""

    __slots__ = ("key",)
    key: int


class MessageCache(Generic[T]):
    """Converted forms of finished messages, by message identity and variant."""

    def __init__(self) -> None:
        entries: dict[int, tuple[_KeyedRef, Hashable, T]] = {}
        self._entries = entries

        def forget(ref: _KeyedRef) -> None:
            current = entries.get(ref.key)
            if current is not None and current[0] is ref:
                del entries[ref.key]

        self._forget = forget

    def get(self, message: Any, variant: Hashable, convert: Callable[[Any], T]) -> T:
        """Return the cached form of `message` for `variant`; `convert(message)` makes it once."""
        key = id(message)
        found = self._entries.get(key)
        if found is not None and found[0]() is message and found[1] == variant:
            return found[2]
        value = convert(message)
        ref = _KeyedRef(message, self._forget)
        ref.key = key
        self._entries[key] = (ref, variant, value)
        return value

    def __len__(self) -> int:
        """Return how many messages have a cached form."""
        return len(self._entries)


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
"""What `json.dumps(value, ensure_ascii=False, separators=(",", ":"))` builds on every call."""


def json_text(value: Any) -> str:
    """`value` as compact JSON text, non-ASCII as is (the request bodies' encoding)."""
    return deep.encode(_ENCODER, value)


def json_bytes(value: Any) -> bytes:
    """`json_text(value)`, UTF-8 encoded."""
    return json_text(value).encode()


def floatless_json_bytes(value: Any) -> bytes:
    """`json_bytes(value)` for a value its caller built without floats (strings, integers,
    booleans, None, and lists and string-keyed dicts of them), three times faster.

    pydantic-core's encoder writes the same bytes as `json` for those (the same escapes, non-ASCII
    as is); only floats differ (`1e-7` against `1e-07`). What it refuses (a lone surrogate, an
    object it does not know) goes through `json_bytes`, which fails or succeeds as before.
    """
    try:
        return pydantic_core.to_json(value)
    except pydantic_core.PydanticSerializationError:
        return json_bytes(value)


def floatless_json_text(value: Any) -> str:
    """`json_text(value)` for a value without floats, as `floatless_json_bytes` makes it."""
    try:
        return pydantic_core.to_json(value).decode()
    except pydantic_core.PydanticSerializationError:
        return json_text(value)


class EncodedParts:
    """The encoded JSON of the read-only values a request body shares with earlier requests.

    A provider notes each cached converted message (or a whole list of them) with its bytes, as
    pieces whose concatenation is the value's JSON; `encode_body` then copies the pieces in once
    instead of encoding the values again. Lookups are by identity, and the parts keep their values
    alive for the request, so a payload a hook replaced (with copies) is encoded in full and never
    gets another value's bytes.
    """

    def __init__(self) -> None:
        self._pieces: dict[int, tuple[object, list[bytes]]] = {}

    def add(self, value: object, pieces: list[bytes]) -> None:
        """Note that `value` (kept unchanged from now on) encodes as `b"".join(pieces)`."""
        self._pieces[id(value)] = (value, pieces)

    def pieces(self, value: object) -> list[bytes] | None:
        """Return the noted pieces of this very object, or None."""
        found = self._pieces.get(id(value))
        return found[1] if found is not None and found[0] is value else None

    def __len__(self) -> int:
        """Return how many values are noted."""
        return len(self._pieces)


_SPLICE_DEPTH = 4
"""Body → messages list → message → content list → block: where providers' cached parts sit."""


def encode_body(payload: Any, parts: EncodedParts | None = None) -> bytes:
    """Encode a request body: the bytes of `json_text(payload)`, the parts' pieces spliced in
    (and the body copied once: on a long history it is the largest allocation of a request)."""
    if not parts:
        return json_bytes(payload)
    out: list[bytes] = []
    _splice(payload, parts, _SPLICE_DEPTH, out)
    return b"".join(out)


def _splice(value: Any, parts: EncodedParts, depth: int, out: list[bytes]) -> None:
    pieces = parts.pieces(value)
    if pieces is not None:
        out.extend(pieces)
    elif depth and type(value) is list:
        out.append(b"[")
        for index, item in enumerate(value):
            if index:
                out.append(b",")
            _splice(item, parts, depth - 1, out)
        out.append(b"]")
    elif depth and type(value) is dict and all(type(key) is str for key in value):
        out.append(b"{")
        for index, (key, item) in enumerate(value.items()):
            out.append(b"," + json_bytes(key) + b":" if index else json_bytes(key) + b":")
            _splice(item, parts, depth - 1, out)
        out.append(b"}")
    else:
        out.append(json_bytes(value))


class PrefixCache(Generic[T]):
    """What was made of the start of the last request's messages, to carry on from there.

    Each request's message list starts with the previous one's messages (the same finished
    objects); `resume` checks that by identity (one pass in C) and hands back the saved state,
    so a request only works on the messages that are new. A few keys (models, variants) are kept.
    """

    def __init__(self, size: int = 4) -> None:
        self._size = size
        self._saved: dict[Hashable, tuple[list[Any], T]] = {}
        _PREFIX_CACHES.add(self)

    def resume(self, key: Hashable, messages: list[Any]) -> tuple[int, T | None]:
        """Return how many leading messages the state saved for `key` covers, and that state
        (0 and None unless `messages` starts with exactly the messages it was saved for).

        A state that does not match is dropped at once: this request replaces it anyway, and
        until then it would keep the previous conversation's messages and their converted forms
        alive next to the new ones (another session's history, after a switch).
        """
        found = self._saved.get(key)
        if found is None:
            return 0, None
        sources, state = found
        if len(sources) > len(messages) or not all(map(operator.is_, sources, messages)):
            del self._saved[key]
            return 0, None
        return len(sources), state

    def clear(self) -> None:
        """Forget every saved state."""
        self._saved.clear()

    def save(self, key: Hashable, sources: list[Any], state: T) -> None:
        """Remember `state` as what the messages `sources` (a list of their own) made."""
        self._saved.pop(key, None)
        self._saved[key] = (sources, state)
        while len(self._saved) > self._size:
            del self._saved[next(iter(self._saved))]


_PREFIX_CACHES: weakref.WeakSet[PrefixCache[Any]] = weakref.WeakSet()


def forget_conversations() -> None:
    """Empty every `PrefixCache`: the conversation they continue was left (a session switch),
    so its messages and their converted forms need not stay alive while the next one loads."""
    for cache in list(_PREFIX_CACHES):
        cache.clear()
