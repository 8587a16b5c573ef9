"""What a Ray worker needs from the driver's disk, packed as bytes and unpacked on its node."""

from __future__ import annotations

import io
import os
import stat
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from pi_plugin_batch.agentdir import OWN_FILES
from pi_plugin_batch.tasks import Task

# Provider credentials and endpoints the driver's children would have read from its environment.
FORWARDED_SUFFIXES = ("_API_KEY", "_AUTH_TOKEN", "_BASE_URL")


@dataclass(frozen=True)
class Source:
    """One file or folder a task refers to: where it goes on the node, and how it is packed."""

    path: str  # the driver's absolute path, recreated under the worker's scratch root
    kind: str  # "file", "tar" (a folder) or "bundle" (a git repository, all refs)
    data: bytes


@dataclass(frozen=True)
class Payload:
    """A task's sources and the driver's agent folder, ready to travel to a worker."""

    task_base: str
    sources: list[Source] = field(default_factory=list)
    agent: bytes = b""


def forwarded_env(environ: dict[str, str]) -> dict[str, str]:
    """The driver's provider keys and endpoints, which a worker's environment lacks."""
    return {k: v for k, v in environ.items() if k.endswith(FORWARDED_SUFFIXES)}


def resolve_prompt(task: Task, base: Path) -> Task:
    """The task with its `prompt_file` read on the driver, so the file need not travel."""
    if task.prompt_file is None:
        return task
    return task.model_copy(update={"prompt": task.prompt_text(base), "prompt_file": None})


def task_sources(task: Task, base: Path) -> list[tuple[str, str]]:
    """(absolute path, kind) of every file or folder the task's run reads."""
    found = []
    if task.repo is not None:
        found.append((_join(base, task.repo), "bundle"))
    if task.workdir is not None:
        found.append((_join(base, task.workdir), "tar"))
    found += [(_join(base, plugin), "tar") for plugin in task.plugins]
    return found


def pack(path: str, kind: str) -> Source:
    """Pack one source: the file's bytes, a tar of the folder, or a git bundle of every ref."""
    if kind == "bundle":
        with tempfile.TemporaryDirectory() as scratch:
            bundle = Path(scratch) / "repo.bundle"
            subprocess.run(
                ["git", "-C", path, "bundle", "create", str(bundle), "--all"],
                check=True, capture_output=True,
            )  # fmt: skip
            return Source(path, kind, bundle.read_bytes())
    real = Path(path).resolve()
    if real.is_file():
        return Source(path, "file", real.read_bytes())
    return Source(path, kind, tar_bytes(real))


def pack_agent(user_dir: Path) -> bytes:
    """The user's agent folder (models, auth, extensions …) without its sessions and settings."""
    buffer = io.BytesIO()
    # Links are followed: what they point at is on the driver's disk only.
    with tarfile.open(fileobj=buffer, mode="w:gz", dereference=True) as archive:
        if user_dir.is_dir():
            for entry in sorted(user_dir.iterdir()):
                if entry.name not in OWN_FILES - {"settings.json"}:
                    archive.add(entry, arcname=entry.name)
    return buffer.getvalue()


def tar_bytes(path: Path) -> bytes:
    """A gzipped tar of `path` under the name `.`."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        archive.add(path, arcname=".")
    return buffer.getvalue()


def local_path(root: Path, driver_path: str) -> Path:
    """Where the driver's absolute `driver_path` lives under the worker's scratch `root`."""
    return root / driver_path.lstrip(os.sep)


def unpack(payload: Payload, root: Path, agent_dir: Path) -> Path:
    """Recreate the sources under `root` and the agent folder; return the task base there."""
    for source in payload.sources:
        target = local_path(root, source.path)
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.kind == "bundle":
            bundle = root / ".bundle"
            bundle.write_bytes(source.data)
            subprocess.run(
                ["git", "clone", "--quiet", "--mirror", str(bundle), str(target)],
                check=True, capture_output=True,
            )  # fmt: skip
            bundle.unlink()
        elif source.kind == "file":
            target.write_bytes(source.data)
        else:
            extract_tar(source.data, target)
    agent_dir.mkdir(parents=True, exist_ok=True)
    extract_tar(payload.agent, agent_dir)
    base = local_path(root, payload.task_base)
    base.mkdir(parents=True, exist_ok=True)
    return base


def localise(task: Task, base: Path, root: Path) -> Task:
    """The task with absolute source paths pointed into `root` (relative ones already are)."""

    def moved(path: str) -> str:
        if not os.path.isabs(path):
            return path
        return os.path.relpath(local_path(root, os.path.normpath(path)), base)

    update: dict[str, object] = {}
    if task.repo is not None:
        update["repo"] = moved(task.repo)
    if task.workdir is not None:
        update["workdir"] = moved(task.workdir)
    update["plugins"] = [moved(plugin) for plugin in task.plugins]
    return task.model_copy(update=update)


def _join(base: Path, path: str) -> str:
    """`base / path` made absolute and normalised without following links (as on the node)."""
    return os.path.normpath(os.path.join(base, path))


def extract_tar(data: bytes, target: Path) -> None:
    """Unpack a gzipped tar made by `tar_bytes` into `target`, refusing members outside it."""
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as archive:
        if hasattr(tarfile, "tar_filter"):
            archive.extractall(target, filter="tar")
            return
        # Python 3.11.0-3.11.3 (Debian 12's 3.11.2) has no extraction filters: refuse what the
        # "tar" filter refuses (a member outside `target`), and drop the same mode bits.
        for member in archive.getmembers():
            if not _inside(target, member.name):
                raise tarfile.TarError(f"{member.name!r} would be written outside {target}")
            member.mode &= ~(
                stat.S_ISUID | stat.S_ISGID | stat.S_ISVTX | stat.S_IWGRP | stat.S_IWOTH
            )
        archive.extractall(target)


def _inside(target: Path, name: str) -> bool:
    """Whether archive member `name` lands inside `target` (links in `name` not followed)."""
    root = os.path.normpath(target.resolve())
    where = os.path.normpath(os.path.join(root, name.lstrip("/")))
    return where == root or where.startswith(root + os.sep)
