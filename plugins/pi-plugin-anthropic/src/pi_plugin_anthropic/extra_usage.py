"""The once-per-run warning that a Claude Pro/Max login is billed as extra usage here.

Anthropic bills a subscription used by a third-party harness per token, as extra usage, not
against the plan's limits. As pi 0.73.1 does, the warning is shown once, when the session starts
or a model is selected, if the model is Anthropic's and the key is a subscription's (an `oauth`
login in auth.json, or a `sk-ant-oat` token); setting `warnings.anthropicExtraUsage` to false
turns it off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pi_plugin_anthropic.oauth_identity import is_oauth_token

if TYPE_CHECKING:
    from pi_core import ExtensionContext
    from pi_core.providers import Model

SETTING = "warnings.anthropicExtraUsage"
WARNING = (
    "You are logged in to Anthropic with a Claude Pro/Max subscription. Requests from a "
    "third-party harness like this one are billed as extra usage, per token, not against your "
    "plan's limits; see https://claude.ai/settings/usage. "
    f'To hide this warning, set "{SETTING}": false in settings.json.'
)


def uses_subscription(ctx: ExtensionContext, model: Model | None) -> bool:
    """Return whether requests to `model` go out with a Claude Pro/Max login."""
    registry = ctx.model_registry
    if model is None or model.provider != "anthropic" or registry is None:
        return False
    if registry.auth.stored_type("anthropic") == "oauth":
        return True
    try:
        return is_oauth_token(registry.get_api_key("anthropic"))
    except Exception:  # a failing key command: no key, so no warning
        return False


class ExtraUsageWarning:
    """Shows the warning at most once per run."""

    def __init__(self) -> None:
        self.shown = False

    def check(self, ctx: ExtensionContext, model: Model | None) -> None:
        """Warn in the UI if it is due: a UI, the setting on, not yet shown, a subscription."""
        if self.shown or not ctx.has_ui or ctx.settings.get(SETTING, True) is False:
            return
        if uses_subscription(ctx, model):
            self.shown = True
            ctx.ui.notify(WARNING, "warning")
