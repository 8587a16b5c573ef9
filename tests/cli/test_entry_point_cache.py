"""The entry-point cache in a real `pi`: a run after the first finds the plugins from the cache,
and a distribution installed after that is still found and loaded, so a gate that fails to load
still stops start-up."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from pi_core.testing import chat_stream
from tests.cli.conftest import Cli
from tests.cli.test_plugin_failures import install_fake_distribution

HOUR_NS = 3600 * 1_000_000_000


def test_a_distribution_installed_after_the_cache_was_written_loads(
    cli: Cli, tmp_path: Path
) -> None:
    site = tmp_path / "site"
    site.mkdir()
    past = time.time_ns() - HOUR_NS
    os.utime(site, ns=(past, past))  # installed long before: the scan may be stored
    cli.env["PYTHONPATH"] = str(site)
    first = cli.run("plugins", "--json")
    assert first.returncode == 0, first.stderr
    cache = cli.agent_dir / "cache" / "entry-points.json"
    stored = json.loads(cache.read_text())
    assert len(stored["entries"]) == 1
    cli.server.queue(chat_stream("fine"))
    assert cli.run("-p", "hi").stdout == "fine\n"

    marker = tmp_path / "gate-imported"
    install_fake_distribution(site, marker)
    result = cli.run("-p", "hi")
    assert result.returncode == 1
    assert 'Failed to load plugin "gate" (pi-plugin-gate 1.0' in result.stderr
    assert marker.exists()
    assert len(cli.server.requests) == 1  # the second prompt never reached the model
