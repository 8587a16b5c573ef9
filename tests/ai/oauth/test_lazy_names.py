"""`pi_core.ai.oauth` imports each name's module on first use: loading the plugins that register
logins leaves the login flows' server (`http.server`) unimported until a login listens."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pi_core.ai.oauth as oauth

CHECK = """
import sys
import pi_plugin_anthropic, pi_plugin_openai, pi_plugin_github_copilot
flows = ("http.server", "socketserver", "pi_core.ai.oauth.refresh")
print(sorted(m for m in flows if m in sys.modules))
from pi_core.ai.oauth import CallbackServer
print(CallbackServer.__module__, "http.server" in sys.modules)
"""


def test_registering_logins_does_not_import_the_callback_server() -> None:
    result = subprocess.run(
        [sys.executable, "-c", CHECK], capture_output=True, text=True, check=True
    )
    assert result.stdout.splitlines() == ["[]", "pi_core.ai.oauth.callback_server False"]


def test_every_exported_name_resolves_to_its_module() -> None:
    assert sorted(oauth.__all__) == sorted(oauth._EXPORTS)
    for name, module in oauth._EXPORTS.items():
        assert getattr(oauth, name) is getattr(importlib.import_module(module), name)
