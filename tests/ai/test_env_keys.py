"""Keys from the environment, for every provider, as pi-ai's getEnvApiKey finds them.

`fixtures/pi-env-keys.json` was recorded by running pi-ai 0.73.1 under each setup of
env_key_cases (record_pi_env_keys.py): which variable wins, empty values, AWS credentials for
Bedrock and application-default credentials for Vertex (`<authenticated>`).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from pi_core.ai.auth import AuthStorage
from pi_core.ai.env_keys import env_api_key
from pi_core.ai.model_registry import ModelRegistry
from tests.ai.env_key_cases import SETUPS, VARIABLES
from tests.ai.fixtures.record_pi_env_keys import prepare_home

PI = json.loads((Path(__file__).parent / "fixtures" / "pi-env-keys.json").read_text())


@pytest.fixture
def setup_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Clear every variable a setup may use, then apply one setup with a fresh HOME."""

    def apply(name: str) -> None:
        home = tmp_path / "home"
        home.mkdir()
        for variable in VARIABLES:
            monkeypatch.delenv(variable, raising=False)
        monkeypatch.setenv("HOME", str(home))
        for variable, value in prepare_home(SETUPS[name], home).items():
            monkeypatch.setenv(variable, value)

    return apply


@pytest.mark.parametrize("name", sorted(SETUPS))
def test_environment_keys_as_pi_finds_them(
    name: str, setup_env: Callable[[str], None], tmp_path: Path
) -> None:
    setup_env(name)
    expected: dict[str, str | None] = PI[name]
    assert {provider: env_api_key(provider) for provider in expected} == expected
    registry = ModelRegistry(AuthStorage(tmp_path / "auth.json"))
    for provider, key in expected.items():
        assert registry.has_credentials(provider) == (key is not None), provider
        assert registry.get_api_key(provider) == key, provider
