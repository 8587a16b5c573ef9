"""Strict JSONL: LF is the only record separator (U+2028 inside a string is not a line break)."""

from __future__ import annotations

import asyncio
import codecs
from collections.abc import AsyncIterator, Callable
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticSerializationError

from pi_core.messages.base import WireModel
from pi_core.messages.partial_text import bring_up_to_date
from pi_core.session.jsonl import encode_line


def jsonable(value: Any) -> Any:
    """Turn models (pi's field names, unset fields left out), lists and dicts into JSON data."""
    if isinstance(value, BaseModel):
        to_wire = getattr(value, "to_wire", None)
        if to_wire is not None:
            return to_wire()
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    if isinstance(value, dict):
        return {key: jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(item) for item in value]
    if hasattr(value, "__fspath__"):
        return str(value)
    return value


def serialize_line(value: Any) -> str:
    """Return one JSONL record: compact JSON (non-ASCII kept as is) and a single LF.

    A lone surrogate (which a session written by pi may hold) is written as a `\\uXXXX` escape,
    as JSON.stringify does, so the record always encodes as UTF-8 and is never lost.
    """
    return encode_record(value).decode("utf-8")


def encode_record(value: Any) -> bytes:
    """Return one JSONL record as UTF-8 bytes (what `serialize_line` returns, encoded)."""
    if getattr(value, "type", None) == "message_update":
        # a streamed delta: spliced from the previous record's parts (see update_json), its
        # partial message holding the event's own delta
        bring_up_to_date(getattr(value, "message", None))
        line = _encode_update()(value)
        if line is not None:
            return line
    if isinstance(value, BaseModel) and getattr(type(value), "to_wire", _to_wire) is _to_wire:
        # a model without its own to_wire: straight to JSON in one call (no dict built first;
        # per streamed delta this is most of the encoding), the same bytes `to_wire` gives
        try:
            serializer = value.__pydantic_serializer__
            return serializer.to_json(value, by_alias=True, exclude_none=True) + b"\n"
        except PydanticSerializationError:
            pass  # a lone surrogate: the slower path escapes it
    return encode_line(jsonable(value))


_to_wire = WireModel.to_wire


def _encode_update() -> Callable[[Any], bytes | None]:
    """`update_json.encode_update`, imported on the first streamed record."""
    global _encode_update_function
    if _encode_update_function is None:
        from pi_core.modes.update_json import encode_update

        _encode_update_function = encode_update
    return _encode_update_function


_encode_update_function: Callable[[Any], bytes | None] | None = None


async def read_lines(reader: asyncio.StreamReader) -> AsyncIterator[str]:
    """Yield records split on LF only; a trailing CR is dropped; a last unterminated line counts."""
    decoder = codecs.getincrementaldecoder("utf-8")("replace")
    buffer = ""
    while True:
        chunk = await reader.read(65536)
        if not chunk:
            buffer += decoder.decode(b"", final=True)
            if buffer:
                yield buffer.removesuffix("\r")
            return
        buffer += decoder.decode(chunk)
        while (index := buffer.find("\n")) != -1:
            line, buffer = buffer[:index], buffer[index + 1 :]
            yield line.removesuffix("\r")
