"""install / remove / list / update with a fake pip: the commands run, what settings record, and
that bad input changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pi_core.install.errors import InstallError
from pi_core.install.runner import RunResult

GIT_URL = "git+https://example.invalid/owner/pi-plugin-git"


def plugin_project(root: Path, name: str = "pi-plugin-local") -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "pyproject.toml").write_text(f'[project]\nname = "{name}"\nversion = "0.1.0"\n')
    return folder


# --- install --------------------------------------------------------------------------------


def test_install_a_requirement_records_it_globally(harness, runner) -> None:
    runner.offer("pi-plugin-foo", "pi-plugin-foo", "1.2.0")
    recorded = harness.installer.install("pi-plugin-foo")

    assert recorded == "pi-plugin-foo"
    assert runner.calls == [harness.pip_install("pi-plugin-foo")]
    assert harness.settings("global") == {"plugins": ["pi-plugin-foo"]}
    assert not harness.settings_path("project").exists()
    assert any("Installed pi-plugin-foo 1.2.0" in line for line in harness.said)
    assert harness.warned == []


def test_install_keeps_every_other_key_and_never_touches_packages(harness, runner) -> None:
    original = {
        "packages": ["npm:pi-skills", {"source": "git:github.com/o/r", "skills": []}],
        "defaultModel": "claude",
        "compaction": {"enabled": False},
        "unknownKey": [1, 2],
        "plugins": ["pi-plugin-old"],
    }
    harness.settings_path().write_text(json.dumps(original, indent=2))
    runner.offer("pi-plugin-foo==1.2", "pi-plugin-foo", "1.2")

    harness.reload().installer.install("pi-plugin-foo==1.2")

    assert harness.settings() == {**original, "plugins": ["pi-plugin-old", "pi-plugin-foo==1.2"]}


def test_install_local_records_in_the_project(harness, runner, project: Path) -> None:
    harness.settings_path().write_text('{"theme": "dark"}')
    runner.offer("pi-plugin-foo", "pi-plugin-foo")

    harness.reload().installer.install("pi-plugin-foo", scope="project")

    assert harness.settings("project") == {"plugins": ["pi-plugin-foo"]}
    assert harness.settings("global") == {"theme": "dark"}


def test_reinstalling_replaces_the_record_in_place(harness, runner) -> None:
    harness.settings_path().write_text('{"plugins": ["a", "pi-plugin-foo", "b"]}')
    runner.offer("PI_Plugin_Foo>=2", "pi-plugin-foo", "2.0")

    harness.reload().installer.install("PI_Plugin_Foo>=2")

    assert harness.settings()["plugins"] == ["a", "PI_Plugin_Foo>=2", "b"]


def test_install_a_path_records_it_relative_to_the_settings_folder(
    harness, runner, project: Path
) -> None:
    folder = plugin_project(project / "plugins")
    runner.offer(str(folder), "pi-plugin-local")

    harness.installer.install("./plugins/pi-plugin-local", scope="project")
    harness.installer.install("./plugins/pi-plugin-local", scope="project")

    assert runner.calls == [harness.pip_install(str(folder))] * 2
    assert harness.settings("project") == {"plugins": ["../plugins/pi-plugin-local"]}


def test_install_editable(harness, runner, project: Path, isolated_agent_dir: Path) -> None:
    folder = plugin_project(project)
    runner.offer(str(folder), "pi-plugin-local")

    harness.installer.install(str(folder), editable=True)

    assert runner.calls == [harness.pip_install("-e", str(folder))]
    relative = Path("..") / folder.relative_to(isolated_agent_dir.parent)
    assert harness.settings()["plugins"] == [f"-e {relative.as_posix()}"]


def test_passthrough_arguments_go_before_the_target(harness, runner) -> None:
    runner.offer("pi-plugin-foo", "pi-plugin-foo")
    harness.installer.install("pi-plugin-foo", extra=["--no-index", "--find-links", "wheels"])
    assert runner.calls == [
        harness.pip_install("--no-index", "--find-links", "wheels", "pi-plugin-foo")
    ]


def test_a_bare_git_url_is_recorded_with_its_distribution_name(harness, runner) -> None:
    direct = {"url": GIT_URL[4:], "vcs_info": {"vcs": "git", "commit_id": "abc"}}
    runner.offer(GIT_URL, "pi-plugin-git", direct_url=direct)

    recorded = harness.installer.install(GIT_URL)

    assert recorded == f"pi-plugin-git @ {GIT_URL}"
    assert harness.settings()["plugins"] == [recorded]


def test_a_distribution_without_pi_entry_points_installs_with_a_warning(harness, runner) -> None:
    runner.offer("requests-like", "requests-like", entry_points={})

    harness.installer.install("requests-like")

    assert harness.settings()["plugins"] == ["requests-like"]
    assert any("declares no `pi` entry point" in w for w in harness.warned)
    assert any("pi will load nothing from it" in w for w in harness.warned)


def test_a_bare_name_that_is_also_a_folder_gets_a_note(harness, runner, project: Path) -> None:
    (project / "pi-plugin-foo").mkdir()
    runner.offer("pi-plugin-foo", "pi-plugin-foo")
    harness.installer.install("pi-plugin-foo")
    assert any("for the folder, use ./pi-plugin-foo" in w for w in harness.warned)


# --- install: bad input ---------------------------------------------------------------------


def test_pip_failure_shows_its_last_stderr_lines_and_records_nothing(harness, runner) -> None:
    harness.settings_path().write_text('{"plugins": ["kept"]}')
    before = harness.settings_path().read_bytes()
    stderr = "".join(f"line {n}\n" for n in range(1, 31)) + "ERROR: No matching distribution\n"
    runner.result = RunResult(1, stderr)

    with pytest.raises(InstallError) as caught:
        harness.reload().installer.install("pi-plugin-foo")

    message = str(caught.value)
    assert message.startswith("pip install failed (exit 1); its stderr (last 20 of 31):")
    assert "ERROR: No matching distribution" in message
    assert "line 12" in message and "line 11\n" not in message
    assert harness.settings_path().read_bytes() == before
    assert not harness.settings_path("project").exists()


def test_unknown_spec_runs_nothing(harness, runner) -> None:
    with pytest.raises(InstallError, match="npm package"):
        harness.installer.install("npm:pi-skills")
    with pytest.raises(InstallError, match="no such file or folder"):
        harness.installer.install("./does-not-exist")
    assert runner.calls == []
    assert not harness.settings_path().exists()


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", '{"plugins": "pi-plugin-foo"}'])
def test_an_unusable_settings_file_is_not_overwritten_and_nothing_is_installed(
    harness, runner, text: str
) -> None:
    harness.settings_path().write_text(text)
    runner.offer("pi-plugin-foo", "pi-plugin-foo")

    with pytest.raises(InstallError) as caught:
        harness.reload().installer.install("pi-plugin-foo")

    assert str(harness.settings_path()) in str(caught.value)
    assert "fix it first" in str(caught.value)
    assert harness.settings_path().read_text() == text
    assert runner.calls == []


def test_a_broken_project_file_does_not_stop_a_global_install(harness, runner) -> None:
    (harness.project / ".pi").mkdir()
    harness.settings_path("project").write_text("{oops")
    runner.offer("pi-plugin-foo", "pi-plugin-foo")
    harness.reload().installer.install("pi-plugin-foo")
    assert harness.settings()["plugins"] == ["pi-plugin-foo"]
    assert harness.settings_path("project").read_text() == "{oops"


# --- remove ---------------------------------------------------------------------------------


def test_remove_uninstalls_and_drops_the_record(harness, runner) -> None:
    harness.settings_path().write_text('{"packages": ["npm:x"], "plugins": ["pi-plugin-foo==1"]}')
    runner.preinstall("pi-plugin-foo", "1")

    harness.reload().installer.remove("pi-plugin-foo")

    assert runner.calls == [harness.pip_uninstall("pi-plugin-foo")]
    assert harness.settings() == {"packages": ["npm:x"], "plugins": []}


def test_remove_a_path_by_path_or_by_name(harness, runner, project: Path) -> None:
    folder = plugin_project(project / "plugins")
    runner.offer(str(folder), "pi-plugin-local")
    harness.installer.install("./plugins/pi-plugin-local", scope="project")
    harness.installer.remove("./plugins/pi-plugin-local", scope="project")
    assert runner.calls[-1] == harness.pip_uninstall("pi-plugin-local")
    assert harness.settings("project")["plugins"] == []

    harness.installer.install("./plugins/pi-plugin-local", scope="project")
    harness.installer.remove("pi-plugin-local", scope="project")
    assert harness.settings("project")["plugins"] == []


def test_remove_a_bare_git_install_found_by_its_direct_url(harness, runner) -> None:
    harness.settings_path().write_text(json.dumps({"plugins": [GIT_URL]}))
    direct = {"url": GIT_URL[4:] + ".git", "vcs_info": {"vcs": "git", "commit_id": "abc"}}
    runner.preinstall("pi-plugin-git", direct_url=direct)

    harness.reload().installer.remove("git+ssh://git@example.invalid/owner/pi-plugin-git")

    assert runner.calls == [harness.pip_uninstall("pi-plugin-git")]
    assert harness.settings()["plugins"] == []


def test_remove_a_recorded_plugin_that_is_not_installed(harness, runner) -> None:
    harness.settings_path().write_text('{"plugins": ["pi-plugin-gone"]}')
    harness.reload().installer.remove("pi-plugin-gone")
    assert runner.calls == []
    assert harness.settings()["plugins"] == []
    assert any("not installed; removing its record only" in w for w in harness.warned)


def test_remove_from_the_wrong_scope_says_where_it_is(harness, runner) -> None:
    (harness.project / ".pi").mkdir()
    harness.settings_path("project").write_text('{"plugins": ["pi-plugin-foo"]}')
    with pytest.raises(InstallError, match="recorded in project settings: run it with -l"):
        harness.reload().installer.remove("pi-plugin-foo")
    assert runner.calls == []


def test_remove_an_unrecorded_pi_plugin_uninstalls_it(harness, runner) -> None:
    runner.preinstall("pi-plugin-manual")
    harness.installer.remove("pi-plugin-manual")
    assert runner.calls == [harness.pip_uninstall("pi-plugin-manual")]
    assert not harness.settings_path().exists()


def test_remove_refuses_what_is_neither_recorded_nor_a_plugin(harness, runner) -> None:
    runner.preinstall("requests-like", entry_points={})
    with pytest.raises(InstallError, match="nor installed as a pi plugin"):
        harness.installer.remove("requests-like")
    with pytest.raises(InstallError, match="not recorded"):
        harness.installer.remove("pi-plugin-never-heard-of")
    assert runner.calls == []


def test_remove_refuses_pi_itself(harness, runner) -> None:
    harness.settings_path().write_text('{"plugins": ["pi-harness"]}')
    with pytest.raises(InstallError, match="that is pi itself"):
        harness.reload().installer.remove("pi-harness")
    assert runner.calls == []


def test_remove_with_pip_failure_keeps_the_record(harness, runner) -> None:
    harness.settings_path().write_text('{"plugins": ["pi-plugin-foo"]}')
    runner.preinstall("pi-plugin-foo")
    runner.result = RunResult(2, "ERROR: permission denied\n")
    with pytest.raises(InstallError, match="ERROR: permission denied"):
        harness.reload().installer.remove("pi-plugin-foo")
    assert harness.settings()["plugins"] == ["pi-plugin-foo"]


def test_remove_warns_when_the_other_scope_still_records_it(harness, runner) -> None:
    harness.settings_path().write_text('{"plugins": ["pi-plugin-foo"]}')
    (harness.project / ".pi").mkdir()
    harness.settings_path("project").write_text('{"plugins": ["pi-plugin-foo==1.0.0"]}')
    runner.preinstall("pi-plugin-foo")
    harness.reload().installer.remove("pi-plugin-foo")
    assert any("still recorded in" in w and "pi remove -l" in w for w in harness.warned)


def test_remove_with_a_broken_settings_file_changes_nothing(harness, runner) -> None:
    harness.settings_path().write_text('{"plugins": ["pi-plugin-foo"],')
    runner.preinstall("pi-plugin-foo")
    with pytest.raises(InstallError, match="fix it first"):
        harness.reload().installer.remove("pi-plugin-foo")
    assert runner.calls == []
    assert harness.settings_path().read_text() == '{"plugins": ["pi-plugin-foo"],'


# --- list -----------------------------------------------------------------------------------


def test_list_shows_both_scopes_versions_missing_and_unrecorded(harness, runner) -> None:
    harness.settings_path().write_text('{"plugins": ["pi-plugin-foo", "pi-plugin-gone", "npm:x"]}')
    (harness.project / ".pi").mkdir()
    harness.settings_path("project").write_text('{"plugins": ["pi-plugin-bar==2.0"]}')
    runner.preinstall("pi-plugin-foo", "1.5")
    runner.preinstall("pi-plugin-bar", "2.0", entry_points={})
    runner.preinstall("pi-plugin-extra", "0.3", entry_points={"x": "m", "y": "m"})

    listing = harness.reload().installer.listing()
    data = listing.as_dict()

    rows = {(r["scope"], r["spec"]): r for r in data["recorded"]}
    assert rows["global", "pi-plugin-foo"]["version"] == "1.5"
    assert rows["global", "pi-plugin-foo"]["status"] == "installed"
    assert rows["global", "pi-plugin-gone"]["status"] == "missing"
    assert rows["global", "pi-plugin-gone"]["install"] == "pi install pi-plugin-gone"
    assert rows["global", "npm:x"]["status"] == "invalid"
    assert rows["project", "pi-plugin-bar==2.0"]["entry_points"] == []
    unrecorded = {u["name"]: u for u in data["unrecorded"]}
    assert unrecorded["pi-plugin-extra"] == {
        "name": "pi-plugin-extra",
        "version": "0.3",
        "entry_points": ["x", "y"],
    }
    assert "pi-plugin-foo" not in unrecorded

    from pi_core.install.commands import format_listing

    text = format_listing(listing)
    assert f"User plugins ({harness.settings_path()}):" in text
    assert f"Project plugins ({harness.settings_path('project')}):" in text
    assert "pi-plugin-gone  missing; install it with: pi install pi-plugin-gone" in text
    assert "pi-plugin-bar 2.0 (no `pi` entry point" in text
    assert "Installed pi plugins not recorded in settings:" in text
    assert "  pi-plugin-extra 0.3  (x, y)" in text


def test_list_reports_a_broken_file_and_goes_on(harness, runner) -> None:
    harness.settings_path().write_text("{broken")
    (harness.project / ".pi").mkdir()
    harness.settings_path("project").write_text('{"plugins": ["pi-plugin-foo"]}')
    listing = harness.reload().installer.listing()
    assert "invalid JSON" in listing.problems["global"]
    assert [r.text for r in listing.recorded] == ["pi-plugin-foo"]
    assert harness.settings_path().read_text() == "{broken"


# --- update ---------------------------------------------------------------------------------


def test_update_upgrades_unpinned_and_skips_pinned_and_paths(harness, runner, project) -> None:
    folder = plugin_project(project)
    plugins = ["pi-plugin-foo", "pi-plugin-bar==1.0", str(folder), GIT_URL + "@v1"]
    harness.settings_path().write_text(json.dumps({"plugins": plugins}))
    (harness.project / ".pi").mkdir()
    harness.settings_path("project").write_text('{"plugins": ["pi-plugin-foo>=1"]}')
    runner.preinstall("pi-plugin-foo", "1.0")
    runner.offer("pi-plugin-foo", "pi-plugin-foo", "1.1")

    ok = harness.reload().installer.update()

    assert ok
    assert runner.calls == [
        [*harness.pip_install("--upgrade", "pi-plugin-foo")],
    ]
    said = "\n".join(harness.said)
    assert "Updated pi-plugin-foo 1.0 → 1.1" in said
    assert "Skipping pi-plugin-bar==1.0: pinned" in said
    assert f"Skipping {folder}: a local path" in said
    assert f"Skipping {GIT_URL}@v1: pinned" in said
    assert harness.settings()["plugins"] == plugins


def test_update_one_and_unknown(harness, runner) -> None:
    harness.settings_path().write_text('{"plugins": ["pi-plugin-foo", "pi-plugin-baz"]}')
    runner.preinstall("pi-plugin-foo", "1.0")
    runner.offer("pi-plugin-foo", "pi-plugin-foo", "1.0")
    assert harness.reload().installer.update("PI-PLUGIN-FOO")
    assert runner.calls == [harness.pip_install("--upgrade", "pi-plugin-foo")]
    assert "pi-plugin-foo 1.0 is up to date" in harness.said
    with pytest.raises(InstallError, match="not recorded in settings"):
        harness.installer.update("pi-plugin-other")


def test_update_goes_on_after_a_failure_and_reports_it(harness, runner) -> None:
    harness.settings_path().write_text('{"plugins": ["pi-plugin-bad", "pi-plugin-foo"]}')
    runner.offer("pi-plugin-foo", "pi-plugin-foo", "2.0")
    ok = harness.reload().installer.update()
    assert not ok
    assert len(runner.calls) == 2
    assert any("No matching distribution found for pi-plugin-bad" in w for w in harness.warned)
    assert "Updated pi-plugin-foo (not installed) → 2.0" in harness.said


def test_update_with_nothing_recorded(harness, runner) -> None:
    assert harness.installer.update()
    assert runner.calls == []
    assert harness.said == ["No plugins are recorded in settings; nothing to update"]
