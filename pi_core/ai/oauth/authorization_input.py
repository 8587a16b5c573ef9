"""Read what a user pastes after a browser login: a redirect URL, `code#state`, a query, a code."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit


@dataclass(frozen=True)
class AuthorizationInput:
    """The code and, when the paste carried one, the state."""

    code: str | None = None
    state: str | None = None


def _first(query: dict[str, list[str]], name: str) -> str | None:
    values = query.get(name)
    return values[0] if values else None


def parse_authorization_input(text: str) -> AuthorizationInput:
    """Return the code and state in `text`, read in pi's order of forms."""
    value = text.strip()
    if not value:
        return AuthorizationInput()
    parts = urlsplit(value)
    if parts.scheme and parts.netloc:
        query = parse_qs(parts.query)
        return AuthorizationInput(_first(query, "code"), _first(query, "state"))
    if "#" in value:
        code, state = value.split("#", 1)
        return AuthorizationInput(code, state)
    if "code=" in value:
        query = parse_qs(value)
        return AuthorizationInput(_first(query, "code"), _first(query, "state"))
    return AuthorizationInput(value)
