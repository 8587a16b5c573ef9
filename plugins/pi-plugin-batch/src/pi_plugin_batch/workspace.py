"""Each attempt's own working copy: a git worktree at `ref`, a copy of `workdir`, or in place."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from pi_plugin_batch.tasks import Task


class WorkspaceError(Exception):
    """The working copy could not be made (an infrastructure failure)."""


@dataclass(frozen=True)
class Workspace:
    """A working copy and how it was made."""

    path: Path
    kind: str  # "worktree", "copy" or "in-place"
    repo: Path | None = None

    def patch(self) -> str:
        """Return `git diff` of everything changed in the copy (new files included), or ""."""
        if not (self.path / ".git").exists():
            return ""
        if self.kind == "in-place":  # never touch the user's own index
            return _git(self.path, "diff", "--binary", "HEAD")
        _git(self.path, "add", "-A")
        return _git(self.path, "diff", "--cached", "--binary", "HEAD")

    def remove(self) -> None:
        """Delete the copy (a worktree is unregistered from its repository)."""
        if self.kind == "worktree" and self.repo is not None:
            subprocess.run(
                ["git", "-C", str(self.repo), "worktree", "remove", "--force", str(self.path)],
                capture_output=True,
            )
        if self.kind != "in-place":
            shutil.rmtree(self.path, ignore_errors=True)
        if self.kind == "worktree" and self.repo is not None:
            subprocess.run(["git", "-C", str(self.repo), "worktree", "prune"], capture_output=True)


def prepare(task: Task, base: Path, target: Path, in_place: bool) -> Workspace:
    """Make the working copy for one attempt of `task` at `target`."""
    if target.exists():
        shutil.rmtree(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        if task.repo is not None:
            repo = (base / task.repo).resolve()
            _git(repo, "worktree", "prune")
            _git(repo, "worktree", "add", "--detach", str(target), task.ref or "HEAD")
            return Workspace(target, "worktree", repo)
        if task.workdir is not None:
            source = (base / task.workdir).resolve()
            if in_place:
                return Workspace(source, "in-place")
            shutil.copytree(source, target, symlinks=True)
            return Workspace(target, "copy")
    except (OSError, subprocess.CalledProcessError) as error:
        raise WorkspaceError(str(error)) from error
    target.mkdir()
    return Workspace(target, "copy")


def prune_stale(work_root: Path, repos: set[Path]) -> list[Path]:
    """Remove working copies a killed driver left behind; return what was removed."""
    removed = []
    if work_root.is_dir():
        for path in sorted(work_root.iterdir()):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    for repo in repos:
        subprocess.run(["git", "-C", str(repo), "worktree", "prune"], capture_output=True)
    return removed


def _git(cwd: Path, *args: str) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise subprocess.CalledProcessError(
            result.returncode, ["git", *args], result.stdout, result.stderr
        )
    return result.stdout
