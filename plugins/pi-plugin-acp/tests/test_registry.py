"""The ACP registry entry (`acp-registry/pi-harness/agent.json`) is valid and runs this package."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import jsonschema

PLUGIN = Path(__file__).resolve().parents[1]
ENTRY = PLUGIN / "acp-registry" / "pi-harness" / "agent.json"
SCHEMA = Path(__file__).with_name("data") / "acp-registry-agent.schema.json"


def test_the_entry_matches_the_registry_schema() -> None:
    entry = json.loads(ENTRY.read_text())
    jsonschema.validate(entry, json.loads(SCHEMA.read_text()))
    assert entry["id"] == ENTRY.parent.name  # the registry keeps each entry in a folder so named


def test_the_entry_runs_this_version_of_this_package_with_uvx() -> None:
    entry = json.loads(ENTRY.read_text())
    project = tomllib.loads((PLUGIN / "pyproject.toml").read_text())["project"]
    assert entry["version"] == project["version"]
    assert entry["license"] == project["license"]
    uvx = entry["distribution"]["uvx"]
    assert uvx["package"] == f"{project['name']}=={project['version']}"
    # uvx runs the script named like the package: the ACP agent itself, no arguments needed
    assert project["scripts"][project["name"]] == "pi_plugin_acp.cli:acp_command"
    assert not uvx.get("args")
