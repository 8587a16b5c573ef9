"""One fields-set per model class and content, shared by the messages read from a session.

pydantic gives every model its own `__pydantic_fields_set__`; a set of five or more names grows
to 32 slots (~730 bytes), so a 1 MB session's ~3,000 models spent ~1.4 MiB on them, nearly all
alike. Loaded messages share one `SharedFieldsSet` per class and content instead. A model copies
its set before it changes (`WireModel.__setattr__` calls `own_fields_set`), and a copy of the
set (pydantic's `model_copy`, `copy.copy`) is a plain set of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

# BaseModel's slot, set through its descriptor (cheaper than object.__setattr__ by name)
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__


class SharedFieldsSet(set[str]):
    """A fields-set that several models hold: never changed in place; its copies are plain sets."""

    __slots__ = ()

    def __copy__(self) -> set[str]:
        """Return a plain set with the same names (the copy belongs to one model)."""
        return set(self)


def own_fields_set(model: BaseModel) -> None:
    """Give `model` a fields-set of its own if it shares one (before pydantic adds to it)."""
    fields_set = model.__pydantic_fields_set__
    if type(fields_set) is SharedFieldsSet:
        _set_fields_set(model, set(fields_set))


FieldsSetPool = dict[tuple[type, frozenset[str]], SharedFieldsSet]


def share_fields_sets(messages: Iterable[Any], pool: FieldsSetPool | None = None) -> None:
    """Make these messages, their content blocks, usage and cost share equal fields-sets.

    `pool` holds the shared sets by class and names; pass the same one to share across calls.
    """
    if pool is None:
        pool = {}

    def share(model: BaseModel) -> None:
        names = model.__pydantic_fields_set__
        key = (type(model), frozenset(names))
        shared = pool.get(key)
        if shared is None:
            shared = pool[key] = SharedFieldsSet(names)
        _set_fields_set(model, shared)

    for message in messages:
        if not isinstance(message, BaseModel):
            continue  # an unreadable message's error text
        share(message)
        fields = message.__dict__
        content = fields.get("content")
        if type(content) is list:
            for block in content:
                if isinstance(block, BaseModel):
                    share(block)
        usage = fields.get("usage")
        if isinstance(usage, BaseModel):
            share(usage)
            cost = usage.__dict__.get("cost")
            if isinstance(cost, BaseModel):
                share(cost)
