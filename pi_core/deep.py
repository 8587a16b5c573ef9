"""Deeply nested values (a model's tool arguments thousands of levels deep): a retry with room.

Python's C `json`, `copy.deepcopy` and our own walkers recurse once per level and stop at the
interpreter's recursion limit (1,000 by default); pydantic-core stops at a few hundred. pi writes
such values to its sessions when a model sends them, so they must open, round-trip and be sent
back. The normal path is untouched: callers try the ordinary call first and only when it raises
`RecursionError` (or pydantic-core's depth error) retry it through `call`, which runs it on a
worker thread with a large stack and a raised recursion limit.

Measured on CPython 3.11: `json.loads`, `json.dumps` and `copy.deepcopy` of a 100,000-deep array
need well under 64 MiB of stack; the worker gets 256 MiB (address space only: the pages a call
does not touch are never committed). The recursion limit is interpreter-wide, so deep calls
take turns under a lock and restore the limit afterwards.
"""

from __future__ import annotations

import copy
import json
import sys
import threading
from collections.abc import Callable
from typing import Any, TypeVar

import pydantic_core
from pydantic import BaseModel

__all__ = ["MAX_DEPTH", "call", "deepcopy", "dumps", "encode", "is_depth_error", "loads",
           "model_to_wire"]  # fmt: skip

T = TypeVar("T")

MAX_DEPTH = 100_000
"""The deepest value handled; deeper ones still raise `RecursionError` (callers fail cleanly)."""

_STACK_BYTES = 256 * 1024 * 1024
_LIMIT = MAX_DEPTH * 2 + 1_000  # deepcopy and the model walk take two frames per level
_lock = threading.Lock()


def call(function: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run `function(*args, **kwargs)` with room for MAX_DEPTH levels of recursion; re-raise."""
    outcome: list[Any] = []

    def run() -> None:
        previous = sys.getrecursionlimit()
        sys.setrecursionlimit(max(previous, _LIMIT))
        try:
            outcome.append((True, function(*args, **kwargs)))
        except BaseException as error:  # handed to the calling thread as is
            outcome.append((False, error))
        finally:
            sys.setrecursionlimit(previous)

    with _lock:
        worker = threading.Thread(target=run, name="pi-deep-value", daemon=True)
        size = threading.stack_size(_STACK_BYTES)  # the size a thread gets is read at start()
        try:
            worker.start()
        finally:
            threading.stack_size(size)
        worker.join()
    ok, value = outcome[0]
    if not ok:
        raise value
    return value  # type: ignore[no-any-return]


def is_depth_error(error: BaseException) -> bool:
    """Whether an error is a parser's or encoder's nesting-depth limit (ours or pydantic-core's)."""
    if isinstance(error, RecursionError):
        return True
    text = str(error)
    return "recursion limit exceeded" in text or "Maximum serialization depth" in text


def loads(raw: str | bytes) -> Any:
    """`json.loads`, with room for deep values."""
    try:
        return json.loads(raw)
    except RecursionError:
        return call(json.loads, raw)


def encode(encoder: json.JSONEncoder, value: Any) -> str:
    """`encoder.encode(value)`, with room for deep values."""
    try:
        return encoder.encode(value)
    except RecursionError:
        return call(encoder.encode, value)


def dumps(value: Any, **options: Any) -> str:
    """`json.dumps(value, **options)`, with room for deep values."""
    try:
        return json.dumps(value, **options)
    except RecursionError:
        return call(json.dumps, value, **options)


def deepcopy(value: T) -> T:
    """`copy.deepcopy`, with room for deep values."""
    try:
        return copy.deepcopy(value)
    except RecursionError:
        copied: T = call(lambda: copy.deepcopy(value))
        return copied


def model_to_wire(model: BaseModel) -> dict[str, Any]:
    """`model.model_dump(mode="json", by_alias=True, exclude_none=True)` for a model holding
    values deeper than pydantic-core serialises: models field by field, plain values copied."""
    return call(_wire_model, model)


def _wire_model(model: BaseModel) -> dict[str, Any]:
    fields = type(model).model_fields
    out: dict[str, Any] = {}
    for name, value in model:
        if value is None:
            continue
        info = fields.get(name)
        key = (info.serialization_alias or info.alias or name) if info else name
        out[key] = _wire_value(value)
    return out


def _wire_value(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return _wire_model(value)
    if isinstance(value, (list, tuple)):
        return [_wire_value(item) for item in value]
    if isinstance(value, dict):
        return {key: _wire_value(item) for key, item in value.items()}
    return pydantic_core.to_jsonable_python(value)
