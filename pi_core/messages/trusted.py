"""Building a wire model from values that are already right, at dataclass speed, for per-delta
events (a 1 MB reply in 10-byte pieces makes 100,000 of them).

pydantic's `model_construct` walks every field in Python (aliases, defaults): ~20 µs an event on
the benchmark machine, slower than validating; filling the instance directly is ~3 µs. The caller
passes every field by its Python name (a missing one is a KeyError); the result is what
`model_construct` would return.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)
_set_attribute = object.__setattr__


def construct_trusted(cls: type[M], fields: dict[str, Any]) -> M:
    """Return an instance of `cls` holding `fields` (every field of the model, none validated)."""
    instance = cls.__new__(cls)
    # in the model's field order: the serializer writes them in `__dict__` order
    ordered = {name: fields[name] for name in cls.__pydantic_fields__}
    _set_attribute(instance, "__dict__", ordered)
    _set_attribute(instance, "__pydantic_fields_set__", set(fields))
    _set_attribute(instance, "__pydantic_extra__", {})
    _set_attribute(instance, "__pydantic_private__", None)
    return instance
