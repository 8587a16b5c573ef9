"""What goes wrong in a subscription login or a token refresh."""

from __future__ import annotations


class OAuthError(Exception):
    """A login or refresh failed; the message says why."""


class OAuthRefreshError(OAuthError):
    """A stored subscription token expired and could not be refreshed; `/login` again."""
