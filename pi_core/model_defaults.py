"""Default factories for pydantic fields that pydantic inspects cheaply."""

from typing import Any


def empty_list() -> list[Any]:
    """Return a new empty list: `Field(default_factory=empty_list)` in place of `list`.

    pydantic reads a default factory's signature when it builds a model's validator. For the
    builtin `list` that means parsing its text signature with `tokenize` (~0.1 ms per field, and
    a few ms the first time, to compile tokenize's patterns); for a Python function it is a
    lookup. Each call returns a new list, as `list()` does.
    """
    return []
