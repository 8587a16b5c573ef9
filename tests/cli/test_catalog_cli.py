"""The catalog from the command line: `--list-models --all`, and a model whose API has no plugin."""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.testing import chat_error, chat_stream
from tests.cli.conftest import Cli

PI = json.loads((Path(__file__).parents[1] / "ai" / "fixtures" / "pi-catalog.json").read_text())


def test_list_models_all_lists_every_model_with_key_and_api_columns(cli: Cli) -> None:
    # pi-plugin-google blocked: Google's APIs stand for an API whose plugin is not installed
    result = cli.run("--block-plugin", "google", "--list-models", "--all", timeout=120)
    assert result.returncode == 0, result.stderr
    header, *rows = result.stdout.splitlines()
    assert header.split() == ["provider", "model", "context", "max-out", "thinking", "images",
                              "key", "api"]  # fmt: skip
    listed = {(row.split()[0], row.split()[1]) for row in rows}
    for provider, ids in PI["providers"].items():
        assert {(provider, model_id) for model_id in ids} <= listed, provider
    assert ("fake", "fake-model") in listed  # models.json's own provider too
    by_key = {(row.split()[0], row.split()[1]): row for row in rows}
    gemini = by_key[("google", "gemini-2.5-pro")].split()
    assert gemini[6:] == ["no", "google-generative-ai", "(needs", "pi-plugin-google)"]
    assert by_key[("anthropic", "claude-opus-4-7")].split()[6:] == ["no", "anthropic-messages"]
    assert by_key[("fake", "fake-model")].split()[6:] == ["yes", "openai-completions"]


def test_list_models_all_with_a_search(cli: Cli) -> None:
    result = cli.run("--list-models", "gemini-2.5-pro", "--all", timeout=120)
    assert result.returncode == 0, result.stderr
    providers = {row.split()[0] for row in result.stdout.splitlines()[1:]}
    assert {"google", "google-vertex", "openrouter"} <= providers


def test_list_models_all_before_the_search(cli: Cli) -> None:
    """`--all` between the flag and its search word still searches."""
    result = cli.run("--list-models", "--all", "codestral", timeout=120)
    assert result.returncode == 0, result.stderr
    rows = result.stdout.splitlines()[1:]
    assert rows and all("codestral" in row for row in rows)


def test_a_model_whose_api_has_no_plugin_fails_naming_the_api(cli: Cli) -> None:
    cli.env["GEMINI_API_KEY"] = "k"
    result = cli.run("--block-plugin", "google", "-p", "--model", "google/gemini-2.5-pro", "hi")
    assert result.returncode == 1
    assert "google/gemini-2.5-pro needs a plugin for the google-generative-ai API" in result.stderr
    assert "Install pi-plugin-google to use it." in result.stderr
    assert cli.server.requests == []


def _cloudflare_through_the_fake(cli: Cli) -> None:
    """Point cloudflare-workers-ai at the fake server, keeping a placeholder in the URL."""
    models = json.loads((cli.agent_dir / "models.json").read_text())
    url = f"{cli.server.base_url.rsplit('/v1', 1)[0]}/{{CLOUDFLARE_ACCOUNT_ID}}/ai/v1"
    models["providers"]["cloudflare-workers-ai"] = {"baseUrl": url}
    (cli.agent_dir / "models.json").write_text(json.dumps(models))
    cli.env["CLOUDFLARE_API_KEY"] = "cf-key"


def test_base_url_placeholders_are_filled_from_the_environment(cli: Cli) -> None:
    _cloudflare_through_the_fake(cli)
    cli.env["CLOUDFLARE_ACCOUNT_ID"] = "acct-42"
    cli.server.queue(chat_stream("from cloudflare"))
    model = "cloudflare-workers-ai/@cf/moonshotai/kimi-k2.6"
    result = cli.run("-p", "--model", model, "hi")
    assert result.returncode == 0, result.stderr
    assert "from cloudflare" in result.stdout
    request = cli.server.requests[0]
    assert request.path == "/acct-42/ai/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer cf-key"


def test_an_unset_placeholder_variable_is_named(cli: Cli) -> None:
    _cloudflare_through_the_fake(cli)
    cli.env.pop("CLOUDFLARE_ACCOUNT_ID", None)
    result = cli.run("-p", "--model", "cloudflare-workers-ai/@cf/moonshotai/kimi-k2.6", "hi")
    assert result.returncode == 1
    assert (
        "CLOUDFLARE_ACCOUNT_ID is required for provider cloudflare-workers-ai but is not set."
        in result.stderr
    )
    assert cli.server.requests == []


def test_provider_alone_starts_on_its_default_model(cli: Cli) -> None:
    models = json.loads((cli.agent_dir / "models.json").read_text())
    models["providers"]["anthropic"] = {"baseUrl": cli.server.base_url.rsplit("/v1", 1)[0]}
    (cli.agent_dir / "models.json").write_text(json.dumps(models))
    cli.env["ANTHROPIC_API_KEY"] = "sk-ant-test"
    cli.server.queue(chat_error(400, "not an Anthropic answer: only the request matters"))
    cli.run("-p", "--provider", "anthropic", "hi")
    request = cli.server.requests[0]
    assert request.path == "/v1/messages"
    assert request.json()["model"] == "claude-opus-4-7"  # pi's default, not the first listed
