"""A copy of a message model with some of its declared fields changed, made cheaply."""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

from pi_core.messages.shared_fields import NO_EXTRA, SharedFieldsSet
from pi_core.messages.trusted import filled

M = TypeVar("M", bound=BaseModel)


def with_fields(model: M, **changes: Any) -> M:
    """Return `model.model_copy(update=changes)` for changes to declared fields (not validated).

    The same copy: the fields (with the changes), the extra fields in a dict of their own, the
    set fields plus the changed ones (shared when the model's are), the private attributes;
    without pydantic's generic path, which goes through `copy.copy` three times and checks every
    change (transforming another model's history copies each of its assistant messages and tool
    calls).
    """
    extra = model.__pydantic_extra__
    names = model.__pydantic_fields_set__
    if type(names) is SharedFieldsSet:  # shared sets stay shared: they change for no one
        names = names.with_names(tuple(changes))
    else:
        names = names | changes.keys()
    private = model.__pydantic_private__
    return filled(
        type(model),
        {**model.__dict__, **changes},
        names,
        extra if extra is NO_EXTRA else dict(extra) if extra is not None else None,
        dict(private) if private is not None else None,
    )
