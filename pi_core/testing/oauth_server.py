"""A loopback fake OAuth authorisation server for tests of subscription logins.

It speaks the endpoints pi's three logins use, whatever the host (point the flows at it with
`PI_TEST_OAUTH_ORIGIN`): the authorisation-code grant with PKCE (`authorize()` plays the browser
and returns the redirect URL, and a GET of the authorisation URL answers with that redirect; the
token endpoint checks the verifier against the challenge), the
refresh grant, GitHub's device code flow and the Copilot token. Every request is recorded.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit


@dataclass
class AuthRequest:
    """One request the fake received: method, path, headers and body (JSON or form)."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class _Grant:
    challenge: str
    redirect_uri: str
    state: str


def _s256(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


@dataclass
class FakeAuthServer:
    """The fake server; use as a context manager, read `origin` and `requests`.

    `access_token(n)` makes the n-th access token (Codex needs a JWT); `expires_in` is what token
    answers say; `refresh_fails` makes every refresh answer 400 `invalid_grant`; `refresh_delay`
    holds refresh answers back that many seconds; `refresh_gate`, when given, holds them until it
    is set (`refresh_seen` is set when a refresh arrives, `refresh_answered` once it is let go);
    `pending_polls` is how many device-code polls answer `authorization_pending` before the token;
    `copilot_proxy` is the `proxy-ep` of the Copilot tokens it issues (where Copilot's API is: pi
    sends chat requests there).
    """

    access_token: Callable[[int], str] = lambda n: f"sk-ant-oat01-access-{n}"
    expires_in: int = 3600
    refresh_fails: bool = False
    refresh_delay: float = 0.0
    refresh_gate: threading.Event | None = None
    refresh_seen: threading.Event = field(default_factory=threading.Event)
    refresh_answered: threading.Event = field(default_factory=threading.Event)
    pending_polls: int = 1
    copilot_proxy: str = "proxy.individual.githubcopilot.com"
    requests: list[AuthRequest] = field(default_factory=list)
    refresh_tokens: set[str] = field(default_factory=set)
    _grants: dict[str, _Grant] = field(default_factory=dict)
    _issued: int = 0
    _polls: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None

    def __enter__(self) -> FakeAuthServer:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()

    @property
    def origin(self) -> str:
        """Return `http://127.0.0.1:<port>`."""
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def paths(self, method: str | None = None) -> list[str]:
        """Return the paths requested so far (of one method, if given)."""
        return [r.path for r in self.requests if method is None or r.method == method]

    def authorize(self, url: str) -> str:
        """Play the browser: check the authorisation URL, return the redirect with a code."""
        query = {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}
        assert query["response_type"] == "code" and query["code_challenge_method"] == "S256"
        code = f"code-{len(self._grants) + 1}"
        self._grants[code] = _Grant(query["code_challenge"], query["redirect_uri"], query["state"])
        return f"{query['redirect_uri']}?{urlencode({'code': code, 'state': query['state']})}"

    def _tokens(self) -> dict[str, Any]:
        with self._lock:
            self._issued += 1
            n = self._issued
        refresh = f"refresh-{n}"
        self.refresh_tokens.add(refresh)
        return {
            "access_token": self.access_token(n),
            "refresh_token": refresh,
            "expires_in": self.expires_in,
        }

    def _token(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        grant = body.get("grant_type")
        if grant == "authorization_code":
            found = self._grants.pop(str(body.get("code")), None)
            if found is None or _s256(str(body.get("code_verifier"))) != found.challenge:
                return 400, {"error": "invalid_grant", "error_description": "bad code/verifier"}
            if body.get("redirect_uri") != found.redirect_uri:
                return 400, {"error": "invalid_grant", "error_description": "redirect_uri"}
            return 200, self._tokens()
        if grant == "refresh_token":
            self.refresh_seen.set()
            if self.refresh_gate is not None:
                self.refresh_gate.wait(timeout=5)  # never forever: a blocked test fails instead
            time.sleep(self.refresh_delay)
            self.refresh_answered.set()
            if self.refresh_fails or body.get("refresh_token") not in self.refresh_tokens:
                return 400, {"error": "invalid_grant", "error_description": "refresh revoked"}
            return 200, self._tokens()
        if grant == "urn:ietf:params:oauth:grant-type:device_code":
            self._polls += 1
            if self._polls <= self.pending_polls:
                return 200, {"error": "authorization_pending"}
            return 200, {"access_token": "gho_github_token", "token_type": "bearer"}
        return 400, {"error": "unsupported_grant_type"}

    def _answer(self, request: AuthRequest) -> tuple[int, dict[str, Any]]:
        if request.path.endswith("/device/code"):
            return 200, {
                "device_code": "device-1",
                "user_code": "ABCD-1234",
                "verification_uri": f"{self.origin}/login/device",
                "interval": 0,
                "expires_in": 60,
            }
        if request.path.endswith("/copilot_internal/v2/token"):
            if request.headers.get("authorization") != "Bearer gho_github_token":
                return 401, {"message": "Bad credentials"}
            time.sleep(self.refresh_delay)
            if self.refresh_fails:
                return 401, {"message": "token revoked"}
            with self._lock:
                self._issued += 1
                n = self._issued
            expires_at = int(time.time()) + self.expires_in
            token = f"tid=copilot-{n};exp={expires_at};proxy-ep={self.copilot_proxy}"
            return 200, {"token": token, "expires_at": expires_at}
        if request.path.startswith("/models/") and request.path.endswith("/policy"):
            return 200, {}
        if request.method == "POST" and request.path.endswith("token"):
            return self._token(request.body)
        return 404, {"error": "not_found"}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length).decode("utf-8") if length else ""
                kind = self.headers.get("Content-Type") or ""
                if "json" in kind:
                    body = json.loads(raw or "{}")
                else:
                    body = {k: v[0] for k, v in parse_qs(raw).items()}
                headers = {k.lower(): v for k, v in self.headers.items()}
                request = AuthRequest(self.command, urlsplit(self.path).path, headers, body)
                if self.command == "GET" and request.path.endswith("/authorize"):
                    self.send_response(302)  # the user approved: back to the redirect URI
                    self.send_header("Location", fake.authorize(self.path))
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                fake.requests.append(request)
                status, answer = fake._answer(request)
                data = json.dumps(answer).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            do_GET = _serve
            do_POST = _serve

            def log_message(self, format: str, *args: object) -> None:
                return

        return Handler
