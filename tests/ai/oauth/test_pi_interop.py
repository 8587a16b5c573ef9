"""A login pi wrote works here (read, used, refreshed), and what we write pi's own storage reads.

fixtures/pi_auth.json was written by pi 0.73.1's AuthStorage (pi_auth.mjs); the round trip runs
pi's storage code with node when node and pi (PI_REF, default /work/pi-ref) are there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from pi_plugin_anthropic.login import AnthropicLogin

from pi_core.ai.auth import AuthStorage
from pi_core.ai.oauth import now_ms
from pi_core.testing import FakeAuthServer

HERE = Path(__file__).parent
PI_REF = Path(os.environ.get("PI_REF", "/work/pi-ref"))
PI_STORAGE = PI_REF / "node_modules/@mariozechner/pi-coding-agent/dist/core/auth-storage.js"
needs_pi = pytest.mark.skipif(
    shutil.which("node") is None or not PI_STORAGE.exists(), reason="node or pi not installed"
)


def run_pi(*args: str) -> str:
    env = {**os.environ, "PI_REF": str(PI_REF)}
    done = subprocess.run(["node", str(HERE / "pi_auth.mjs"), *args], capture_output=True,
                          text=True, env=env, timeout=60, check=True)  # fmt: skip
    return done.stdout


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAuthServer]:
    with FakeAuthServer() as server:
        monkeypatch.setenv("PI_TEST_OAUTH_ORIGIN", server.origin)
        yield server


def test_an_expired_login_pi_wrote_is_refreshed_and_pi_reads_the_result(
    fake: FakeAuthServer, tmp_path: Path
) -> None:
    path = tmp_path / "auth.json"
    shutil.copy(HERE / "fixtures" / "pi_auth.json", path)
    fake.refresh_tokens.add("refresh-from-pi")
    auth = AuthStorage(path)
    auth.add_login_provider(AnthropicLogin())
    assert auth.stored_key("anthropic") == "sk-ant-oat01-access-1"
    assert fake.requests[0].body["refresh_token"] == "refresh-from-pi"
    stored = json.loads(path.read_text())
    assert stored["openai"] == {"type": "api_key", "key": "sk-openai-kept"}
    assert stored["anthropic"]["refresh"] == "refresh-1"
    if shutil.which("node") and PI_STORAGE.exists():
        seen = json.loads(run_pi("read", str(path), "anthropic"))
        assert seen["apiKey"] == "sk-ant-oat01-access-1"  # pi uses it as is: not expired
        assert seen["credential"] == stored["anthropic"]


@needs_pi
def test_a_fresh_login_pi_writes_is_used_here_without_a_request(
    fake: FakeAuthServer, tmp_path: Path
) -> None:
    path = tmp_path / "auth.json"
    record = {"type": "oauth", "refresh": "r", "access": "sk-ant-oat01-pi",
              "expires": now_ms() + 3_600_000}  # fmt: skip
    run_pi("write", str(path), "anthropic", json.dumps(record))
    auth = AuthStorage(path)
    auth.add_login_provider(AnthropicLogin())
    assert auth.stored_key("anthropic") == "sk-ant-oat01-pi"
    assert fake.requests == []


@needs_pi
def test_a_login_stored_here_is_read_by_pi(tmp_path: Path) -> None:
    path = tmp_path / "auth.json"
    credentials = {"refresh": "r9", "access": "tid=9;proxy-ep=proxy.x",
                   "expires": now_ms() + 60_000, "enterpriseUrl": None}  # fmt: skip
    AuthStorage(path).set_oauth("github-copilot", credentials)
    seen = json.loads(run_pi("read", str(path), "github-copilot"))
    assert seen["apiKey"] == "tid=9;proxy-ep=proxy.x"
    assert seen["credential"] == {"type": "oauth", **{k: v for k, v in credentials.items() if v}}


@needs_pi
def test_a_refresh_waits_for_pis_lock_and_uses_what_pi_wrote(
    fake: FakeAuthServer, tmp_path: Path
) -> None:
    import threading

    path = tmp_path / "auth.json"
    expired = {"type": "oauth", "refresh": "r0", "access": "old", "expires": now_ms() - 1}
    path.write_text(json.dumps({"anthropic": expired}))
    fake.refresh_tokens.add("r0")
    holder = subprocess.Popen(
        ["node", str(HERE / "pi_lock_holder.mjs"), str(path)], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, text=True, env={**os.environ, "PI_REF": str(PI_REF)},
    )  # fmt: skip
    assert holder.stdin is not None and holder.stdout is not None
    assert holder.stdout.readline().strip() == "locked"
    auth = AuthStorage(path)
    auth.add_login_provider(AnthropicLogin())
    keys: list[str | None] = []
    waiting = threading.Thread(target=lambda: keys.append(auth.stored_key("anthropic")))
    waiting.start()
    # pi, holding the lock, refreshes first and writes its result; then it lets go.
    refreshed = {"type": "oauth", "refresh": "r1", "access": "by-pi", "expires": now_ms() + 60_000}
    holder.stdin.write(json.dumps({"anthropic": refreshed}) + "\n")
    holder.stdin.flush()
    assert holder.stdout.readline().strip() == "released"
    waiting.join(timeout=30)
    holder.stdin.close()
    holder.wait(timeout=30)
    assert keys == ["by-pi"]
    assert fake.requests == []  # we never refreshed: the lock kept us out until pi was done
