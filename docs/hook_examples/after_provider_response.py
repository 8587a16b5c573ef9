"""Warn when the provider says few requests are left in this rate-limit window."""

from pi_core import ExtensionContext, hookimpl
from pi_core.events import AfterProviderResponseEvent


@hookimpl
def after_provider_response(event: AfterProviderResponseEvent, ctx: ExtensionContext) -> None:
    headers = {name.lower(): value for name, value in event.headers.items()}
    remaining = headers.get("x-ratelimit-remaining-requests")
    if remaining is not None and remaining.isdigit() and int(remaining) < 5:
        ctx.ui.notify(f"only {remaining} requests left (HTTP {event.status})", "warning")
