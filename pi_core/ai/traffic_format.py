"""The recording file's format: one `meta` line, then one line per exchange, no credentials."""

from __future__ import annotations

import base64
import json
import os
import urllib.parse
from datetime import date
from typing import Any

import httpx

FORMAT = 1
REDACTED = "<redacted>"
FORM = "application/x-www-form-urlencoded"
TOKEN_FIELDS = frozenset({"access_token", "id_token", "refresh_token"})
_SECRET_PARTS = ("auth", "key", "token", "secret", "cookie", "signature", "credential", "session",
                 "assertion", "password")  # fmt: skip
_HOP_HEADERS = {"host", "connection", "keep-alive", "content-length", "transfer-encoding",
                "accept-encoding", "date", "server"}  # fmt: skip


def is_secret(name: str) -> bool:
    """Return whether a header, query parameter or form field name may carry a credential."""
    lowered = name.lower()
    return any(part in lowered for part in _SECRET_PARTS)


def kept_headers(headers: httpx.Headers) -> dict[str, str]:
    """Return the headers worth keeping: no credentials, no per-connection ones."""
    return {
        name: value
        for name, value in headers.items()
        if name.lower() not in _HOP_HEADERS and not is_secret(name)
    }


def scrubbed_url(url: httpx.URL) -> str:
    """Return the URL with the value of every credential-like query parameter redacted."""
    if not url.query:
        return str(url)
    pairs = urllib.parse.parse_qsl(url.query.decode(), keep_blank_values=True)
    query = urllib.parse.urlencode([(k, REDACTED if is_secret(k) else v) for k, v in pairs])
    return str(url.copy_with(query=query.encode()))


def request_fields(data: bytes, content_type: str) -> dict[str, Any]:
    """Store a request body: parsed JSON (`body`), a form with its credentials redacted
    (`body_form`: a token request's secret, refresh token or assertion), else as `body_fields`."""
    if FORM in content_type:
        pairs = urllib.parse.parse_qsl(data.decode(errors="replace"), keep_blank_values=True)
        return {"body_form": {k: REDACTED if is_secret(k) else v for k, v in pairs}}
    if data:
        try:
            return {"body": json.loads(data)}
        except ValueError:
            pass
    return body_fields(data, "body")


def response_fields(data: bytes, content_type: str) -> dict[str, Any]:
    """Store an answer's bytes as they came; only a token grant's tokens are redacted."""
    if "json" in content_type:
        try:
            parsed = json.loads(data)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and TOKEN_FIELDS & parsed.keys():
            redacted = {k: REDACTED if k in TOKEN_FIELDS else v for k, v in parsed.items()}
            return {"response_text": json.dumps(redacted)}
    return body_fields(data, "response")


def body_fields(data: bytes, prefix: str) -> dict[str, Any]:
    """Store `data` exactly: as text (`<prefix>_text`), else base64 (`<prefix>_b64`)."""
    try:
        return {f"{prefix}_text": data.decode()}
    except UnicodeDecodeError:
        return {f"{prefix}_b64": base64.b64encode(data).decode()}


def body_bytes(entry: dict[str, Any], prefix: str) -> bytes:
    """Return the bytes `body_fields` stored under `prefix`."""
    if f"{prefix}_text" in entry:
        return str(entry[f"{prefix}_text"]).encode()
    return base64.b64decode(entry.get(f"{prefix}_b64") or "")


def meta_line() -> dict[str, Any]:
    """Return the first line of a recording: what replay normalises (the folder, the date)."""
    return {"type": "meta", "format": FORMAT, "cwd": os.getcwd(), "date": date.today().isoformat()}
