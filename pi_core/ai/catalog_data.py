"""pi 0.73.1's built-in providers and models, read lazily from the JSON files in `catalog/`.

`index.json` (a few KB) names the providers; a provider's models are read from its own file the
first time they are asked for, so resolving one model never parses the whole catalog.
Regenerate the files with `python scripts/regenerate_catalog.py --version <pi version>`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

CATALOG_DIR = Path(__file__).resolve().parent / "catalog"


@dataclass(frozen=True)
class CatalogProvider:
    """One built-in provider: the key variables pi reads for it and its models' APIs."""

    name: str
    env: tuple[str, ...]
    apis: tuple[str, ...]
    model_count: int


@cache
def catalog_providers() -> dict[str, CatalogProvider]:
    """Every built-in provider, in pi's order (read from `index.json` once)."""
    index = json.loads((CATALOG_DIR / "index.json").read_text(encoding="utf-8"))
    return {
        name: CatalogProvider(name, tuple(entry["env"]), tuple(entry["apis"]), entry["models"])
        for name, entry in index["providers"].items()
    }


def catalog_version() -> str:
    """The pi version the catalog was generated from."""
    index = json.loads((CATALOG_DIR / "index.json").read_text(encoding="utf-8"))
    return str(index["piVersion"])


@cache
def _read_models(provider: str) -> tuple[dict[str, Any], ...]:
    return tuple(json.loads((CATALOG_DIR / f"{provider}.json").read_text(encoding="utf-8")))


def catalog_models(provider: str) -> list[dict[str, Any]]:
    """The provider's models as pi-ai has them (camelCase dicts); [] for an unknown provider."""
    if provider not in catalog_providers():
        return []
    return [dict(model) for model in _read_models(provider)]
