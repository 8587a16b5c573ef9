"""A copy of a message model with some of its declared fields changed, made cheaply."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_set = object.__setattr__


def with_fields(model: M, **changes: Any) -> M:
    """Return `model.model_copy(update=changes)` for changes to declared fields (not validated).

    The same copy: the fields (with the changes), the extra fields in a dict of their own, the
    set fields plus the changed ones, the private attributes; without pydantic's generic path,
    which goes through `copy.copy` three times and checks every change (transforming another
    model's history copies each of its assistant messages and tool calls).
    """
    cls = type(model)
    copied = cls.__new__(cls)
    _set(copied, "__dict__", {**model.__dict__, **changes})
    extra = model.__pydantic_extra__
    _set(copied, "__pydantic_extra__", dict(extra) if extra is not None else None)
    _set(copied, "__pydantic_fields_set__", model.__pydantic_fields_set__ | changes.keys())
    private = getattr(model, "__pydantic_private__", None)
    _set(copied, "__pydantic_private__", dict(private) if private is not None else None)
    return copied
