"""Settings: pi's defaults, merging, one-key writes under a lock, and broken files left alone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from pi_core.resources.settings import (
    Settings,
    SettingsFileError,
    SettingsManager,
    migrate_settings,
)


@pytest.fixture
def agent(isolated_agent_dir: Path) -> Path:
    return isolated_agent_dir


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "project"
    folder.mkdir()
    return folder


def write_json(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def read_json(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_defaults_are_pis(project: Path, agent: Path) -> None:
    manager = SettingsManager.create(project, str(agent))
    s = manager.settings
    assert (s.compaction.enabled, s.compaction.reserve_tokens, s.compaction.keep_recent_tokens) == (
        True,
        16384,
        20000,
    )
    assert (s.retry.enabled, s.retry.max_retries, s.retry.base_delay_ms) == (True, 3, 2000)
    assert s.retry.provider.max_retry_delay_ms == 60000 and s.retry.provider.timeout_ms is None
    assert manager.get_steering_mode() == manager.get_follow_up_mode() == "one-at-a-time"
    assert manager.get_transport() == "auto"
    assert manager.get_enable_skill_commands() is True
    assert manager.get_image_auto_resize() is True and manager.get_block_images() is False
    assert manager.get_show_images() is True and manager.get_image_width_cells() == 60
    assert manager.get_double_escape_action() == "tree"
    assert manager.get_tree_filter_mode() == "default"
    assert manager.get_editor_padding_x() == 0 and manager.get_autocomplete_max_visible() == 5
    assert manager.get_code_block_indent() == "  "
    assert manager.get_branch_summary_settings().reserve_tokens == 16384
    assert manager.get_enable_install_telemetry() is True
    assert manager.get_warnings().anthropic_extra_usage is True
    for getter in (
        manager.get_default_provider,
        manager.get_default_model,
        manager.get_default_thinking_level,
        manager.get_theme,
        manager.get_shell_path,
        manager.get_session_dir,
        manager.get_enabled_models,
        manager.get_thinking_budgets,
        manager.get_npm_command,
        manager.get_shell_command_prefix,
    ):
        assert getter() is None
    for lister in (
        manager.get_packages,
        manager.get_extension_paths,
        manager.get_skill_paths,
        manager.get_prompt_template_paths,
        manager.get_theme_paths,
        manager.get_blocked_plugins,
    ):
        assert lister() == []
    assert manager.errors == []
    assert not (project / ".pi").exists()  # reading never creates the project folder


def test_project_overrides_global_and_objects_merge_one_level(project: Path, agent: Path) -> None:
    write_json(
        agent / "settings.json",
        {
            "theme": "dark",
            "compaction": {"enabled": True, "reserveTokens": 16384},
            "retry": {"maxRetries": 5, "provider": {"timeoutMs": 1000, "maxRetries": 1}},
            "skills": ["a", "b"],
            "defaultModel": "global-model",
        },
    )
    write_json(
        project / ".pi" / "settings.json",
        {
            "compaction": {"reserveTokens": 8192},
            "retry": {"provider": {"maxRetries": 0}},
            "skills": ["c"],
            "defaultModel": "project-model",
        },
    )
    manager = SettingsManager.create(project, str(agent))
    s = manager.settings
    assert s.theme == "dark"
    assert (s.compaction.enabled, s.compaction.reserve_tokens) == (True, 8192)
    assert s.retry.max_retries == 5
    # pi merges one level deep: retry.provider is replaced, not merged
    assert (s.retry.provider.timeout_ms, s.retry.provider.max_retries) == (None, 0)
    assert manager.get_skill_paths() == ["c"]
    assert manager.get_default_model() == "project-model"


def test_typed_values_and_env_fallbacks(
    project: Path, agent: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_json(
        agent / "settings.json",
        {
            "treeFilterMode": "bogus",
            "terminal": {"imageWidthCells": 12.7},
            "sessionDir": "~/sessions",
            "thinkingBudgets": {"low": 100},
            "packages": ["npm:a", {"source": "npm:b", "skills": []}],
        },
    )
    monkeypatch.setenv("PI_CLEAR_ON_SHRINK", "1")
    monkeypatch.setenv("PI_HARDWARE_CURSOR", "1")
    manager = SettingsManager.create(project, str(agent))
    assert manager.get_tree_filter_mode() == "default"
    assert manager.get_image_width_cells() == 12
    assert manager.get_session_dir() == os.path.join(os.environ["HOME"], "sessions")
    budgets = manager.get_thinking_budgets()
    assert budgets is not None and budgets.low == 100
    assert manager.get_clear_on_shrink() is True and manager.get_show_hardware_cursor() is True
    packages = manager.get_packages()
    assert packages[0] == "npm:a" and not isinstance(packages[1], str)
    assert packages[1].source == "npm:b" and packages[1].skills == []


def test_setters_write_only_their_key_and_keep_unknown_keys(project: Path, agent: Path) -> None:
    path = write_json(agent / "settings.json", {"theme": "dark", "myPlugin": {"x": 1}})
    manager = SettingsManager.create(project, str(agent))
    # someone edits the file while we run
    write_json(path, {**read_json(path), "enabledModels": ["claude-*"], "packages": []})
    manager.set_default_thinking_level("high")
    assert read_json(path) == {
        "theme": "dark",
        "myPlugin": {"x": 1},
        "enabledModels": ["claude-*"],
        "packages": [],
        "defaultThinkingLevel": "high",
    }
    assert manager.get_enabled_models() == ["claude-*"]  # memory follows the file after a write
    text = path.read_text(encoding="utf-8")
    assert text.startswith('{\n  "theme": "dark",') and not text.endswith("\n")


def test_nested_setters_merge_into_the_files_object(project: Path, agent: Path) -> None:
    path = write_json(agent / "settings.json", {"compaction": {"reserveTokens": 1000}})
    manager = SettingsManager.create(project, str(agent))
    manager.set_compaction_enabled(False)
    manager.set_retry_enabled(False)
    manager.set_show_images(False)
    manager.set_image_width_cells(0.5)
    manager.set_editor_padding_x(9)
    manager.set_autocomplete_max_visible(1)
    assert read_json(path) == {
        "compaction": {"reserveTokens": 1000, "enabled": False},
        "retry": {"enabled": False},
        "terminal": {"showImages": False, "imageWidthCells": 1},
        "editorPaddingX": 3,
        "autocompleteMaxVisible": 3,
    }
    assert manager.get_compaction_settings().reserve_tokens == 1000
    assert manager.get_compaction_enabled() is False


def test_generic_set_and_unset(project: Path, agent: Path) -> None:
    manager = SettingsManager.create(project, str(agent))
    manager.set("myPlugin.level", 3)
    manager.set(("compaction", "keepRecentTokens"), 5000)
    assert manager.get_raw("myPlugin.level") == 3
    assert manager.get_raw("myPlugin.missing", "default") == "default"
    assert manager.settings.compaction.keep_recent_tokens == 5000
    manager.unset("myPlugin.level")
    assert read_json(agent / "settings.json") == {
        "myPlugin": {},
        "compaction": {"keepRecentTokens": 5000},
    }
    with pytest.raises(ValueError, match="invalid settings key"):
        manager.set("a..b", 1)


def test_project_scope_writes_create_the_folder(project: Path, agent: Path) -> None:
    manager = SettingsManager.create(project, str(agent))
    manager.set_skill_paths(["../skills"], scope="project")
    manager.set_blocked_plugins(["noisy"], scope="project")
    assert read_json(project / ".pi" / "settings.json") == {
        "skills": ["../skills"],
        "blockedPlugins": ["noisy"],
    }
    assert manager.get_blocked_plugins() == ["noisy"]
    assert not (agent / "settings.json").exists()
    assert sorted(os.listdir(project / ".pi")) == ["settings.json"]  # no temp or lock files left


def test_invalid_values_are_refused_before_writing(project: Path, agent: Path) -> None:
    path = write_json(agent / "settings.json", {"theme": "dark"})
    before = path.read_bytes()
    manager = SettingsManager.create(project, str(agent))
    with pytest.raises(ValueError, match="invalid value for steeringMode"):
        manager.set("steeringMode", "sometimes")
    with pytest.raises(ValueError, match=r"invalid value for compaction\.reserveTokens"):
        manager.set("compaction.reserveTokens", "lots")
    assert path.read_bytes() == before


def test_values_of_the_wrong_type_are_reported_and_ignored(project: Path, agent: Path) -> None:
    path = write_json(
        agent / "settings.json",
        {
            "steeringMode": "sometimes",
            "compaction": {"enabled": "maybe", "reserveTokens": 1000},
            "theme": "light",
        },
    )
    before = path.read_bytes()
    manager = SettingsManager.create(project, str(agent))
    assert manager.get_steering_mode() == "one-at-a-time"
    assert manager.get_compaction_enabled() is True  # only the bad nested key is ignored
    assert manager.get_compaction_settings().reserve_tokens == 1000
    assert manager.get_theme() == "light"
    messages = sorted(str(problem) for problem in manager.errors)
    assert len(messages) == 2 and all(m.startswith(f"{path}: ignoring ") for m in messages)
    assert {p.level for p in manager.errors} == {"warning"}
    manager.set_theme("dark")  # the file is usable: writes go through, bad values stay as written
    assert read_json(path)["steeringMode"] == "sometimes"
    assert before != path.read_bytes()


@pytest.mark.parametrize(
    ("text", "line", "column", "reason"),
    [
        ('{\n  "theme": "dark",\n  "defaultModel": \n}', 4, 1, "invalid JSON"),
        ('{\n  "theme": "dark",\n}\n', 3, 1, "invalid JSON"),
        ("{ invalid json", 1, 3, "invalid JSON"),
        ("[1, 2]", 1, 1, "settings must be a JSON object"),
    ],
)
def test_a_broken_file_is_reported_with_path_and_line_and_never_written(
    project: Path, agent: Path, text: str, line: int, column: int, reason: str
) -> None:
    path = agent / "settings.json"
    path.write_text(text, encoding="utf-8")
    mtime = path.stat().st_mtime_ns
    manager = SettingsManager.create(project, str(agent))
    [problem] = manager.errors
    assert (problem.scope, problem.path, problem.line, problem.column) == (
        "global",
        str(path),
        line,
        column,
    )
    assert str(problem).startswith(f"{path}:{line}:{column}: {reason}")
    error = manager.load_error("global")
    assert error is not None and error.line == line
    with pytest.raises(SettingsFileError) as caught:
        manager.set_theme("light")
    assert str(caught.value).startswith(f"{path}:{line}:{column}: refusing to change theme")
    assert "fix or remove it" in str(caught.value)
    assert path.read_text(encoding="utf-8") == text and path.stat().st_mtime_ns == mtime
    manager.set("theme", "light", scope="project")  # the other scope is still writable
    assert read_json(project / ".pi" / "settings.json") == {"theme": "light"}
    assert path.read_text(encoding="utf-8") == text


def test_a_file_broken_after_loading_is_not_written(project: Path, agent: Path) -> None:
    path = write_json(agent / "settings.json", {"theme": "dark"})
    manager = SettingsManager.create(project, str(agent))
    path.write_text('{"theme": "dark",', encoding="utf-8")
    with pytest.raises(SettingsFileError, match=r"settings\.json:1:18: invalid JSON"):
        manager.set_theme("light")
    assert path.read_text(encoding="utf-8") == '{"theme": "dark",'
    with pytest.raises(SettingsFileError, match="refusing"):
        manager.set_quiet_startup(True)
    assert manager.get_theme() == "dark"


def test_reload_keeps_the_last_good_values(project: Path, agent: Path) -> None:
    path = write_json(agent / "settings.json", {"theme": "dark", "extensions": ["/before.py"]})
    manager = SettingsManager.create(project, str(agent))
    write_json(path, {"theme": "light", "extensions": ["/after.py"], "defaultModel": "m"})
    manager.reload()
    assert (manager.get_theme(), manager.get_extension_paths()) == ("light", ["/after.py"])
    path.write_text("{ invalid json", encoding="utf-8")
    manager.reload()
    assert manager.get_theme() == "light" and manager.load_error("global") is not None
    write_json(path, {"theme": "dark"})
    manager.reload()
    assert manager.get_theme() == "dark" and manager.load_error("global") is None


def test_drain_errors(project: Path, agent: Path) -> None:
    (agent / "settings.json").write_text("{ invalid global json", encoding="utf-8")
    write_json(project / ".pi" / "settings.json", {})
    (project / ".pi" / "settings.json").write_text("{ invalid project", encoding="utf-8")
    manager = SettingsManager.create(project, str(agent))
    assert sorted(e.scope for e in manager.drain_errors()) == ["global", "project"]
    assert manager.drain_errors() == []


def test_unreadable_file_is_an_error(project: Path, agent: Path) -> None:
    (agent / "settings.json").mkdir()
    manager = SettingsManager.create(project, str(agent))
    assert manager.errors and "cannot read settings" in manager.errors[0].message


def test_overrides_are_never_written(project: Path, agent: Path) -> None:
    manager = SettingsManager.create(project, str(agent))
    manager.apply_overrides({"compaction": {"enabled": False}, "defaultModel": "cli"})
    assert manager.get_compaction_enabled() is False and manager.get_default_model() == "cli"
    assert not (agent / "settings.json").exists()
    with pytest.raises(ValueError):
        manager.apply_overrides({"steeringMode": "nope"})


def test_legacy_shapes_are_migrated(project: Path, agent: Path) -> None:
    path = write_json(
        agent / "settings.json",
        {
            "queueMode": "all",
            "websockets": True,
            "skills": {"enableSkillCommands": False, "customDirectories": ["~/old"]},
            "retry": {"maxDelayMs": 5000},
        },
    )
    manager = SettingsManager.create(project, str(agent))
    assert manager.get_steering_mode() == "all"
    assert manager.get_transport() == "websocket"
    assert manager.get_skill_paths() == ["~/old"]
    assert manager.get_enable_skill_commands() is False
    assert manager.get_provider_retry_settings().max_retry_delay_ms == 5000
    manager.set_theme("dark")  # like pi, a write stores the migrated shape
    assert read_json(path) == {
        "steeringMode": "all",
        "transport": "websocket",
        "skills": ["~/old"],
        "retry": {"provider": {"maxRetryDelayMs": 5000}},
        "enableSkillCommands": False,
        "theme": "dark",
    }
    assert migrate_settings({"skills": {"customDirectories": []}}) == {}


def test_in_memory_manager() -> None:
    manager = SettingsManager.in_memory({"theme": "dark"}, {"theme": "light"})
    assert manager.get_theme() == "light"
    manager.set_default_model_and_provider("anthropic", "claude")
    assert manager.get_global_settings() == {
        "theme": "dark",
        "defaultProvider": "anthropic",
        "defaultModel": "claude",
    }
    assert manager.get_project_settings() == {"theme": "light"}
    assert isinstance(manager.settings, Settings)


def test_settings_serialize_with_pis_names() -> None:
    wire = Settings(default_model="m").to_wire()
    assert wire["defaultModel"] == "m"
    assert wire["compaction"] == {
        "enabled": True,
        "reserveTokens": 16384,
        "keepRecentTokens": 20000,
    }
    assert wire["retry"]["provider"]["maxRetryDelayMs"] == 60000
    assert Settings.model_validate(
        {"branchSummary": {"skipPrompt": True}}
    ).branch_summary.skip_prompt


WRITER = """
import sys
from pi_core.resources.settings import SettingsManager
manager = SettingsManager.create(sys.argv[1], sys.argv[2])
for i in range(int(sys.argv[4])):
    manager.set(f"{sys.argv[3]}-{i}", i)
"""


def test_concurrent_writers_lose_nothing(project: Path, agent: Path) -> None:
    write_json(agent / "settings.json", {"keep": True})
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, str(project), str(agent), f"w{n}", "15"])
        for n in range(4)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0]
    data = read_json(agent / "settings.json")
    assert data["keep"] is True
    assert {k for k in data if k != "keep"} == {f"w{n}-{i}" for n in range(4) for i in range(15)}
    assert sorted(os.listdir(agent)) == ["settings.json"]


def test_pis_lock_folder_is_respected(project: Path, agent: Path) -> None:
    manager = SettingsManager.create(project, str(agent))
    lock = agent / "settings.json.lock"
    lock.mkdir()
    tried_the_lock = watch_mkdir(lock)
    writer = threading.Thread(target=manager.set_theme, args=("dark",))
    writer.start()
    assert tried_the_lock.wait(30)  # the writer found pi's lock taken
    assert not (agent / "settings.json").exists()  # and has not written past it
    lock.rmdir()
    writer.join(30)
    assert not writer.is_alive()  # the write went ahead once pi's lock was released
    assert read_json(agent / "settings.json") == {"theme": "dark"}
    assert not lock.exists()


def watch_mkdir(path: Path) -> threading.Event:
    """An event set the first time this process calls os.mkdir(path), seen through an audit hook.

    Audit hooks cannot be removed: this one stops looking once it has fired.
    """
    called = threading.Event()

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "os.mkdir" and not called.is_set() and os.fspath(args[0]) == str(path):
            called.set()

    sys.addaudithook(hook)
    return called


def test_a_stale_pi_lock_is_taken_over(project: Path, agent: Path) -> None:
    lock = agent / "settings.json.lock"
    lock.mkdir()
    old = time.time() - 60
    os.utime(lock, (old, old))
    SettingsManager.create(project, str(agent)).set_theme("dark")
    assert read_json(agent / "settings.json") == {"theme": "dark"} and not lock.exists()
