"""The resource loader: where resources come from, in what order, and what users are told."""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pi_core import hookimpl
from pi_core.plugins.dispatch import DiscoveredResources, TaggedPath
from pi_core.plugins.manager import PluginManager
from pi_core.resources import ResourceLoader, package_folders

Write = Callable[[Path, str], Path]


def skill(name: str, description: str = "d") -> str:
    return f"---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n"


@pytest.fixture
def agent(isolated_agent_dir: Path) -> Path:
    return isolated_agent_dir


@pytest.fixture
def cwd(tmp_path: Path) -> Path:
    folder = tmp_path / "repo" / "app"
    folder.mkdir(parents=True)
    return folder


def load(cwd: Path, agent: Path, **options: Any) -> ResourceLoader:
    loader = ResourceLoader(cwd, agent, installed_packages=False, **options)
    loader.reload()
    return loader


def names(loader: ResourceLoader) -> list[str]:
    return [s.name for s in loader.skills]


def test_empty_before_reload(cwd: Path, agent: Path) -> None:
    loader = ResourceLoader(cwd, agent, installed_packages=False)
    assert (loader.skills, loader.prompts, loader.themes, loader.context_files) == ([], [], [], [])


def test_every_skill_location_in_pis_order(
    cwd: Path, agent: Path, home: Path, tmp_path: Path, write: Write
) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir()
    write(cwd / ".pi" / "skills" / "p-pi" / "SKILL.md", skill("p-pi"))
    write(cwd / ".agents" / "skills" / "p-cwd" / "SKILL.md", skill("p-cwd"))
    write(cwd / ".agents" / "skills" / "root-file.md", skill("root-file"))  # ignored: agents dir
    write(repo / ".agents" / "skills" / "p-repo" / "SKILL.md", skill("p-repo"))
    write(tmp_path / ".agents" / "skills" / "above-git" / "SKILL.md", skill("above-git"))
    write(agent / "skills" / "u-pi" / "SKILL.md", skill("u-pi"))
    write(agent / "skills" / "u-file.md", "---\ndescription: root file\n---\n")
    write(home / ".agents" / "skills" / "u-home" / "SKILL.md", skill("u-home"))
    write(tmp_path / "extra" / "s-global" / "SKILL.md", skill("s-global"))
    write(cwd / "more" / "s-project" / "SKILL.md", skill("s-project"))
    write(tmp_path / "cli" / "c-cli" / "SKILL.md", skill("c-cli"))
    write(agent / "settings.json", json.dumps({"skills": [str(tmp_path / "extra")]}))
    write(cwd / ".pi" / "settings.json", json.dumps({"skills": ["../more"]}))
    loader = load(cwd, agent, skill_paths=[str(tmp_path / "cli")])
    assert names(loader) == [
        "s-project",
        "p-pi",
        "p-cwd",
        "p-repo",
        "s-global",
        "skills",
        "u-pi",
        "u-home",
        "c-cli",
    ]  # pi 0.73.1 lists this same layout in this order
    sources = {
        s.name: (s.source_info.source, s.source_info.scope) for s in loader.skills if s.source_info
    }
    assert sources == {
        "s-project": ("local", "project"),
        "p-pi": ("auto", "project"),
        "p-cwd": ("auto", "project"),
        "p-repo": ("auto", "project"),
        "s-global": ("local", "user"),
        "u-pi": ("auto", "user"),
        "skills": ("auto", "user"),
        "u-home": ("auto", "user"),
        "c-cli": ("cli", "temporary"),
    }
    # "skills" is u-file.md: a root file without a name takes its folder's name
    assert [d.message for d in loader.skill_diagnostics] == []


def test_without_a_git_repo_ancestors_go_up_to_the_root(
    cwd: Path, agent: Path, tmp_path: Path, write: Write
) -> None:
    write(tmp_path / ".agents" / "skills" / "far-up" / "SKILL.md", skill("far-up"))
    assert names(load(cwd, agent)) == ["far-up"]


def test_project_wins_collisions_and_the_loser_is_reported(
    cwd: Path, agent: Path, write: Write
) -> None:
    user_skill = write(agent / "skills" / "twin" / "SKILL.md", skill("twin", "user"))
    project_skill = write(cwd / ".pi" / "skills" / "twin" / "SKILL.md", skill("twin", "project"))
    write(agent / "prompts" / "commit.md", "User prompt")
    project_prompt = write(cwd / ".pi" / "prompts" / "commit.md", "Project prompt")
    loader = load(cwd, agent)
    assert [(s.name, s.description) for s in loader.skills] == [("twin", "project")]
    assert [(p.name, p.file_path) for p in loader.prompts] == [("commit", str(project_prompt))]
    collisions = [d for d in loader.diagnostics if d.type == "collision"]
    assert [(d.path, d.collision.winner_path if d.collision else None) for d in collisions] == [
        (str(user_skill), str(project_skill)),
        (str(agent / "prompts" / "commit.md"), str(project_prompt)),
    ]


def test_settings_overrides_disable_discovered_resources(
    cwd: Path, agent: Path, write: Write
) -> None:
    write(agent / "skills" / "skip-skill" / "SKILL.md", skill("skip-skill"))
    write(agent / "skills" / "keep-skill" / "SKILL.md", skill("keep-skill"))
    write(agent / "prompts" / "skip.md", "Skip prompt")
    write(agent / "prompts" / "keep.md", "Keep prompt")
    write(agent / "themes" / "skip.json", '{"name": "skip"}')
    write(
        agent / "settings.json",
        json.dumps(
            {
                "skills": ["-skills/skip-skill"],
                "prompts": ["-prompts/skip.md"],
                "themes": ["-themes/skip.json"],
            }
        ),
    )
    loader = load(cwd, agent)
    assert names(loader) == ["keep-skill"]
    assert [p.name for p in loader.prompts] == ["keep"]
    assert loader.themes == []


def test_settings_globs_and_force_patterns(
    cwd: Path, agent: Path, tmp_path: Path, write: Write
) -> None:
    lib = tmp_path / "lib"
    for name in ("alpha", "beta", "draft-one", "draft-two"):
        write(lib / name / "SKILL.md", skill(name))
    write(lib / "prompts" / "nested" / "deep.md", "Deep prompt")  # settings folders recurse
    write(
        cwd / ".pi" / "settings.json",
        json.dumps(
            {
                "skills": [
                    str(lib),
                    "!**/draft-*",
                    "+" + str(lib / "draft-two"),
                    "-" + str(lib / "beta"),
                ],
                "prompts": [str(lib / "prompts")],
            }
        ),
    )
    loader = load(cwd, agent)
    assert names(loader) == ["alpha", "draft-two"]
    assert [p.name for p in loader.prompts] == ["deep"]


def test_auto_prompt_discovery_is_flat(cwd: Path, agent: Path, write: Write) -> None:
    write(agent / "prompts" / "top.md", "Top")
    write(agent / "prompts" / "sub" / "nested.md", "Nested")
    write(agent / "prompts" / ".hidden.md", "Hidden")
    assert [p.name for p in load(cwd, agent).prompts] == ["top"]


def test_cli_paths_and_switches(cwd: Path, agent: Path, tmp_path: Path, write: Write) -> None:
    write(agent / "skills" / "found" / "SKILL.md", skill("found"))
    write(agent / "prompts" / "found.md", "Found")
    write(tmp_path / "mine" / "custom.md", "---\nname: custom\ndescription: Custom skill\n---\n")
    write(tmp_path / "mine.md", "Mine")
    loader = load(
        cwd,
        agent,
        skill_paths=[str(tmp_path / "mine"), "missing-skill"],
        prompt_template_paths=[str(tmp_path / "mine.md"), "missing.md"],
        no_skills=True,
        no_prompt_templates=True,
    )
    assert names(loader) == ["custom"]
    assert [p.name for p in loader.prompts] == ["mine"]
    missing = [(d.type, d.message, Path(d.path or "").name) for d in loader.diagnostics]
    assert ("warning", "skill path does not exist", "missing-skill") in missing
    assert ("error", "Prompt template path does not exist", "missing.md") in missing


def test_context_files_and_system_prompt_sources(
    cwd: Path, agent: Path, tmp_path: Path, write: Write
) -> None:
    write(cwd / "AGENTS.md", "# Project Guidelines\n\nBe helpful.")
    write(cwd / ".pi" / "SYSTEM.md", "You are a helpful assistant.")
    write(agent / "APPEND_SYSTEM.md", "Additional instructions.")
    loader = load(cwd, agent)
    assert [Path(f.path).name for f in loader.context_files] == ["AGENTS.md"]
    assert loader.system_prompt == "You are a helpful assistant."
    assert loader.append_system_prompt == ["Additional instructions."]
    prompt = loader.build_system_prompt([])
    assert prompt.startswith("You are a helpful assistant.\n\nAdditional instructions.\n\n")
    assert "Be helpful." in prompt
    flags = load(
        cwd,
        agent,
        no_context_files=True,
        system_prompt="From the flag.",
        append_system_prompt=[str(write(tmp_path / "extra.md", "From a file."))],
    )
    assert flags.context_files == []
    assert flags.system_prompt == "From the flag."
    assert flags.append_system_prompt == ["From a file."]  # the flag replaces APPEND_SYSTEM.md


def test_expand_input_skill_then_template(cwd: Path, agent: Path, write: Write) -> None:
    write(cwd / ".pi" / "skills" / "fix" / "SKILL.md", skill("fix"))
    write(cwd / ".pi" / "prompts" / "greet.md", "Hello $1")
    loader = load(cwd, agent)
    assert loader.expand_input("/greet Bob") == "Hello Bob"
    assert loader.expand_input("/skill:fix now").endswith("Body of fix.\n</skill>\n\nnow")
    assert loader.expand_input("just text") == "just text"


def test_reload_sees_changes(cwd: Path, agent: Path, write: Write) -> None:
    loader = load(cwd, agent)
    assert loader.skills == []
    write(agent / "skills" / "late" / "SKILL.md", skill("late"))
    write(agent / "settings.json", json.dumps({"prompts": ["extra"]}))
    write(agent / "extra" / "x.md", "X")
    loader.reload()
    assert names(loader) == ["late"] and [p.name for p in loader.prompts] == ["x"]


def test_packages_not_installed_are_reported(cwd: Path, agent: Path, write: Write) -> None:
    source = {"source": "git:example.test/o/r"}
    write(agent / "settings.json", json.dumps({"packages": ["./gone", source]}))
    loader = load(cwd, agent)
    messages = [d.message for d in loader.diagnostics]
    assert any('"./gone" not loaded: not installed' in m for m in messages)
    assert any(
        '"git:example.test/o/r" not loaded' in m and "pi install git:example.test/o/r" in m
        for m in messages
    )


def test_themes(cwd: Path, agent: Path, tmp_path: Path, write: Write) -> None:
    write(agent / "themes" / "dark.json", '{"name": "mine"}')
    write(cwd / ".pi" / "themes" / "dark.json", '{"name": "mine", "vars": {}}')
    write(cwd / ".pi" / "themes" / "broken.json", "{nope")
    loader = load(cwd, agent, theme_paths=[str(tmp_path / "none.json")])
    assert [(t.name, Path(t.source_path).parent.name) for t in loader.themes] == [
        ("mine", "themes")
    ]
    assert loader.themes[0].data == {"name": "mine", "vars": {}}
    kinds = sorted(d.type for d in loader.diagnostics)
    assert kinds == ["collision", "warning", "warning"]


# --- plugins ----------------------------------------------------------------------------------


def test_plugin_paths_are_tagged_and_come_last(
    cwd: Path, agent: Path, tmp_path: Path, write: Write
) -> None:
    write(cwd / ".pi" / "skills" / "shared" / "SKILL.md", skill("shared", "project"))
    write(tmp_path / "plug" / "shared" / "SKILL.md", skill("shared", "plugin"))
    write(tmp_path / "plug" / "own" / "SKILL.md", skill("own"))
    write(tmp_path / "plug-prompts" / "hi.md", "Hi from a plugin")
    found = DiscoveredResources(
        skill_paths=[TaggedPath(str(tmp_path / "plug"), "myplugin")],
        prompt_paths=[TaggedPath(str(tmp_path / "plug-prompts" / "hi.md"), "myplugin")],
    )
    loader = load(cwd, agent)
    loader.extend(found)
    assert [(s.name, s.description) for s in loader.skills] == [("shared", "project"), ("own", "d")]
    own = loader.skills[1].source_info
    assert own is not None and (own.source, own.scope) == ("plugin:myplugin", "temporary")
    assert loader.prompts[0].source_info is not None
    assert loader.prompts[0].source_info.source == "plugin:myplugin"
    assert any(d.type == "collision" for d in loader.skill_diagnostics)
    again = ResourceLoader(cwd, agent, installed_packages=False, no_skills=True)
    again.reload(found)
    assert names(again) == ["own", "shared"]  # plugin paths still load with --no-skills


async def test_discover_from_plugins_through_the_dispatcher(
    cwd: Path, agent: Path, tmp_path: Path, write: Write
) -> None:
    write(tmp_path / "plug" / "own" / "SKILL.md", skill("own"))
    manager = PluginManager(cwd, agent_dir=agent)
    reasons: list[str] = []

    class Provider:
        @hookimpl
        def resources_discover(self, event: Any) -> dict[str, Any]:
            reasons.append(event.reason)
            return {"skillPaths": [str(tmp_path / "plug")]}

    assert manager.register_inline(Provider(), "provider") is not None
    loader = load(cwd, agent)
    await loader.discover_from_plugins(manager.dispatcher, "startup")
    assert reasons == ["startup"]
    assert loader.skills[0].source_info is not None
    assert loader.skills[0].source_info.source == "plugin:provider"


# --- installed distributions (pi.resources entry points) ------------------------------------


@pytest.fixture
def site(tmp_path: Path, write: Write, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake installed distribution with resources, on sys.path."""
    root = tmp_path / "site"
    package = root / "fakepack"
    write(package / "__init__.py", "raise RuntimeError('resources must not import the package')")
    write(package / "skills" / "pdf" / "SKILL.md", skill("pdf", "PDF tools"))
    write(package / "prompts" / "top.md", "Top")
    write(package / "prompts" / "sub" / "deep.md", "Deep")
    write(package / "themes" / "t.json", '{"name": "packaged"}')
    info = root / "fakepack-1.0.dist-info"
    write(info / "METADATA", "Metadata-Version: 2.1\nName: fakepack\nVersion: 1.0\n")
    write(
        info / "entry_points.txt",
        "[pi.resources]\nskills = fakepack.skills\nprompts = fakepack.prompts\n"
        "themes = fakepack.themes\nbogus = fakepack.skills\nskills.attr = fakepack:thing\n"
        "skills.gone = fakepack.nowhere\n\n[pi]\nfakeplugin = fakepack.plugin\n",
    )
    monkeypatch.syspath_prepend(str(root))
    importlib.invalidate_caches()
    return root


def test_entry_point_folders(site: Path) -> None:
    found = package_folders()
    ours = [f for f in found.folders if f.distribution == "fakepack"]
    assert [(f.kind, Path(f.folder).name, f.entry_point) for f in ours] == [
        ("prompts", "prompts", "prompts"),
        ("skills", "skills", "skills"),
        ("themes", "themes", "themes"),
    ]
    messages = [d.message for d in found.diagnostics if "fakepack" in d.message]
    assert len(messages) == 3
    assert any("bogus" in m and "name must start with one of" in m for m in messages)
    assert any("names an attribute" in m for m in messages)
    assert any("does not exist" in m for m in messages)
    assert package_folders(["fakepack"]).folders == package_folders(["FakePlugin"]).folders == []


def test_installed_resources_load_after_local_ones(
    site: Path, cwd: Path, agent: Path, write: Write
) -> None:
    write(cwd / ".pi" / "prompts" / "top.md", "Local top")
    loader = ResourceLoader(cwd, agent)
    loader.reload()
    assert [s.name for s in loader.skills] == ["pdf"]
    info = loader.skills[0].source_info
    assert info is not None and (info.source, info.origin) == ("package:fakepack", "package")
    assert [(p.name, p.content) for p in loader.prompts] == [("top", "Local top"), ("deep", "Deep")]
    assert [t.name for t in loader.themes] == ["packaged"]
    blocked = ResourceLoader(cwd, agent, blocked_plugins=["fakeplugin"])
    blocked.reload()
    assert blocked.skills == []
    write(agent / "settings.json", json.dumps({"blockedPlugins": ["fakepack"]}))
    loader.reload()
    assert loader.skills == []
    assert os.environ.get("PI_CODING_AGENT_DIR") == str(agent)
