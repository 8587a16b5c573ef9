"""What a `packages` entry names (npm, git or a local path) and where pi keeps it installed."""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

Scope = Literal["global", "project"]
_GIT_PROTOCOLS = re.compile(r"^(https?|ssh|git)://", re.IGNORECASE)


@dataclass(frozen=True)
class PackageSource:
    """One parsed source: `kind` npm / git / local, and what locates it."""

    text: str
    kind: Literal["npm", "git", "local"]
    name: str = ""
    spec: str = ""
    repo: str = ""
    host: str = ""
    path: str = ""
    ref: str | None = None
    pinned: bool = False

    @property
    def identity(self) -> str:
        """Return what makes two entries the same package (name, repository or path)."""
        if self.kind == "npm":
            return f"npm:{self.name}"
        if self.kind == "git":
            return f"git:{self.host}/{self.path}"
        return f"local:{self.path}"


def is_package_source(text: str) -> bool:
    """Tell whether `pi install TEXT` names a pi package rather than a Python distribution."""
    return text.startswith(("npm:", "git:")) or bool(_GIT_PROTOCOLS.match(text))


def parse_source(text: str, base_dir: str | os.PathLike[str] = ".") -> PackageSource:
    """Parse a `packages` entry; relative paths resolve against `base_dir`."""
    if text.startswith("npm:"):
        spec = text[4:].strip()
        name, version = _split_npm(spec)
        return PackageSource(text, "npm", name=name, spec=spec, pinned=bool(version))
    git = _parse_git(text)
    if git is not None:
        return git
    path = os.path.abspath(os.path.join(os.fspath(base_dir), os.path.expanduser(text)))
    return PackageSource(text, "local", path=path)


def _split_npm(spec: str) -> tuple[str, str | None]:
    at = spec.find("@", 1)
    return (spec, None) if at < 0 else (spec[:at], spec[at + 1 :])


def _parse_git(text: str) -> PackageSource | None:
    prefixed = text.startswith("git:")
    url = text[4:].strip() if prefixed else text.strip()
    if not prefixed and not _GIT_PROTOCOLS.match(url):
        return None
    ref: str | None = None
    scp = re.match(r"^git@([^:]+):(.+)$", url)
    if scp:
        host, path = scp.group(1), scp.group(2)
        if "@" in path:
            path, ref = path.split("@", 1)
        repo = f"git@{host}:{path}"
    elif "://" in url:
        parts = urlsplit(url)
        host, path = parts.hostname or "", parts.path.lstrip("/")
        if "@" in path:
            path, ref = path.split("@", 1)
        repo = parts._replace(path=f"/{path}").geturl()
    else:
        host, _, path = url.partition("/")
        if "@" in path:
            path, ref = path.split("@", 1)
        if "." not in host and host != "localhost":
            return None
        repo = f"https://{host}/{path}"
    path = path.removesuffix(".git").strip("/")
    if not host or len(path.split("/")) < 2:
        return None
    return PackageSource(text, "git", repo=repo, host=host, path=path, ref=ref, pinned=bool(ref))


@cache
def global_npm_root() -> str:
    """Return where `npm install -g` puts packages (`npm root -g`), asked once per process."""
    out = subprocess.run(["npm", "root", "-g"], capture_output=True, text=True, check=False)
    return out.stdout.strip()


def install_path(source: PackageSource, scope: Scope, cwd: Path, agent_dir: Path) -> Path:
    """Return the folder a package is (or will be) installed in, where pi 0.73.1 puts it."""
    if source.kind == "local":
        return Path(source.path)
    if source.kind == "npm":
        if scope == "project":
            return cwd / ".pi" / "npm" / "node_modules" / source.name
        return Path(global_npm_root()) / source.name
    root = cwd / ".pi" if scope == "project" else agent_dir
    return root / "git" / source.host / source.path
