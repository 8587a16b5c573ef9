"""The entry-point cache: a hit skips the scan; installing, removing or editing a distribution
(a metadata folder on a `sys.path` folder) is seen on the next call."""

from __future__ import annotations

import importlib
import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from pi_core.plugins import entry_cache
from pi_core.plugins.sources import installed_sources
from pi_core.resources.entry_points import package_folders

HOUR_NS = 3600 * 1_000_000_000
TEST_DISTRIBUTIONS = {"pi_plugin_one", "pi_plugin_two", "pi_plugin_tres"}


def age(*paths: Path) -> None:
    """Date `paths` an hour back, as an install made before this run would be."""
    past = time.time_ns() - HOUR_NS
    for path in paths:
        os.utime(path, ns=(past, past))


def add_distribution(site: Path, name: str, entry_points: str) -> Path:
    """Write `<name>-1.0.dist-info` (METADATA, entry_points.txt) into `site`; return it."""
    info = site / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(entry_points)
    age(info / "METADATA", info / "entry_points.txt", info)
    return info


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An old-looking folder of distributions first on sys.path, holding `pi-plugin-one`."""
    root = tmp_path / "site"
    root.mkdir()
    add_distribution(root, "pi_plugin_one", "[pi]\none = pi_plugin_one\n")
    age(root)
    monkeypatch.syspath_prepend(str(root))
    importlib.invalidate_caches()
    return root


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[str | None]:
    """Count the calls into importlib.metadata's scan of every distribution."""
    calls: list[str | None] = []
    real = entry_cache.scan_entry_points

    def counted(**options: Any) -> Any:
        calls.append(options.get("group"))
        return real(**options)

    monkeypatch.setattr(entry_cache, "scan_entry_points", counted)
    return calls


def ours(group: str = "pi") -> list[tuple[str, str, str | None, str | None]]:
    """The test distributions' entry points of `group`: name, value, distribution, version."""
    return sorted(
        (ep.name, ep.value, ep.dist.name if ep.dist else None, ep.dist.version if ep.dist else None)
        for ep in entry_cache.entry_points(group)
        if ep.dist is not None and ep.dist.name in TEST_DISTRIBUTIONS
    )


def test_a_second_call_reads_the_cache_instead_of_scanning(
    site: Path, scans: list[str | None], isolated_agent_dir: Path
) -> None:
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    assert len(scans) == 1
    stored = json.loads((isolated_agent_dir / "cache" / "entry-points.json").read_text())
    assert stored["version"] == entry_cache.CACHE_VERSION
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    assert ours("pi.resources") == []
    assert len(scans) == 1  # both answered from the cache
    sources = [s for s in installed_sources() if s.name == "one"]
    assert [(s.distribution, s.version, s.describe()) for s in sources] == [
        ("pi_plugin_one", "1.0", "pi_plugin_one 1.0 (entry point pi_plugin_one)")
    ]
    assert len(scans) == 1


def test_installing_a_distribution_is_seen(site: Path, scans: list[str | None]) -> None:
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    add_distribution(site, "pi_plugin_two", "[pi]\ntwo = pi_plugin_two\n")
    assert ours() == [
        ("one", "pi_plugin_one", "pi_plugin_one", "1.0"),
        ("two", "pi_plugin_two", "pi_plugin_two", "1.0"),
    ]
    assert len(scans) == 2


def test_removing_a_distribution_is_seen(site: Path, scans: list[str | None]) -> None:
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    info = site / "pi_plugin_one-1.0.dist-info"
    for file in info.iterdir():
        file.unlink()
    info.rmdir()
    assert ours() == []


def test_an_entry_point_added_in_place_is_seen(site: Path, scans: list[str | None]) -> None:
    other = add_distribution(site, "pi_plugin_tres", "[console_scripts]\ntres = pi_plugin_tres\n")
    age(site)
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    assert len(scans) == 1
    (other / "entry_points.txt").write_text("[pi]\ntres = pi_plugin_tres\n")
    assert ours() == [
        ("one", "pi_plugin_one", "pi_plugin_one", "1.0"),
        ("tres", "pi_plugin_tres", "pi_plugin_tres", "1.0"),
    ]


def test_a_version_changed_in_place_is_seen(site: Path, scans: list[str | None]) -> None:
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    metadata = site / "pi_plugin_one-1.0.dist-info" / "METADATA"
    metadata.write_text("Metadata-Version: 2.1\nName: pi_plugin_one\nVersion: 1.1\n")
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.1")]
    assert len(scans) == 2


def test_a_scan_that_saw_a_fresh_change_is_not_stored(
    site: Path, scans: list[str | None], isolated_agent_dir: Path
) -> None:
    os.utime(site)  # now: a change in the same clock tick could follow unseen
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    assert len(scans) == 2
    assert not (isolated_agent_dir / "cache" / "entry-points.json").exists()


def test_the_environment_variable_turns_the_cache_off(
    site: Path, scans: list[str | None], isolated_agent_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(entry_cache.DISABLE_ENV, "1")
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    assert len(scans) == 2
    assert not (isolated_agent_dir / "cache").exists()


def test_a_broken_cache_file_is_scanned_over(
    site: Path, scans: list[str | None], isolated_agent_dir: Path
) -> None:
    (isolated_agent_dir / "cache").mkdir()
    (isolated_agent_dir / "cache" / "entry-points.json").write_text("{not json")
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    assert ours() == [("one", "pi_plugin_one", "pi_plugin_one", "1.0")]
    assert len(scans) == 1


def test_resources_of_a_cached_distribution_keep_its_name_and_blocking(
    site: Path, scans: list[str | None]
) -> None:
    package = site / "pi_plugin_tres" / "skills"
    package.mkdir(parents=True)
    (site / "pi_plugin_tres" / "__init__.py").write_text("")
    add_distribution(
        site, "pi_plugin_tres", "[pi.resources]\nskills = pi_plugin_tres.skills\n[pi]\nt = x\n"
    )
    age(site)
    importlib.invalidate_caches()
    for _ in range(2):
        found = [f for f in package_folders().folders if f.distribution == "pi_plugin_tres"]
        assert [(f.kind, f.folder) for f in found] == [("skills", str(package))]
        assert package_folders(blocked=["t"]).folders == [
            f for f in package_folders().folders if f.distribution != "pi_plugin_tres"
        ]
    assert len(scans) == 1
