"""A copy of a message model with some of its declared fields changed, made cheaply."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

# BaseModel's slots, set through their descriptors (cheaper than object.__setattr__ by name)
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def with_fields(model: M, **changes: Any) -> M:
    """Return `model.model_copy(update=changes)` for changes to declared fields (not validated).

    The same copy: the fields (with the changes), the extra fields in a dict of their own, the
    set fields plus the changed ones, the private attributes; without pydantic's generic path,
    which goes through `copy.copy` three times and checks every change (transforming another
    model's history copies each of its assistant messages and tool calls).
    """
    copied = object.__new__(type(model))
    _set_dict(copied, {**model.__dict__, **changes})
    extra = model.__pydantic_extra__
    _set_extra(copied, dict(extra) if extra is not None else None)
    _set_fields_set(copied, model.__pydantic_fields_set__ | changes.keys())
    private = model.__pydantic_private__
    _set_private(copied, dict(private) if private is not None else None)
    return copied
