"""Check recorded JSON-RPC transcripts: every message the agent sent against the ACP schema.

The models are the official Python SDK's (`acp.schema`, generated from ACP's JSON schema). A
transcript is what tests/cli/acp_tee.py logs: `{"from": "client" | "agent" | "tee", ...}` entries;
JSON-RPC ids restart with each agent process (each `tee` start).
"""

from __future__ import annotations

from typing import Any

from acp.schema import (
    CloseSessionResponse,
    CreateTerminalRequest,
    InitializeResponse,
    KillTerminalRequest,
    ListSessionsResponse,
    LoadSessionResponse,
    NewSessionResponse,
    PromptResponse,
    ReadTextFileRequest,
    ReleaseTerminalRequest,
    RequestPermissionRequest,
    ResumeSessionResponse,
    SessionNotification,
    SetSessionConfigOptionResponse,
    TerminalOutputRequest,
    WaitForTerminalExitRequest,
    WriteTextFileRequest,
)
from pydantic import BaseModel

Entry = dict[str, Any]

AGENT_REQUESTS: dict[str, type[BaseModel]] = {
    "session/update": SessionNotification,
    "session/request_permission": RequestPermissionRequest,
    "fs/read_text_file": ReadTextFileRequest,
    "fs/write_text_file": WriteTextFileRequest,
    "terminal/create": CreateTerminalRequest,
    "terminal/wait_for_exit": WaitForTerminalExitRequest,
    "terminal/output": TerminalOutputRequest,
    "terminal/release": ReleaseTerminalRequest,
    "terminal/kill": KillTerminalRequest,
}
"""The requests and notifications an agent may send, by method."""

AGENT_RESPONSES: dict[str, type[BaseModel]] = {
    "initialize": InitializeResponse,
    "session/new": NewSessionResponse,
    "session/prompt": PromptResponse,
    "session/load": LoadSessionResponse,
    "session/list": ListSessionsResponse,
    "session/resume": ResumeSessionResponse,
    "session/close": CloseSessionResponse,
    "session/set_config_option": SetSessionConfigOptionResponse,
}
"""The results an agent answers the client's requests with, by the request's method."""


def invalid_agent_messages(transcript: list[Entry]) -> list[str]:
    """Every agent message of the transcript that the schema rejects, with the reason."""
    asked: dict[Any, str] = {}
    problems: list[str] = []
    for entry in transcript:
        if entry["from"] == "tee":
            asked = {}
            continue
        message = entry["message"]
        if entry["from"] == "client":
            if isinstance(message, dict) and "method" in message and "id" in message:
                asked[message["id"]] = message["method"]
            continue
        try:
            _check(message, asked)
        except Exception as error:  # any failure is a finding, reported with its message
            problems.append(f"{message!r}: {error!r}")
    return problems


def _check(message: Any, asked: dict[Any, str]) -> None:
    assert isinstance(message, dict) and message.get("jsonrpc") == "2.0", "not JSON-RPC 2.0"
    if "method" in message:
        AGENT_REQUESTS[message["method"]].model_validate(message["params"])
    elif "error" in message:
        assert isinstance(message["error"]["code"], int)
        assert isinstance(message["error"]["message"], str)
    else:
        AGENT_RESPONSES[asked[message["id"]]].model_validate(message["result"] or {})
