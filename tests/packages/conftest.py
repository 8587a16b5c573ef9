"""A pi package on disk, a loopback npm registry, and an environment for npm and git offline."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.conftest import Cli, cli  # noqa: F401  (the fixture, reused here)
from tests.packages.npm_registry import NpmRegistry

REVIEW = "PACKAGE-REVIEW-TEMPLATE: review this change line by line."


def make_package(root: Path, name: str = "pi-review-kit", *, extension: bool = False) -> Path:
    """Write a pi package: a prompt template, a skill, a theme, maybe a TypeScript extension."""
    root.mkdir(parents=True)
    manifest = {"name": name, "version": "1.0.0", "keywords": ["pi-package"]}
    (root / "package.json").write_text(json.dumps(manifest))
    (root / "prompts").mkdir()
    (root / "prompts" / "review.md").write_text(f"---\ndescription: Review\n---\n{REVIEW}\n")
    skill = root / "skills" / "kit-skill"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: kit-skill\ndescription: Kit skill.\n---\nBody\n")
    if extension:
        (root / "extensions").mkdir()
        (root / "extensions" / "guard.ts").write_text("export default function (pi) {}\n")
    return root


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[NpmRegistry]:
    work = tmp_path / "registry"
    work.mkdir()
    server = NpmRegistry(work)
    yield server
    server.close()


@pytest.fixture
def npm_cli(cli: Cli, registry: NpmRegistry, tmp_path: Path) -> Cli:  # noqa: F811
    """The `cli` fixture with npm pointed at the loopback registry and a private global prefix,
    and git rewriting https://example.test/ to local bare repositories."""
    repos = tmp_path / "repos"
    repos.mkdir()
    cli.env.update(
        {
            "npm_config_registry": registry.url,
            "npm_config_prefix": str(tmp_path / "npm-global"),
            "npm_config_cache": str(tmp_path / "npm-cache"),
            "npm_config_audit": "false",
            "npm_config_fund": "false",
            "npm_config_update_notifier": "false",
            "GIT_CONFIG_COUNT": "1",
            "GIT_CONFIG_KEY_0": f"url.{repos.as_uri()}/.insteadOf",
            "GIT_CONFIG_VALUE_0": "https://example.test/",
            "GIT_TERMINAL_PROMPT": "0",
        }
    )
    return cli


def bare_repo(package: Path, repos: Path, path: str) -> Path:
    """Commit `package` into a bare repository at `repos/path`; return it."""

    def git(*args: str, cwd: Path = package) -> None:
        subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)

    git("init", "-q", "-b", "main")
    git("add", ".")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "package")
    target = repos / path
    target.parent.mkdir(parents=True, exist_ok=True)
    git("clone", "-q", "--bare", str(package), str(target), cwd=repos)
    return target
