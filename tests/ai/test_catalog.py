"""The catalog: every provider and model pi 0.73.1 lists is here, with the same facts.

`fixtures/pi-catalog.json` holds, per provider, pi-ai's model ids in its order and a digest of
each model's facts (id, name, api, provider, baseUrl, reasoning, thinkingLevelMap, input, cost,
contextWindow, maxTokens, headers, compat), exported through pi-ai's own getModels
(record_pi_catalog.py). The registry is the one `pi` builds, with the installed plugins.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pi_core.ai.model import Model
from pi_core.ai.model_registry import ModelRegistry
from pi_core.plugins.manager import LoadOptions, PluginManager
from tests.ai.catalog_digest import canonical, digest

PI = json.loads((Path(__file__).parent / "fixtures" / "pi-catalog.json").read_text())


def pi_view(model: Model) -> dict[str, Any]:
    """The model as pi-ai writes it: camelCase, optional fields left out, headers included."""
    view = model.model_dump(mode="json", by_alias=True, exclude_none=True)
    if model.headers:
        view["headers"] = dict(model.headers)
    return view


@pytest.fixture(scope="module")
def registry(tmp_path_factory: pytest.TempPathFactory) -> ModelRegistry:
    root = tmp_path_factory.mktemp("catalog")
    (root / "agent").mkdir()
    manager = PluginManager(root, agent_dir=root / "agent")
    manager.load(LoadOptions())
    return manager.model_registry()


def test_every_provider_pi_ships_is_known(registry: ModelRegistry) -> None:
    assert len(PI["providers"]) == 31
    assert set(PI["providers"]) <= set(registry.providers())


@pytest.mark.parametrize("provider", sorted(PI["providers"]))
def test_each_model_has_pi_s_facts(registry: ModelRegistry, provider: str) -> None:
    expected: dict[str, str] = PI["providers"][provider]
    models = registry.provider_models(provider)
    assert [m.id for m in models] == list(expected)
    wrong = {m.id: canonical(pi_view(m)) for m in models if digest(pi_view(m)) != expected[m.id]}
    assert not wrong, f"differs from pi (re-export with record_pi_catalog.py): {wrong}"


def test_969_models_in_all(registry: ModelRegistry) -> None:
    built_in = [m for m in registry.all_models() if m.provider in PI["providers"]]
    assert len(built_in) == sum(len(ids) for ids in PI["providers"].values()) == 969
