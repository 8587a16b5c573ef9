"""GitHub Copilot for pi: the subscription login (`/login` → GitHub Copilot) and its refresh."""

from __future__ import annotations

from collections.abc import Callable

from pi_core import hookimpl
from pi_plugin_github_copilot.login import CopilotLogin, copilot_base_url, normalize_domain

__all__ = ["CopilotLogin", "copilot_base_url", "normalize_domain"]


@hookimpl
def register_login_providers(register: Callable[..., None]) -> None:
    """Offer the GitHub Copilot login in `/login`."""
    register(CopilotLogin())
