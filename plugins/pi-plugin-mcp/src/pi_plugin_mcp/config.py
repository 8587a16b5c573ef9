"""`mcpServers` from pi's settings and `.mcp.json`, in the format Claude Code and editors use."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

Transport = Literal["stdio", "http", "sse"]

DEFAULT_STARTUP_TIMEOUT = 30.0
DEFAULT_TOOL_TIMEOUT = 600.0
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")
_TRANSPORTS: dict[str, Transport] = {
    "stdio": "stdio",
    "http": "http",
    "streamable-http": "http",
    "streamableHttp": "http",
    "sse": "sse",
}


_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
MAX_NAME = 64


def tool_name(server: str, tool: str) -> str:
    """Return the pi name of a server's tool (or prompt), as Claude Code spells it:
    `mcp__server__tool`, other characters than letters, digits, `_` and `-` made `_`."""
    return f"mcp__{_UNSAFE.sub('_', server)}__{_UNSAFE.sub('_', tool)}"[:MAX_NAME]


class ConfigError(ValueError):
    """One server's entry cannot be used; the message names the server and the file."""


@dataclass(frozen=True)
class ServerConfig:
    """How to reach one MCP server."""

    name: str
    transport: Transport
    source: str
    command: str = ""
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    url: str = ""
    headers: Mapping[str, str] = field(default_factory=dict)
    startup_timeout: float = DEFAULT_STARTUP_TIMEOUT
    tool_timeout: float = DEFAULT_TOOL_TIMEOUT

    def describe(self) -> str:
        """Return the command line or URL, for listings."""
        if self.transport == "stdio":
            return " ".join([self.command, *self.args])
        return f"{self.url} ({self.transport})"


def expand(value: str, environ: Mapping[str, str]) -> str:
    """Expand `${VAR}` and `${VAR:-default}`; an unset variable without a default is an error."""

    def substitute(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        found = environ.get(name)
        if found:
            return found
        if default is not None:
            return default
        if name in environ:
            return ""
        raise KeyError(name)

    return _VAR.sub(substitute, value)


def _timeout(raw: Any, env_name: str, default: float) -> float:
    """Milliseconds from the entry, else from the environment variable, as seconds."""
    value = raw if raw is not None else os.environ.get(env_name)
    try:
        return float(value) / 1000 if value is not None else default
    except (TypeError, ValueError):
        return default


def parse_server(
    name: str, raw: Any, source: str, environ: Mapping[str, str] | None = None
) -> ServerConfig:
    """Validate and expand one `mcpServers` entry."""
    env = os.environ if environ is None else environ
    where = f"MCP server {name!r} in {source}"
    if not isinstance(raw, dict):
        raise ConfigError(f"{where}: expected an object, got {type(raw).__name__}")
    kind = raw.get("type") or raw.get("transport")
    if kind is None:
        kind = "stdio" if "command" in raw else "http" if "url" in raw else None
    transport = _TRANSPORTS.get(kind) if isinstance(kind, str) else None
    if transport is None:
        raise ConfigError(
            f"{where}: needs `command` (stdio) or `url` (http, sse); type {kind!r} is unknown"
        )

    def text(value: Any, key: str) -> str:
        if not isinstance(value, str):
            raise ConfigError(f"{where}: `{key}` must be a string")
        try:
            return expand(value, env)
        except KeyError as missing:
            raise ConfigError(
                f"{where}: environment variable {missing.args[0]} is not set "
                f"(use ${{{missing.args[0]}:-default}} for a default)"
            ) from None

    def table(key: str) -> dict[str, str]:
        value = raw.get(key) or {}
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: `{key}` must be an object of strings")
        return {str(k): text(v, f"{key}.{k}") for k, v in value.items()}

    startup_timeout = _timeout(raw.get("startupTimeout"), "MCP_TIMEOUT", DEFAULT_STARTUP_TIMEOUT)
    tool_timeout = _timeout(raw.get("timeout"), "MCP_TOOL_TIMEOUT", DEFAULT_TOOL_TIMEOUT)
    if transport == "stdio":
        if not raw.get("command"):
            raise ConfigError(f"{where}: a stdio server needs `command`")
        args = raw.get("args") or []
        if not isinstance(args, list):
            raise ConfigError(f"{where}: `args` must be a list of strings")
        cwd = raw.get("cwd")
        return ServerConfig(
            name=name,
            transport="stdio",
            source=source,
            command=text(raw["command"], "command"),
            args=tuple(text(arg, "args") for arg in args),
            env=table("env"),
            cwd=text(cwd, "cwd") if cwd else None,
            startup_timeout=startup_timeout,
            tool_timeout=tool_timeout,
        )
    if not raw.get("url"):
        raise ConfigError(f"{where}: a {transport} server needs `url`")
    return ServerConfig(
        name=name,
        transport=transport,
        source=source,
        url=text(raw["url"], "url"),
        headers=table("headers"),
        startup_timeout=startup_timeout,
        tool_timeout=tool_timeout,
    )


def read_json(path: Path) -> dict[str, Any] | None:
    """Read a JSON object file; None when it is absent. Raises ConfigError when malformed."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as error:
        raise ConfigError(f"{path}: cannot be read: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ConfigError(f"{path}:{error.lineno}:{error.colno}: {error.msg}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a JSON object")
    return data


def config_files(cwd: Path, agent_dir: Path) -> list[Path]:
    """The files `mcpServers` is read from, lowest precedence first."""
    return [agent_dir / "settings.json", cwd / ".mcp.json", cwd / ".pi" / "settings.json"]


@dataclass
class LoadedConfig:
    """The servers by name (a later file wins a name) and the problems met on the way."""

    servers: dict[str, ServerConfig] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


EXTRA_CONFIG_ENV = "PI_MCP_CONFIG"
"""Extra `mcpServers` documents, read after the files: a JSON array whose items are each a
path to a JSON file or an inline JSON object (what Claude Code's `--mcp-config` takes)."""


def load_config(files: Iterable[Path], environ: Mapping[str, str] | None = None) -> LoadedConfig:
    """Read `mcpServers` from each file, then from `$PI_MCP_CONFIG`; a bad file or entry is a
    problem, never a crash."""
    env = os.environ if environ is None else environ
    loaded = LoadedConfig()
    for path in files:
        try:
            data = read_json(path)
        except ConfigError as error:
            loaded.problems.append(str(error))
            continue
        if data is not None:
            _add_servers(loaded, data, str(path), environ)
    for source, data in _extra_documents(env.get(EXTRA_CONFIG_ENV), loaded):
        _add_servers(loaded, data, source, environ)
    return loaded


def _extra_documents(raw: str | None, loaded: LoadedConfig) -> list[tuple[str, dict[str, Any]]]:
    """The documents `$PI_MCP_CONFIG` names, each with where it came from."""
    if not raw:
        return []
    try:
        items = json.loads(raw)
    except json.JSONDecodeError as error:
        loaded.problems.append(f"${EXTRA_CONFIG_ENV}: not a JSON array ({error.msg})")
        return []
    if not isinstance(items, list):
        items = [items]
    documents: list[tuple[str, dict[str, Any]]] = []
    for index, item in enumerate(items, 1):
        source = f"${EXTRA_CONFIG_ENV}[{index}]"
        if isinstance(item, dict):
            documents.append((source, item))
            continue
        text = str(item).strip()
        if text.startswith("{"):
            try:
                parsed = json.loads(text)
            except json.JSONDecodeError as error:
                loaded.problems.append(f"{source}: {error.msg} at column {error.colno}")
                continue
            if isinstance(parsed, dict):
                documents.append((source, parsed))
            else:
                loaded.problems.append(f"{source}: expected a JSON object")
            continue
        path = Path(text).expanduser()
        try:
            data = read_json(path)
        except ConfigError as error:
            loaded.problems.append(str(error))
            continue
        if data is None:
            loaded.problems.append(f"{source}: {path} does not exist")
        else:
            documents.append((str(path), data))
    return documents


def _add_servers(
    loaded: LoadedConfig, data: dict[str, Any], source: str, environ: Mapping[str, str] | None
) -> None:
    servers = data.get("mcpServers")
    if servers is None:
        return
    if not isinstance(servers, dict):
        loaded.problems.append(f"{source}: `mcpServers` must be an object")
        return
    for name, raw in servers.items():
        try:
            loaded.servers[name] = parse_server(name, raw, source, environ)
        except ConfigError as error:
            loaded.servers.pop(name, None)
            loaded.problems.append(str(error))
