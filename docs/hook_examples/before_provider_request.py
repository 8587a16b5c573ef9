"""Cap every request's max_tokens at 4096, whatever the model allows."""

from typing import Any

from pi_core import hookimpl
from pi_core.events import BeforeProviderRequestEvent

CAP = 4096


@hookimpl
def before_provider_request(event: BeforeProviderRequestEvent) -> Any:
    payload = event.payload
    if isinstance(payload, dict) and payload.get("max_tokens", 0) > CAP:
        return {**payload, "max_tokens": CAP}
    return None  # keep the payload as it is
