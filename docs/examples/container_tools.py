"""Run the built-in tools inside a container: `PI_CONTAINER=dev pi -e container_tools.py`.

Every read, write, edit, ls, find, grep and bash call becomes a `docker exec` (or `podman exec`,
with `PI_CONTAINER_ENGINE=podman`) in the running container named by `PI_CONTAINER`. Paths are
used unchanged, so mount the project at the same path inside the container
(`docker run -v "$PWD:$PWD" ...`). The container needs a POSIX shell, `cat`, `ls`, `find` and
`grep`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Sequence

from pi_core import hookimpl
from pi_core.abort import AbortSignal
from pi_core.tools import BashExecResult, GrepHit, GrepQuery, ToolOperations

_KIND = 'if [ -d "$1" ]; then exit 0; elif [ -e "$1" ]; then exit 1; else exit 2; fi'
_ACCESS = '[ -d "$1" ] && exit 21; [ -e "$1" ] || exit 2; [ -r "$1" ] || exit 13; [ -z "$2" ] || [ -w "$1" ] || exit 13'  # noqa: E501


class Container:
    """One running container, reached through its engine's `exec`."""

    def __init__(self, name: str, engine: str = "docker") -> None:
        self.name = name
        self.engine = engine

    async def run(self, argv: Sequence[str], data: bytes | None = None) -> tuple[int, bytes]:
        """Run `argv` in the container; return its exit code and stdout."""
        stdin = asyncio.subprocess.PIPE if data is not None else asyncio.subprocess.DEVNULL
        process = await asyncio.create_subprocess_exec(
            self.engine, "exec", "-i", self.name, *argv,
            stdin=stdin, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip
        out, _ = await process.communicate(data)
        return process.returncode or 0, out

    async def _check(self, path: str, writable: bool) -> None:
        code, _ = await self.run(["sh", "-c", _ACCESS, "sh", path, "w" if writable else ""])
        if code == 2:
            raise FileNotFoundError(2, "No such file or directory", path)
        if code == 21:
            raise IsADirectoryError(21, "Is a directory", path)
        if code == 13:
            raise PermissionError(13, "Permission denied", path)

    # read, edit
    async def access(self, path: str) -> None:
        """Raise unless `path` is a readable file."""
        await self._check(path, writable=False)

    async def read_file(self, path: str) -> bytes:
        """Return the file's bytes."""
        code, out = await self.run(["cat", "--", path])
        if code != 0:
            raise FileNotFoundError(2, "No such file or directory", path)
        return out

    # write, edit
    async def write_file(self, path: str, content: bytes) -> None:
        """Replace the file's contents."""
        code, _ = await self.run(["sh", "-c", 'cat > "$1"', "sh", path], content)
        if code != 0:
            raise PermissionError(13, "Permission denied", path)

    async def mkdir(self, path: str) -> None:
        """Create the folder and its parents."""
        await self.run(["mkdir", "-p", "--", path])

    # ls, find, grep
    async def is_directory(self, path: str) -> bool:
        """Whether `path` is a folder (FileNotFoundError if it is nothing)."""
        code, _ = await self.run(["sh", "-c", _KIND, "sh", path])
        if code == 2:
            raise FileNotFoundError(2, "No such file or directory", path)
        return code == 0

    async def readdir(self, path: str) -> list[str]:
        """The names in a folder."""
        code, out = await self.run(["ls", "-A1", "--", path])
        if code != 0:
            raise PermissionError(13, "Permission denied", path)
        return [name for name in out.decode().split("\n") if name]

    async def glob(self, pattern: str, cwd: str, *, limit: int) -> list[str]:
        """Files under `cwd` whose name (or path, for a pattern with `/`) matches."""
        test = ["-path", f"*/{pattern}"] if "/" in pattern else ["-name", pattern]
        argv = ["find", cwd, "-name", ".git", "-prune", "-o", "-type", "f", *test, "-print"]
        _, out = await self.run(argv)
        prefix = cwd.rstrip("/") + "/"
        found = sorted(line.removeprefix(prefix) for line in out.decode().split("\n") if line)
        return found[: limit + 1]

    async def search(self, query: GrepQuery) -> list[GrepHit]:
        """Matching lines, by `grep -rn` in the container."""
        argv = ["grep", "-rnH", "--exclude-dir=.git", "-F" if query.literal else "-E"]
        argv += ["-i"] if query.ignore_case else []
        argv += [f"--include={query.glob}"] if query.glob else []
        _, out = await self.run([*argv, "-e", query.pattern, "--", query.path])
        hits: list[GrepHit] = []
        for row in out.decode("utf-8", "replace").split("\n"):
            path, _, rest = row.partition(":")
            number, _, line = rest.partition(":")
            if number.isdigit():
                hits.append(GrepHit(path, int(number), line))
            if len(hits) > query.limit:
                break
        return sorted(hits, key=lambda hit: (hit.path, hit.line_number))

    async def read_text(self, path: str) -> str:
        """The file's text (grep's context lines)."""
        return (await self.read_file(path)).decode("utf-8", "replace")

    # bash
    async def exec(
        self,
        command: str,
        cwd: str,
        *,
        on_data: Callable[[bytes], None],
        signal: AbortSignal | None = None,
        timeout: float | None = None,
        env: dict[str, str] | None = None,
    ) -> BashExecResult:
        """Run `command` with `sh -c` in `cwd`, streaming its output; variables a spawn hook
        added are passed, the rest of this machine's environment is not."""
        added = {k: v for k, v in (env or {}).items() if os.environ.get(k) != v}
        flags = [arg for k, v in added.items() for arg in ("-e", f"{k}={v}")]
        process = await asyncio.create_subprocess_exec(
            self.engine, "exec", "-i", "-w", cwd, *flags, self.name, "sh", "-c", command,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        assert process.stdout is not None
        stream = process.stdout

        async def pump() -> int:
            while chunk := await stream.read(65536):
                on_data(chunk)
            return await process.wait()

        task = asyncio.ensure_future(pump())

        def stop() -> None:
            task.cancel()

        remove = signal.add_listener(stop) if signal is not None else None
        try:
            return BashExecResult(await asyncio.wait_for(task, timeout))
        except TimeoutError:
            process.kill()
            return BashExecResult(None, stopped="timeout")
        except asyncio.CancelledError:
            process.kill()
            if signal is not None and signal.aborted:
                return BashExecResult(None, stopped="aborted")
            raise
        finally:
            if remove is not None:
                remove()


class _GrepView:
    """grep reads context lines as text; everything else comes from the container."""

    def __init__(self, container: Container) -> None:
        self.container = container

    async def is_directory(self, path: str) -> bool:
        """Whether `path` is a folder."""
        return await self.container.is_directory(path)

    async def search(self, query: GrepQuery) -> list[GrepHit]:
        """Matching lines."""
        return await self.container.search(query)

    async def read_file(self, path: str) -> str:
        """The file's text."""
        return await self.container.read_text(path)


def container_operations(name: str, engine: str = "docker") -> ToolOperations:
    """Every built-in tool's operations, in the container `name`."""
    box = Container(name, engine)
    return ToolOperations(
        read=box, write=box, edit=box, ls=box, find=box, grep=_GrepView(box), bash=box
    )


@hookimpl
def register_tool_operations(register: Callable[..., None]) -> None:
    name = os.environ.get("PI_CONTAINER")
    if name:
        register(container_operations(name, os.environ.get("PI_CONTAINER_ENGINE", "docker")))
