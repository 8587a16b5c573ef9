"""`/share`: the exported page as a secret GitHub gist, through the `gh` command."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pi_core.agent_session.session import AgentSession

DEFAULT_VIEWER_URL = "https://pi.dev/session/"
NOT_INSTALLED = "GitHub CLI (gh) is not installed. Install it from https://cli.github.com/"
NOT_LOGGED_IN = "GitHub CLI is not logged in. Run 'gh auth login' first."


class ShareError(Exception):
    """Sharing failed; the message is what the user sees."""


@dataclass
class SharedSession:
    """Where the shared session can be seen."""

    share_url: str
    gist_url: str


def viewer_url(gist_id: str) -> str:
    """The viewer address of a gist (`PI_SHARE_VIEWER_URL` overrides pi's viewer)."""
    return (os.environ.get("PI_SHARE_VIEWER_URL") or DEFAULT_VIEWER_URL) + "#" + gist_id


async def _run(*args: str) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        stdin=asyncio.subprocess.DEVNULL,
    )
    try:
        out, err = await process.communicate()
    except asyncio.CancelledError:
        if process.returncode is None:
            process.kill()
        raise
    return process.returncode or 0, out.decode(errors="replace"), err.decode(errors="replace")


async def share_session(session: AgentSession) -> SharedSession:
    """Export the session and upload it with `gh gist create --public=false`."""
    from pi_core.export import ExportError
    from pi_core.export.live import export_agent_session

    gh = shutil.which("gh")
    if gh is None:
        raise ShareError(NOT_INSTALLED)
    code, _, _ = await _run(gh, "auth", "status")
    if code != 0:
        raise ShareError(NOT_LOGGED_IN)
    folder = Path(tempfile.mkdtemp(prefix="pi-share-"))
    page = folder / "session.html"
    try:
        try:
            await asyncio.to_thread(export_agent_session, session, page)
        except ExportError as error:
            raise ShareError(f"Failed to export session: {error}") from None
        code, out, err = await _run(gh, "gist", "create", "--public=false", str(page))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if code != 0:
        raise ShareError(f"Failed to create gist: {err.strip() or 'Unknown error'}")
    gist_url = out.strip().splitlines()[-1].strip() if out.strip() else ""
    gist_id = gist_url.rstrip("/").rsplit("/", 1)[-1]
    if not gist_id:
        raise ShareError("Failed to parse gist ID from gh output")
    return SharedSession(viewer_url(gist_id), gist_url)
