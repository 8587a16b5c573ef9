"""Tell the user when a model switch loses image input."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import ModelSelectEvent


@hookimpl
def model_select(event: ModelSelectEvent, ctx: ExtensionContext) -> None:
    before = event.previous_model
    if before is not None and "image" in before.input and "image" not in event.model.input:
        ctx.ui.notify(f"{event.model.id} cannot read images", "warning")
