"""scripts/regenerate_catalog.py: from a pi-ai package folder to the catalog's JSON files."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "regenerate_catalog.py"

MODELS_JS = """export const MODELS = {
  "zeta": {"z-1": {"id": "z-1", "name": "Z One", "api": "openai-completions", "provider": "zeta",
    "baseUrl": "https://z.example/v1", "reasoning": false, "input": ["text"],
    "cost": {"input": 1, "output": 2, "cacheRead": 0, "cacheWrite": 0},
    "contextWindow": 1000, "maxTokens": 100, "compat": {"supportsStore": false}}},
  "alpha": {
    "a-2": {"id": "a-2", "name": "A Two", "api": "anthropic-messages", "provider": "alpha",
      "baseUrl": "https://a.example", "reasoning": true, "thinkingLevelMap": {"off": null},
      "input": ["text", "image"], "cost": {"input": 0.5, "output": 1, "cacheRead": 0.1,
      "cacheWrite": 0}, "contextWindow": 2000, "maxTokens": 200, "headers": {"x-a": "1"}},
    "a-1": {"id": "a-1", "name": "A One", "api": "openai-responses", "provider": "alpha",
      "baseUrl": "https://a.example/v1", "reasoning": false, "input": ["text"],
      "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0},
      "contextWindow": 3000, "maxTokens": 300}}
};
"""
ENV_JS = """const names = { zeta: ["ZETA_TOKEN", "ZETA_API_KEY"] };
export function findEnvKeys(provider) {
  const found = (names[provider] ?? []).filter((name) => !!process.env[name]);
  return found.length > 0 ? found : undefined;
}
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_a_package_becomes_one_file_per_provider_and_an_index(tmp_path: Path) -> None:
    package = tmp_path / "pi-ai"
    (package / "dist").mkdir(parents=True)
    (package / "package.json").write_text('{"name": "@mariozechner/pi-ai", "version": "9.9.9"}')
    (package / "dist" / "models.generated.js").write_text(MODELS_JS)
    (package / "dist" / "env-api-keys.js").write_text(ENV_JS)
    out = tmp_path / "catalog"
    out.mkdir()
    (out / "stale.json").write_text("[]")
    subprocess.run([sys.executable, str(SCRIPT), "--package", str(package), "--out", str(out)],
                   check=True, capture_output=True)  # fmt: skip
    assert sorted(p.name for p in out.iterdir()) == ["alpha.json", "index.json", "zeta.json"]
    index = json.loads((out / "index.json").read_text())
    assert index == {"piVersion": "9.9.9", "providers": {
        "zeta": {"env": ["ZETA_TOKEN", "ZETA_API_KEY"], "apis": ["openai-completions"],
                 "models": 1},
        "alpha": {"env": [], "apis": ["anthropic-messages", "openai-responses"], "models": 2},
    }}  # fmt: skip
    alpha_text = (out / "alpha.json").read_text()
    assert len(alpha_text.splitlines()) == 4  # one model per line, between the brackets
    alpha = json.loads(alpha_text)
    assert [m["id"] for m in alpha] == ["a-2", "a-1"]
    assert alpha[0]["thinkingLevelMap"] == {"off": None} and alpha[0]["headers"] == {"x-a": "1"}


def test_the_shipped_catalog_agrees_with_its_index() -> None:
    folder = ROOT / "pi_core" / "ai" / "catalog"
    index = json.loads((folder / "index.json").read_text())
    for provider, entry in index["providers"].items():
        models = json.loads((folder / f"{provider}.json").read_text())
        assert len(models) == entry["models"]
        assert sorted({m["api"] for m in models}) == entry["apis"]
        assert {m["provider"] for m in models} == {provider}


def test_the_providers_table_in_the_docs_is_the_catalog_s() -> None:
    spec = importlib.util.spec_from_file_location("regenerate_catalog", SCRIPT)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    index = json.loads((ROOT / "pi_core" / "ai" / "catalog" / "index.json").read_text())
    docs = (ROOT / "docs" / "providers.md").read_text()
    table = docs.split(script.TABLE_START + "\n", 1)[1].split(script.TABLE_END, 1)[0]
    assert table == script.providers_table(index)
    assert table.count("\n") == 2 + len(index["providers"])
