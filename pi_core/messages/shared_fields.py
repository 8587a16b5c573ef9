"""One fields-set per model class and names, shared by the messages read from a session.

pydantic gives every model its own `__pydantic_fields_set__`; a set of five or more names grows
to 32 slots (~730 bytes), so a 1 MB session's ~3,000 models spent ~1.4 MiB on them, nearly all
alike, and ~0.2 MiB on empty dicts of extra fields. Loaded messages share one `SharedFieldsSet`
per class and names, and one empty `SharedExtra`, instead. A model takes copies of its own
before it changes (`WireModel.__setattr__` calls `own_shared_parts`); a copy of either (pydantic's
`model_copy`, `copy.copy`, `deepcopy`) is a plain set or dict; changing a shared one in place
raises.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NoReturn

from pydantic import BaseModel

# BaseModel's slots, set through their descriptors (cheaper than object.__setattr__ by name)
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__


def _shared(*_: Any, **__: Any) -> NoReturn:
    raise TypeError("a shared fields-set or extra-field dict is never changed in place")


class SharedFieldsSet(set[str]):
    """A fields-set that several models hold: never changed in place; its copies are plain sets."""

    __slots__ = ("_wider",)
    _wider: dict[tuple[str, ...], SharedFieldsSet]

    add = discard = remove = pop = clear = update = _shared
    difference_update = intersection_update = symmetric_difference_update = _shared
    __ior__ = __iand__ = __isub__ = __ixor__ = _shared

    def __copy__(self) -> set[str]:
        """Return a plain set with the same names (the copy belongs to one model)."""
        return set(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> set[str]:
        """Return a plain set with the same names, as `__copy__` (the names are strings)."""
        return set(self)

    def with_names(self, names: tuple[str, ...]) -> SharedFieldsSet:
        """This set if it holds every one of `names`, else the shared set with them added."""
        if self.issuperset(names):
            return self
        try:
            wider = self._wider
        except AttributeError:
            wider = self._wider = {}
        found = wider.get(names)
        if found is None:
            found = wider[names] = SharedFieldsSet(self.union(names))
        return found


class SharedExtra(dict[str, Any]):
    """The empty extra-field dict that loaded models share: never changed in place."""

    __slots__ = ()

    __setitem__ = __delitem__ = setdefault = pop = popitem = clear = update = _shared
    __ior__ = _shared

    def __copy__(self) -> dict[str, Any]:
        """Return a plain empty dict (the copy belongs to one model)."""
        return {}

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        """Return a plain empty dict, as `__copy__`."""
        return {}


NO_EXTRA = SharedExtra()


def own_shared_parts(model: BaseModel) -> None:
    """Give `model` its own fields-set and extra dict if it shares them (before pydantic adds)."""
    fields_set = model.__pydantic_fields_set__
    if type(fields_set) is SharedFieldsSet:
        _set_fields_set(model, set(fields_set))
    if type(model.__pydantic_extra__) is SharedExtra:  # NO_EXTRA, or one unpickled
        _set_extra(model, {})


class FieldsSetPool:
    """The shared fields-sets handed out so far, by model class and names."""

    def __init__(self) -> None:
        self._latest: dict[tuple[type, int], SharedFieldsSet] = {}
        self._all: dict[tuple[type, frozenset[str]], SharedFieldsSet] = {}

    def shared(self, model: BaseModel) -> SharedFieldsSet:
        """The shared set equal to `model`'s fields-set."""
        names = model.__pydantic_fields_set__
        quick = (type(model), len(names))
        found = self._latest.get(quick)
        if found is not None and found == names:  # nearly always: compares in C, builds nothing
            return found
        key = (type(model), frozenset(names))
        found = self._all.get(key)
        if found is None:
            found = self._all[key] = SharedFieldsSet(names)
        self._latest[quick] = found
        return found


_IS_MODEL: dict[type, bool] = {}
"""Whether a type is a pydantic model (`isinstance` through pydantic's ABC metaclass costs more
than the rest of the walk)."""


def _is_model(value: Any) -> bool:
    cls = type(value)
    found = _IS_MODEL.get(cls)
    if found is None:
        found = _IS_MODEL[cls] = issubclass(cls, BaseModel)
    return found


def share_fields_sets(messages: Iterable[Any], pool: FieldsSetPool | None = None) -> None:
    """Make these messages, their content blocks, usage and cost share equal fields-sets.

    `pool` holds the shared sets; pass the same one to share across calls.
    """
    shared = (pool or FieldsSetPool()).shared
    set_fields_set, set_extra, no_extra, is_model = _set_fields_set, _set_extra, NO_EXTRA, _is_model

    def share(model: BaseModel) -> None:
        set_fields_set(model, shared(model))
        extra = model.__pydantic_extra__
        if extra is not None and not extra:
            set_extra(model, no_extra)

    for message in messages:
        if not is_model(message):
            continue  # an unreadable message's error text
        share(message)
        fields = message.__dict__
        content = fields.get("content")
        if type(content) is list:
            for block in content:
                if is_model(block):
                    share(block)
        usage = fields.get("usage")
        if is_model(usage):
            share(usage)
            cost = usage.__dict__.get("cost")
            if is_model(cost):
                share(cost)
