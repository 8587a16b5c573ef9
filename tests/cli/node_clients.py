"""The Node.js ACP clients the tests drive, as tests/node installs them (`npm install` there).

tests/node/package.json pins acpx, pi-acp and the npm package `node` (a Node.js binary recent
enough for acpx); `.ci/run` installs them. The `node_clients` fixture finds them, or skips the
test saying how to install them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1] / "node"
MODULES = PROJECT / "node_modules"
INSTALL = f"run `npm install --no-save` in {PROJECT} (.ci/run does)"


@dataclass(frozen=True)
class NodeClients:
    """Where the pinned Node.js and the ACP clients are."""

    bin_dir: Path
    node: Path
    acpx: Path
    pi_acp: Path

    def env(self, base: dict[str, str]) -> dict[str, str]:
        """`base` with this Node.js first on PATH (acpx starts with `#!/usr/bin/env node`)."""
        return {**base, "PATH": f"{self.bin_dir}{os.pathsep}{base.get('PATH', '')}"}


def find_node_clients() -> NodeClients | str:
    """The installed clients, or why they cannot be used."""
    bin_dir = MODULES / ".bin"
    clients = NodeClients(
        bin_dir=bin_dir,
        node=bin_dir / "node",
        acpx=bin_dir / "acpx",
        pi_acp=MODULES / "pi-acp" / "dist" / "index.js",
    )
    for path in (clients.node, clients.acpx, clients.pi_acp):
        if not path.exists():
            return f"{path.relative_to(PROJECT)} is missing: {INSTALL}"
    return clients


@pytest.fixture(scope="session")
def node_clients() -> NodeClients:
    """The pinned Node.js, acpx and pi-acp; the test is skipped when they are not installed."""
    found = find_node_clients()
    if isinstance(found, str):
        pytest.skip(found)
    return found
