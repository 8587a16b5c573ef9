"""pi packages from npm (a loopback registry), git (a local bare repository behind an https
URL) and a folder: `pi install` records them as pi 0.73.1 does, their prompt templates and
skills reach the model, their TypeScript extensions fail closed, and remove / list / update
cover them."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli
from tests.packages.conftest import REVIEW, bare_repo, make_package
from tests.packages.npm_registry import NpmRegistry


def settings(cli: Cli, scope: str = "global") -> dict[str, object]:
    """Read a scope's settings.json."""
    folder = cli.agent_dir if scope == "global" else cli.cwd / ".pi"
    data: dict[str, object] = json.loads((folder / "settings.json").read_text())
    return data


def ask_review(cli: Cli) -> str:
    """Run `pi -p /review` and return the user message the model received."""
    cli.server.queue(chat_stream("reviewed"))
    result = cli.run("-p", "/review")
    assert result.returncode == 0, result.stderr
    body = cli.server.requests[-1].json()
    user = [m for m in body["messages"] if m["role"] == "user"][-1]
    content = user["content"]
    return content if isinstance(content, str) else "".join(p["text"] for p in content)


def system_prompt(cli: Cli) -> str:
    """Return the system message of the last request."""
    body = cli.server.requests[-1].json()
    return str(body["messages"][0]["content"])


def test_npm_package_installs_globally_and_its_prompt_reaches_the_model(
    npm_cli: Cli, registry: NpmRegistry, tmp_path: Path
) -> None:
    registry.add(make_package(tmp_path / "src" / "pi-review-kit"))
    result = npm_cli.run("install", "npm:pi-review-kit")
    assert result.returncode == 0, result.stderr
    installed = tmp_path / "npm-global" / "lib" / "node_modules" / "pi-review-kit"
    assert (installed / "prompts" / "review.md").is_file()
    assert settings(npm_cli)["packages"] == ["npm:pi-review-kit"]

    assert REVIEW in ask_review(npm_cli)
    assert "kit-skill" in system_prompt(npm_cli)


def test_npm_package_installed_with_l_goes_under_pi_npm(
    npm_cli: Cli, registry: NpmRegistry, tmp_path: Path
) -> None:
    registry.add(make_package(tmp_path / "src" / "pi-review-kit"))
    result = npm_cli.run("install", "-l", "npm:pi-review-kit@1.0.0")
    assert result.returncode == 0, result.stderr
    root = npm_cli.cwd / ".pi" / "npm"
    assert (root / "node_modules" / "pi-review-kit" / "prompts" / "review.md").is_file()
    assert json.loads((root / "package.json").read_text())["name"] == "pi-extensions"
    assert settings(npm_cli, "project")["packages"] == ["npm:pi-review-kit@1.0.0"]
    assert REVIEW in ask_review(npm_cli)

    listed = npm_cli.run("list")
    assert "npm:pi-review-kit@1.0.0  [project]" in listed.stdout

    removed = npm_cli.run("remove", "-l", "npm:pi-review-kit")
    assert removed.returncode == 0, removed.stderr
    assert settings(npm_cli, "project")["packages"] == []
    assert not (root / "node_modules" / "pi-review-kit").exists()


def test_git_package_is_cloned_under_the_agent_dir(npm_cli: Cli, tmp_path: Path) -> None:
    bare_repo(make_package(tmp_path / "src" / "kit"), tmp_path / "repos", "team/kit")
    result = npm_cli.run("install", "git:example.test/team/kit")
    assert result.returncode == 0, result.stderr
    clone = npm_cli.agent_dir / "git" / "example.test" / "team" / "kit"
    assert (clone / "prompts" / "review.md").is_file()
    assert settings(npm_cli)["packages"] == ["git:example.test/team/kit"]
    assert REVIEW in ask_review(npm_cli)

    (tmp_path / "src" / "kit" / "prompts" / "review.md").write_text("UPDATED-REVIEW\n")
    bare = tmp_path / "repos" / "team" / "kit"
    work = tmp_path / "src" / "kit"
    for args in (["add", "."], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "2"]):
        subprocess.run(["git", *args], cwd=work, check=True)
    subprocess.run(["git", "push", "-q", str(bare), "main"], cwd=work, check=True)
    updated = npm_cli.run("update", "git:example.test/team/kit")
    assert updated.returncode == 0, updated.stderr
    assert "UPDATED-REVIEW" in ask_review(npm_cli)


def test_local_folder_is_recorded_relative_to_the_settings_folder(
    npm_cli: Cli, tmp_path: Path
) -> None:
    make_package(npm_cli.cwd / "kits" / "review")
    result = npm_cli.run("install", "-l", "./kits/review")
    assert result.returncode == 0, result.stderr
    assert settings(npm_cli, "project")["packages"] == ["../kits/review"]
    assert REVIEW in ask_review(npm_cli)


def test_the_packages_setting_with_a_filter_loads_only_what_it_names(
    npm_cli: Cli, tmp_path: Path
) -> None:
    kit = make_package(tmp_path / "kit")
    npm_cli.settings(
        defaultProvider="fake",
        defaultModel="fake-model",
        packages=[{"source": str(kit), "skills": []}],
    )
    assert REVIEW in ask_review(npm_cli)
    assert "kit-skill" not in system_prompt(npm_cli)


def test_a_package_extension_fails_closed_until_blocked(npm_cli: Cli, tmp_path: Path) -> None:
    kit = make_package(tmp_path / "kit", extension=True)
    base = {"defaultProvider": "fake", "defaultModel": "fake-model", "packages": [str(kit)]}
    npm_cli.settings(**base)
    stopped = npm_cli.run("-p", "/review")
    assert stopped.returncode == 1
    guard = kit / "extensions" / "guard.ts"
    assert f'Error: Failed to load extension "{guard}": TypeScript' in stopped.stderr
    assert "pi --block-plugin guard" in stopped.stderr
    assert npm_cli.server.requests == []

    npm_cli.settings(**base, blockedPlugins=["guard"])
    assert REVIEW in ask_review(npm_cli)

    npm_cli.settings(**base)
    npm_cli.server.queue(chat_stream("unguarded"))
    result = npm_cli.run("--no-extensions", "-p", "/review")
    assert result.returncode == 0, result.stderr


def test_a_recorded_package_that_is_not_installed_stops_start_up(npm_cli: Cli) -> None:
    npm_cli.settings(
        defaultProvider="fake", defaultModel="fake-model", packages=["npm:pi-not-here"]
    )
    result = npm_cli.run("-p", "hi")
    assert result.returncode == 1
    assert "pi package is not installed" in result.stderr
    assert "pi install npm:pi-not-here" in result.stderr
    assert npm_cli.server.requests == []


def test_the_user_message_matches_what_pi_sends(npm_cli: Cli, tmp_path: Path) -> None:
    """Recorded from pi 0.73.1 by fixtures/record_pi_package_prompt.py (same package, same run)."""
    kit = make_package(tmp_path / "kit")
    npm_cli.settings(defaultProvider="fake", defaultModel="fake-model", packages=[str(kit)])
    ask_review(npm_cli)
    body = npm_cli.server.requests[-1].json()
    users = [m for m in body["messages"] if m["role"] == "user"]
    expected = json.loads(
        (Path(__file__).parent / "fixtures" / "package-prompt.pi.json").read_text()
    )
    assert users == expected


def test_a_folder_with_only_conventional_folders_is_a_pi_package(npm_cli: Cli) -> None:
    kit = make_package(npm_cli.cwd / "kit")
    (kit / "package.json").unlink()
    result = npm_cli.run("install", "./kit")
    assert result.returncode == 0, result.stderr
    assert settings(npm_cli)["packages"] == [os.path.relpath(kit, npm_cli.agent_dir)]
    assert REVIEW in ask_review(npm_cli)
