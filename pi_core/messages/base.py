"""The base of every wire-format model: snake_case in Python, pi's camelCase in JSON."""

from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from pi_core import deep
from pi_core.messages.shared_fields import own_shared_parts


class WireModel(BaseModel):
    """A model that reads and writes pi's camelCase JSON and keeps fields it does not know."""

    model_config = ConfigDict(
        alias_generator=to_camel,
        populate_by_name=True,
        extra="allow",
        arbitrary_types_allowed=True,
        defer_build=True,  # build validators on first use: start-up time is a feature
    )

    if not TYPE_CHECKING:  # declared, it would let the type checker pass any attribute name

        def __setattr__(self, name: str, value: Any) -> None:
            """Set a field as pydantic does, first taking shared sets and dicts of its own."""
            own_shared_parts(self)
            BaseModel.__setattr__(self, name, value)

    def to_wire(self) -> dict[str, Any]:
        """Return the JSON-ready dict in pi's field names, leaving out unset optional fields."""
        try:
            return self.model_dump(mode="json", by_alias=True, exclude_none=True)
        except ValueError as error:  # pydantic-core's depth limit
            if not deep.is_depth_error(error):
                raise
            return deep.model_to_wire(self)


class StrictWireModel(WireModel):
    """A wire model that rejects unknown fields (results returned by plugins)."""

    model_config = ConfigDict(extra="forbid")
