"""Credentials, regions and endpoints as pi resolves them; SigV4 as botocore computes it; no
botocore at start-up."""

from __future__ import annotations

import datetime
import os
import subprocess
import sys
from pathlib import Path
from unittest import mock

import pytest
from bedrock_wire import sigv4_valid, stream, text_frames, turn
from pi_plugin_bedrock.auth import sign
from pi_plugin_bedrock.endpoint import Endpoint, resolve_endpoint
from pi_plugin_bedrock.stream import _request, stream_converse

from pi_core.ai.message_cache import EncodedParts
from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamOptions
from pi_core.messages import UserMessage
from pi_core.testing import FakeLLMServer

CATALOG_URL = "https://bedrock-runtime.us-east-1.amazonaws.com"
CONTEXT = LLMContext(messages=[UserMessage(content="hi")])


def model(base_url: str | None = CATALOG_URL) -> Model:
    return Model(
        id="us.anthropic.claude-sonnet-4-20250514-v1:0",
        api="bedrock-converse-stream",
        provider="amazon-bedrock",
        base_url=base_url,
        max_tokens=64000,
    )


def test_sigv4_header_for_known_credentials_and_time() -> None:
    from botocore.credentials import Credentials

    headers = {"content-type": "application/json"}
    url = CATALOG_URL + "/model/amazon.nova-micro-v1%3A0/converse-stream"
    when = datetime.datetime(2026, 1, 2, 3, 4, 5)
    credentials = Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    with mock.patch("botocore.auth.get_current_datetime", return_value=when):
        sign(url, b'{"messages":[]}', headers, "us-east-1", credentials)
    assert headers["x-amz-date"] == "20260102T030405Z"
    assert headers["authorization"] == (
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260102/us-east-1/bedrock/aws4_request, "
        "SignedHeaders=content-type;host;x-amz-date, "
        "Signature=" + _independent_signature(url, headers)
    )


def _independent_signature(url: str, headers: dict[str, str]) -> str:
    """SigV4 by hand (hashlib/hmac), so the test does not trust botocore alone."""
    import hashlib
    import hmac

    def digest(key: bytes, text: str) -> bytes:
        return hmac.new(key, text.encode(), hashlib.sha256).digest()

    canonical = "\n".join(
        [
            "POST",
            "/model/amazon.nova-micro-v1%253A0/converse-stream",  # re-encoded, as AWS wants
            "",
            "content-type:application/json",
            "host:bedrock-runtime.us-east-1.amazonaws.com",
            "x-amz-date:20260102T030405Z",
            "",
            "content-type;host;x-amz-date",
            hashlib.sha256(b'{"messages":[]}').hexdigest(),
        ]
    )
    scope = "20260102/us-east-1/bedrock/aws4_request"
    to_sign = "\n".join(
        [
            "AWS4-HMAC-SHA256",
            "20260102T030405Z",
            scope,
            hashlib.sha256(canonical.encode()).hexdigest(),
        ]
    )
    key = b"AWS4wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
    for part in ("20260102", "us-east-1", "bedrock", "aws4_request"):
        key = digest(key, part)
    return hmac.new(key, to_sign.encode(), hashlib.sha256).hexdigest()


async def test_environment_keys_sign_requests_the_server_can_verify(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDTEST")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "secret/key")
    monkeypatch.setenv("AWS_SESSION_TOKEN", "session-token")
    monkeypatch.setenv("AWS_REGION", "eu-west-3")
    with FakeLLMServer() as server:
        server.queue(stream(turn(text_frames(["ok"]))))
        options = StreamOptions(max_retries=0)
        final = [e async for e in stream_converse(model(server.base_url), CONTEXT, options)][-1]
        request = server.requests[0]
        assert final.type == "done"
        assert request.headers["x-amz-security-token"] == "session-token"
        assert "/eu-west-3/bedrock/aws4_request" in request.headers["authorization"]
        assert sigv4_valid(request, server.base_url, "secret/key", "session-token")
        assert not sigv4_valid(request, server.base_url, "wrong", "session-token")


async def test_a_profile_gives_credentials_and_region(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    (tmp_path / "aws-credentials").write_text(
        "[work]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = profile-secret\n"
    )
    (tmp_path / "aws-config").write_text("[profile work]\nregion = ap-southeast-2\n")
    monkeypatch.setenv("AWS_PROFILE", "work")
    with FakeLLMServer() as server:
        request = await _request(
            model(server.base_url), StreamOptions(), {"messages": []}, EncodedParts()
        )
    assert request.base_url == server.base_url
    assert "AKIDPROFILE/" in request.headers["authorization"]
    assert "/ap-southeast-2/bedrock/" in request.headers["authorization"]
    # the catalog's standard endpoint gives way to the profile's region, as in pi
    standard = await _request(model(), StreamOptions(), {"messages": []}, EncodedParts())
    assert standard.base_url == "https://bedrock-runtime.ap-southeast-2.amazonaws.com"


async def test_bearer_token_is_sent_unsigned(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "bedrock-api-key")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDIGNORED")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "ignored")
    request = await _request(model(), StreamOptions(), {"messages": []}, EncodedParts())
    assert request.headers["authorization"] == "Bearer bedrock-api-key"
    assert "x-amz-date" not in request.headers
    assert request.base_url == CATALOG_URL
    assert request.path == "model/us.anthropic.claude-sonnet-4-20250514-v1%3A0/converse-stream"


async def test_no_credentials_is_a_clear_error() -> None:
    with FakeLLMServer() as server:
        options = StreamOptions(max_retries=0)
        final = [e async for e in stream_converse(model(server.base_url), CONTEXT, options)][-1]
        assert not server.requests
    assert final.type == "error"
    assert "No AWS credentials found" in final.error.error_message


@pytest.mark.parametrize(
    ("base_url", "env", "expected"),
    [
        (CATALOG_URL, {}, Endpoint(CATALOG_URL, "us-east-1")),
        ("https://bedrock-runtime.eu-west-1.amazonaws.com", {},
         Endpoint("https://bedrock-runtime.eu-west-1.amazonaws.com", "eu-west-1")),
        (CATALOG_URL, {"AWS_REGION": "eu-central-1"}, Endpoint("", "eu-central-1")),
        (CATALOG_URL, {"AWS_DEFAULT_REGION": "us-west-2"}, Endpoint("", "us-west-2")),
        (CATALOG_URL, {"AWS_PROFILE": "p"}, Endpoint("", None)),
        ("https://proxy.example/bedrock", {"AWS_REGION": "eu-central-1"},
         Endpoint("https://proxy.example/bedrock", "eu-central-1")),
        ("https://proxy.example/bedrock", {},
         Endpoint("https://proxy.example/bedrock", "us-east-1")),
    ],
)  # fmt: skip
def test_endpoint_and_region_as_pi_resolves_them(
    base_url: str, env: dict[str, str], expected: Endpoint, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert resolve_endpoint(base_url) == expected


def test_loading_the_plugin_imports_neither_botocore_nor_httpx() -> None:
    probe = (
        "import sys, pi_plugin_bedrock; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('botocore', 'httpx')))"
    )
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stderr


def test_pi_starts_and_lists_bedrock_models_without_importing_botocore(tmp_path: Path) -> None:
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "PI_CODING_AGENT_DIR": str(tmp_path / "agent"),
        "PI_OFFLINE": "1",
        "AWS_ACCESS_KEY_ID": "AKIDTEST",
        "AWS_SECRET_ACCESS_KEY": "secret",
    }
    probe = (
        "import sys; from pi_core.cli import main\n"
        "sys.argv = ['pi', '--list-models', '--all', 'nova-pro']\n"
        "try: main()\n"
        "finally: print(sorted(m for m in sys.modules if m.split('.')[0] in ('botocore', 'httpx')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=60
    )
    bedrock = [line for line in result.stdout.splitlines() if line.startswith("amazon-bedrock")]
    assert any("amazon.nova-pro-v1:0" in line for line in bedrock), result.stdout + result.stderr
    assert not any("(no plugin yet)" in line for line in bedrock), result.stdout
    assert result.stdout.strip().splitlines()[-1] == "[]", result.stderr


async def test_an_abort_ends_a_slow_credential_lookup(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio
    import threading

    from pi_plugin_bedrock import auth

    from pi_core.abort import AbortController

    entered, release = threading.Event(), threading.Event()

    def slow_lookup(*args: object) -> str:
        entered.set()
        release.wait(30)
        return "http://127.0.0.1:9"

    monkeypatch.setattr(auth, "_finish", slow_lookup)
    controller = AbortController()
    options = StreamOptions(max_retries=0, signal=controller.signal)
    events = stream_converse(model(), CONTEXT, options)
    assert (await anext(events)).type == "start"
    final_task = asyncio.ensure_future(anext(events))
    await asyncio.to_thread(entered.wait, 30)  # the lookup is running: abort now
    controller.abort()
    final = await asyncio.wait_for(final_task, 30)
    release.set()
    assert final.type == "error" and final.error.stop_reason == "aborted"


async def test_skip_auth_signs_with_dummy_keys_even_with_a_token(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AWS_BEDROCK_SKIP_AUTH", "1")
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "unused")
    request = await _request(model(), StreamOptions(), {"messages": []}, EncodedParts())
    assert request.headers["authorization"].startswith(
        "AWS4-HMAC-SHA256 Credential=dummy-access-key/"
    )
