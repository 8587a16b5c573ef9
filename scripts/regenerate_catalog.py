"""Regenerate pi_core/ai/catalog/ from pi's published `@mariozechner/pi-ai` package.

    python scripts/regenerate_catalog.py --version 0.73.1
    python scripts/regenerate_catalog.py --package /path/to/node_modules/@mariozechner/pi-ai

`--version` fetches the package with `npm pack`; `--package` takes an unpacked copy. Either way
node imports the package's `models.generated.js` and `env-api-keys.js` and this writes one JSON
file per provider (its models, exactly as pi has them) and `index.json` (per provider: the key
variables pi reads, the APIs of its models, how many there are), then rewrites the providers
table of docs/providers.md from the new index (`--docs-only` rewrites just that table, after a
plugin for another API lands in pi_core.ai.api_plugins). Needs node 18+.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Any

from pi_core.ai.api_plugins import API_PLUGINS

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "pi_core" / "ai" / "catalog"
DOCS = ROOT / "docs" / "providers.md"
TABLE_START = "<!-- providers table: scripts/regenerate_catalog.py writes it -->"
TABLE_END = "<!-- end of providers table -->"

# Credentials that are not one key variable (pi-ai's env-api-keys, by hand: they are code there).
CREDENTIALS = {
    "amazon-bedrock": "`AWS_PROFILE`, `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY`, "
    "`AWS_BEARER_TOKEN_BEDROCK`, `AWS_CONTAINER_CREDENTIALS_RELATIVE_URI` / `_FULL_URI`, "
    "`AWS_WEB_IDENTITY_TOKEN_FILE`",
    "google-vertex": "or application-default credentials (`GOOGLE_APPLICATION_CREDENTIALS`, else "
    "gcloud's file) with `GOOGLE_CLOUD_PROJECT` (or `GCLOUD_PROJECT`) and `GOOGLE_CLOUD_LOCATION`",
    "cloudflare-workers-ai": "and `CLOUDFLARE_ACCOUNT_ID` (base URL)",
    "cloudflare-ai-gateway": "and `CLOUDFLARE_ACCOUNT_ID`, `CLOUDFLARE_GATEWAY_ID` (base URL)",
}
LOGINS = {
    "anthropic": "pi-plugin-anthropic",
    "openai-codex": "pi-plugin-openai",
    "github-copilot": "pi-plugin-github-copilot",
}
"""The subscription logins pi offers, and the plugin that brings each here."""

# Run by node: the models, and the variables findEnvKeys tries for each provider (every name
# reads as set, so findEnvKeys returns the whole list, in pi's order of preference).
EXPORT = """
const root = process.argv[1];
const { MODELS } = await import(root + "/dist/models.generated.js");
const { findEnvKeys } = await import(root + "/dist/env-api-keys.js");
const pkg = JSON.parse((await import("node:fs")).readFileSync(root + "/package.json", "utf8"));
const realEnv = process.env;
process.env = new Proxy({}, { get: () => "set" });
const env = {};
for (const provider of Object.keys(MODELS)) env[provider] = findEnvKeys(provider) ?? [];
process.env = realEnv;
process.stdout.write(JSON.stringify({ version: pkg.version, models: MODELS, env }));
"""


def fetch_package(version: str, into: Path) -> Path:
    """Download `@mariozechner/pi-ai@version` with npm pack and unpack it under `into`."""
    spec = f"@mariozechner/pi-ai@{version}"
    command = ["npm", "pack", "--silent", spec, "--pack-destination", str(into)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    tarball = next(into.glob("*.tgz"))
    with tarfile.open(tarball) as archive:
        archive.extractall(into, filter="data")
    return into / "package"


def export(package: Path) -> dict[str, Any]:
    """Return pi-ai's version, its models by provider and each provider's key variables."""
    result = subprocess.run(
        ["node", "--input-type=module", "-e", EXPORT, str(package.resolve())],
        check=True,
        capture_output=True,
        text=True,
    )
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def provider_file(models: list[dict[str, Any]]) -> str:
    """One model per line, so a new release reads as a small diff."""
    lines = ",\n".join(json.dumps(model, ensure_ascii=False) for model in models)
    return f"[\n{lines}\n]\n"


def write_catalog(data: dict[str, Any], out: Path) -> None:
    """Replace the JSON files in `out` with the exported catalog."""
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("*.json"):
        old.unlink()
    index: dict[str, Any] = {}
    for provider, by_id in data["models"].items():
        models = list(by_id.values())
        (out / f"{provider}.json").write_text(provider_file(models), encoding="utf-8")
        apis = sorted({model["api"] for model in models})
        index[provider] = {"env": data["env"][provider], "apis": apis, "models": len(models)}
    rows = ",\n".join(f"  {json.dumps(name)}: {json.dumps(entry)}" for name, entry in index.items())
    version = json.dumps(data["version"])
    document = f'{{\n "piVersion": {version},\n "providers": {{\n{rows}\n }}\n}}\n'
    (out / "index.json").write_text(document, encoding="utf-8")


def providers_table(index: dict[str, Any]) -> str:
    """The markdown table of providers for docs/providers.md, from the catalog's index."""
    lines = [
        "| Provider | Models | API | Key variables | Login |",
        "|---|---|---|---|---|",
    ]
    for name, entry in index["providers"].items():
        apis = ", ".join(
            f"`{api}` ({API_PLUGINS[api]})" if api in API_PLUGINS else f"`{api}` (no plugin yet)"
            for api in entry["apis"]
        )
        keys = " or ".join(f"`{variable}`" for variable in entry["env"])
        extra = CREDENTIALS.get(name, "")
        credentials = f"{keys} {extra}".strip() or "— (subscription login only)"
        login = f"/login ({LOGINS[name]})" if name in LOGINS else "—"
        lines.append(f"| `{name}` | {entry['models']} | {apis} | {credentials} | {login} |")
    return "\n".join(lines) + "\n"


def write_docs_table(index: dict[str, Any], docs: Path) -> None:
    """Replace the table between the markers of docs/providers.md."""
    text = docs.read_text(encoding="utf-8")
    head, _, rest = text.partition(TABLE_START + "\n")
    _, _, tail = rest.partition(TABLE_END)
    docs.write_text(f"{head}{TABLE_START}\n{providers_table(index)}{TABLE_END}{tail}", "utf-8")


def main() -> None:
    """Parse the arguments, export the package's catalog and write it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--version", help="a pi-ai version to fetch with npm pack")
    source.add_argument("--package", type=Path, help="an unpacked pi-ai package folder")
    source.add_argument(
        "--docs-only",
        action="store_true",
        help="only rewrite docs/providers.md's table from the catalog in the tree",
    )
    parser.add_argument("--out", type=Path, default=OUT, help="where to write")
    args = parser.parse_args()
    if args.docs_only:
        write_docs_table(json.loads((OUT / "index.json").read_text(encoding="utf-8")), DOCS)
        return
    with tempfile.TemporaryDirectory() as tmp:
        package = args.package or fetch_package(args.version, Path(tmp))
        data = export(package)
    write_catalog(data, args.out)
    if args.out == OUT:
        write_docs_table(json.loads((OUT / "index.json").read_text(encoding="utf-8")), DOCS)
    total = sum(len(models) for models in data["models"].values())
    print(f"pi-ai {data['version']}: {len(data['models'])} providers, {total} models -> {args.out}",
          file=sys.stderr)  # fmt: skip


if __name__ == "__main__":
    main()
