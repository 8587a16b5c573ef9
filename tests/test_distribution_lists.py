"""Every first-party distribution is listed wherever a user or a release looks for it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = sorted(
    path.name for path in (ROOT / "plugins").iterdir() if (path / "pyproject.toml").is_file()
)


def test_there_are_plugins_to_check() -> None:
    assert "pi-plugin-tools" in PLUGINS and len(PLUGINS) >= 10


def test_the_release_guide_lists_every_distribution() -> None:
    text = (ROOT / "docs" / "releasing.md").read_text()
    missing = [name for name in PLUGINS if f"| `{name}` | `plugins/{name}` |" not in text]
    assert not missing, f"docs/releasing.md's table lacks {missing}"


def test_the_readme_lists_every_plugin() -> None:
    text = (ROOT / "README.md").read_text()
    missing = [name for name in PLUGINS if f"[`{name}`](" not in text]
    assert not missing, f"README.md's plugin table lacks {missing}"


def test_the_dev_requirements_install_every_plugin() -> None:
    lines = (ROOT / "requirements-dev.txt").read_text().splitlines()
    installed = {line.split()[-1].split("[")[0].removeprefix("./plugins/") for line in lines
                 if line.startswith("-e ./plugins/")}  # fmt: skip
    assert installed == set(PLUGINS)
