"""A package's `pi` manifest in package.json decides what loads: globs, `!` exclusions, themes,
and the settings filter on top of it."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.plugins.manager import PluginManager
from pi_core.resources.resource_loader import ResourceLoader


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def manifest_package(root: Path) -> Path:
    """A package whose manifest names resources outside the conventional folders."""
    manifest = {
        "name": "kit",
        "version": "1.0.0",
        "pi": {
            "prompts": ["templates/*.md", "!templates/draft.md"],
            "skills": ["kit-skills"],
            "themes": ["look/dark.json"],
            "extensions": ["src/gate.ts"],
        },
    }
    write(root / "package.json", json.dumps(manifest))
    write(root / "templates" / "review.md", "Review it.\n")
    write(root / "templates" / "draft.md", "Draft.\n")
    write(root / "prompts" / "ignored.md", "Not in the manifest.\n")
    write(root / "kit-skills" / "s" / "SKILL.md", "---\nname: s\ndescription: S.\n---\nBody\n")
    write(root / "look" / "dark.json", json.dumps({"name": "kit-dark", "vars": {}}))
    write(root / "src" / "gate.ts", "export default function () {}\n")
    return root


def test_the_manifest_decides_what_loads(tmp_path: Path, isolated_agent_dir: Path) -> None:
    kit = manifest_package(tmp_path / "kit")
    cwd = tmp_path / "project"
    cwd.mkdir()
    write(isolated_agent_dir / "settings.json", json.dumps({"packages": [str(kit)]}))
    loader = ResourceLoader(cwd, isolated_agent_dir, installed_packages=False)
    loader.reload()
    assert [p.name for p in loader.prompts] == ["review"]
    assert [s.name for s in loader.skills] == ["s"]
    assert [t.name for t in loader.themes] == ["kit-dark"]

    manager = PluginManager(cwd, agent_dir=isolated_agent_dir)
    manager.load()
    assert [e.source for e in manager.errors] == [str(kit / "src" / "gate.ts")]


def test_a_settings_filter_narrows_the_manifest(tmp_path: Path, isolated_agent_dir: Path) -> None:
    kit = manifest_package(tmp_path / "kit")
    cwd = tmp_path / "project"
    cwd.mkdir()
    entry = {
        "source": str(kit),
        "themes": [],
        "extensions": [],
        "prompts": ["-templates/review.md"],
    }
    write(isolated_agent_dir / "settings.json", json.dumps({"packages": [entry]}))
    loader = ResourceLoader(cwd, isolated_agent_dir, installed_packages=False)
    loader.reload()
    assert loader.prompts == [] and loader.themes == []
    assert [s.name for s in loader.skills] == ["s"]

    manager = PluginManager(cwd, agent_dir=isolated_agent_dir)
    manager.load()
    assert [e for e in manager.errors if "gate.ts" in e.source] == []
