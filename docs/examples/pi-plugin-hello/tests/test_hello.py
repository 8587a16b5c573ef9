"""Tests on pi_core.testing: the plugin loaded in-process, then pi itself against a fake model."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pi_plugin_hello

from pi_core import PluginManager
from pi_core.testing import FakeLLMServer, chat_models_json, chat_stream, execute_tool_call


async def test_greet_runs_as_the_agent_loop_runs_it(tmp_path: Path) -> None:
    manager = PluginManager(tmp_path, agent_dir=tmp_path)
    manager.register_inline(pi_plugin_hello, "hello")
    greet = manager.registry.tools["greet"].tool

    outcome = await execute_tool_call(
        greet, "call-1", {"name": "Ada", "times": "2"}, None, None, manager.ctx
    )
    assert outcome.result.text_content() == "Hello, Ada!\nHello, Ada!"

    outcome = await execute_tool_call(greet, "call-2", {"style": "loud"}, None, None, manager.ctx)
    assert outcome.is_error  # the model is told what was wrong; greet never ran


def test_pi_offers_greet_and_sends_its_answer_back(tmp_path: Path) -> None:
    with FakeLLMServer() as server:
        (tmp_path / "models.json").write_text(json.dumps(chat_models_json(server.base_url)))
        server.queue(
            chat_stream(tool_calls=[("greet", {"name": "Ada", "style": "pirate"})]),
            chat_stream("Greeted."),
        )
        env = {**os.environ, "PI_CODING_AGENT_DIR": str(tmp_path)}
        result = subprocess.run(
            [sys.executable, "-m", "pi_core", "--model", "fake/fake-model", "--shout", "-p", "hi"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == "Greeted."
        first, second = (request.json() for request in server.requests)
        assert "greet" in [tool["function"]["name"] for tool in first["tools"]]
        answers = [message for message in second["messages"] if message["role"] == "tool"]
        assert [answer["content"] for answer in answers] == ["AHOY, ADA!"]
