"""The ACP authentication method pi offers: a terminal login (`pi acp --login`)."""

from __future__ import annotations

from acp.schema import TerminalAuthMethod

LOGIN_METHOD = "pi-login"
LOGIN_ARGS = ["--login"]


def auth_methods() -> list[TerminalAuthMethod]:
    """The methods `initialize` lists: the client runs `pi acp --login` in a terminal."""
    return [
        TerminalAuthMethod(
            type="terminal",
            id=LOGIN_METHOD,
            name="Log in to a model provider",
            description="Runs pi's /login in a terminal: a subscription login or an API key.",
            args=LOGIN_ARGS,
        )
    ]
