"""Vertex AI's endpoints and credentials: an API key, or application-default credentials (an
`authorized_user` refresh token, a `service_account` key signed with google-auth) exchanged at a
loopback token endpoint named by the file's `token_uri`."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from gemini_fake import reply
from google_run import collect, vertex_model
from pi_plugin_google import adc
from pi_plugin_google.endpoint import vertex_request

from pi_core.ai.protocol import StreamOptions
from pi_core.testing import FakeLLMServer, FakeResponse, RecordedRequest

CATALOG_URL = "https://{location}-aiplatform.googleapis.com"
STREAM = ":streamGenerateContent?alt=sse"


@pytest.fixture(autouse=True)
def vertex_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("GOOGLE_CLOUD_API_KEY", "GCLOUD_PROJECT", "GOOGLE_APPLICATION_CREDENTIALS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GOOGLE_CLOUD_PROJECT", "proj")
    monkeypatch.setenv("GOOGLE_CLOUD_LOCATION", "us-central1")


def token_answer(token: str, expires_in: int = 3600) -> FakeResponse:
    return FakeResponse.json_body(
        {"access_token": token, "expires_in": expires_in, "token_type": "Bearer"}
    )


def user_file(tmp_path: Path, server: FakeLLMServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    info = {
        "type": "authorized_user",
        "client_id": "cid.apps.googleusercontent.com",
        "client_secret": "csecret",
        "refresh_token": "rtoken",
        "quota_project_id": "billing-proj",
        "token_uri": f"{server.base_url}/token",
    }
    path = tmp_path / "adc.json"
    path.write_text(json.dumps(info))
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(path))
    return path


def form(request: RecordedRequest) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(request.body.decode()).items()}


async def test_an_api_key_goes_to_the_global_publisher_path() -> None:
    model = vertex_model(CATALOG_URL, "gemini-2.5-pro")
    request = await vertex_request(model, StreamOptions(api_key="vkey"), b"{}")
    assert request.base_url == "https://aiplatform.googleapis.com"
    assert request.path == f"v1/publishers/google/models/gemini-2.5-pro{STREAM}"
    assert request.headers["x-goog-api-key"] == "vkey"
    assert "authorization" not in request.headers


async def test_adc_without_a_project_fails_as_pi_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("GOOGLE_CLOUD_PROJECT")
    model = vertex_model(CATALOG_URL)
    with pytest.raises(ValueError, match="Vertex AI requires a project ID"):
        await vertex_request(model, StreamOptions(api_key="<authenticated>"), b"{}")


async def test_authorized_user_credentials_refresh_once_and_sign_the_regional_request(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeLLMServer() as server:
        user_file(tmp_path, server, monkeypatch)
        server.queue(token_answer("tok-1"))
        model = vertex_model(CATALOG_URL)
        options = StreamOptions(api_key="<authenticated>")
        first = await vertex_request(model, options, b"{}")
        second = await vertex_request(model, options, b"{}")
        assert len(server.requests) == 1  # the token is cached until it expires
        token_request = server.requests[0]
    assert token_request.path == "/token"
    assert form(token_request) == {
        "grant_type": "refresh_token",
        "client_id": "cid.apps.googleusercontent.com",
        "client_secret": "csecret",
        "refresh_token": "rtoken",
    }
    assert first == second
    assert first.base_url == "https://us-central1-aiplatform.googleapis.com"
    assert first.path == (
        f"v1/projects/proj/locations/us-central1/publishers/google/models/gemini-2.5-flash{STREAM}"
    )
    assert first.headers["authorization"] == "Bearer tok-1"
    assert first.headers["x-goog-user-project"] == "billing-proj"


async def test_a_token_about_to_expire_is_refreshed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeLLMServer() as server:
        user_file(tmp_path, server, monkeypatch)
        server.queue(token_answer("short", expires_in=30), token_answer("fresh"))
        model = vertex_model(CATALOG_URL)
        options = StreamOptions()
        await vertex_request(model, options, b"{}")
        request = await vertex_request(model, options, b"{}")
        assert len(server.requests) == 2
    assert request.headers["authorization"] == "Bearer fresh"


@pytest.mark.parametrize(
    ("location", "base"),
    [
        ("global", "https://aiplatform.googleapis.com"),
        ("us", "https://aiplatform.us.rep.googleapis.com"),
        ("europe-west4", "https://europe-west4-aiplatform.googleapis.com"),
    ],
)
async def test_the_location_picks_the_host(
    location: str, base: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_CLOUD_LOCATION", location)
    with FakeLLMServer() as server:
        user_file(tmp_path, server, monkeypatch)
        server.queue(token_answer("t"))
        request = await vertex_request(vertex_model(CATALOG_URL), StreamOptions(), b"{}")
    assert request.base_url == base
    assert f"/locations/{location}/" in request.path


async def test_a_refused_refresh_token_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeLLMServer() as server:
        user_file(tmp_path, server, monkeypatch)
        refused = {"error": "invalid_grant", "error_description": "Token has been expired."}
        server.queue(FakeResponse.json_body(refused, status=400))
        _, message = await collect(vertex_model(CATALOG_URL), max_retries=0, api_key=None)
    assert message.stop_reason == "error"
    assert "refused the credentials" in (message.error_message or "")
    assert "invalid_grant" in (message.error_message or "")


async def test_missing_credentials_name_the_ways_to_set_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(tmp_path / "absent.json"))
    with pytest.raises(adc.CredentialsError, match="GOOGLE_CLOUD_API_KEY"):
        await vertex_request(vertex_model(CATALOG_URL), StreamOptions(), b"{}")


async def test_a_stream_through_adc_and_a_models_json_base_url(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeLLMServer() as server:
        user_file(tmp_path, server, monkeypatch)
        server.route(lambda r: token_answer("tok-9") if r.path == "/token" else None)
        server.queue(reply("Hi from Vertex."))
        _, message = await collect(vertex_model(server.base_url), api_key="<authenticated>")
        generate = server.requests[-1]
    assert message.stop_reason == "stop", message.error_message
    assert generate.path == f"/v1/publishers/google/models/gemini-2.5-flash{STREAM}"
    assert generate.headers["authorization"] == "Bearer tok-9"
    assert "x-goog-api-key" not in generate.headers


def _key_pair() -> tuple[str, bytes]:
    """A fresh RSA key: the private key's PEM and the public key's."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()
    public = key.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )
    return private, public


def _service_account(tmp_path: Path, token_uri: str, private_key: str) -> Path:
    info = {
        "type": "service_account",
        "project_id": "proj",
        "private_key_id": "kid-1",
        "private_key": private_key,
        "client_email": "bot@proj.iam.gserviceaccount.com",
        "client_id": "123",
        "token_uri": token_uri,
    }
    path = tmp_path / "sa.json"
    path.write_text(json.dumps(info))
    return path


async def test_a_service_account_key_exchanges_a_signed_jwt(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    jwt = pytest.importorskip("google.auth.jwt")  # the [vertex] extra, in requirements-dev
    private, public = _key_pair()
    with FakeLLMServer() as server:
        token_uri = f"{server.base_url}/token"
        path = _service_account(tmp_path, token_uri, private)
        monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(path))
        server.queue(token_answer("sa-token"))
        request = await vertex_request(vertex_model(CATALOG_URL), StreamOptions(), b"{}")
        sent = form(server.requests[0])
    assert request.headers["authorization"] == "Bearer sa-token"
    assert sent["grant_type"] == "urn:ietf:params:oauth:grant-type:jwt-bearer"
    claims = jwt.decode(sent["assertion"], certs=public.decode(), audience=token_uri)
    assert claims["iss"] == "bot@proj.iam.gserviceaccount.com"
    assert claims["scope"] == adc.SCOPE
    assert claims["exp"] - claims["iat"] == 3600
    assert abs(claims["iat"] - time.time()) < 60


async def test_a_service_account_without_google_auth_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _service_account(tmp_path, "http://127.0.0.1:9/token", "not read: the import fails")
    monkeypatch.setenv("GOOGLE_APPLICATION_CREDENTIALS", str(path))
    monkeypatch.setitem(sys.modules, "google.auth", None)  # as if google-auth were not installed
    with pytest.raises(adc.CredentialsError, match=r"pip install 'pi-plugin-google\[vertex\]'"):
        await vertex_request(vertex_model(CATALOG_URL), StreamOptions(), b"{}")
