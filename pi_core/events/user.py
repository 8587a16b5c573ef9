"""Events from the user's side: input, `!` bash, model and thinking-level selection."""

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import Field

from pi_core.abort import AbortSignal
from pi_core.ai.model import Model
from pi_core.messages.base import StrictWireModel, WireModel
from pi_core.messages.content import ImageContent

InputSource = Literal["interactive", "rpc", "extension"]


class InputEvent(WireModel):
    """The user submitted input; runs before skills and templates expand."""

    type: Literal["input"] = "input"
    text: str
    images: list[ImageContent] | None = None
    source: InputSource = "interactive"


class InputContinue(StrictWireModel):
    """Leave the input as it is."""

    action: Literal["continue"] = "continue"


class InputTransform(StrictWireModel):
    """Replace the input's text (and images)."""

    action: Literal["transform"] = "transform"
    text: str
    images: list[ImageContent] | None = None


class InputHandled(StrictWireModel):
    """The plugin consumed the input; nothing reaches the agent."""

    action: Literal["handled"] = "handled"


InputResult = Annotated[
    InputContinue | InputTransform | InputHandled, Field(discriminator="action")
]
"""What an input impl returns."""


class UserBashEvent(WireModel):
    """The user ran `!cmd` (or `!!cmd`, kept out of the context)."""

    type: Literal["user_bash"] = "user_bash"
    command: str
    exclude_from_context: bool = False
    cwd: str
    signal: AbortSignal = Field(default_factory=AbortSignal, exclude=True)
    on_chunk: Callable[[str], None] | None = Field(default=None, exclude=True)
    """Call with each piece of output as it arrives (for a live view)."""


class BashResult(WireModel):
    """The outcome of a shell command."""

    output: str
    exit_code: int | None = None
    cancelled: bool = False
    truncated: bool = False
    full_output_path: str | None = None


class UserBashResult(StrictWireModel):
    """Run the command through other `operations`, or give the finished `result`."""

    operations: Any = None
    result: BashResult | None = None


ModelSelectSource = Literal["set", "cycle", "restore"]


class ModelSelectEvent(WireModel):
    """A model was selected."""

    type: Literal["model_select"] = "model_select"
    model: Model
    previous_model: Model | None = None
    source: ModelSelectSource = "set"


class ThinkingLevelSelectEvent(WireModel):
    """A thinking level was selected."""

    type: Literal["thinking_level_select"] = "thinking_level_select"
    level: str
    previous_level: str
