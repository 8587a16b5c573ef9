"""The Ray backend: each attempt runs as a Ray task on a cluster node; the driver keeps the rest."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import subprocess
import time
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

from pi_plugin_batch import replay
from pi_plugin_batch.child import ChildOutcome
from pi_plugin_batch.ray_payload import (
    Payload,
    forwarded_env,
    pack,
    pack_agent,
    resolve_prompt,
    task_sources,
)
from pi_plugin_batch.ray_worker import NodeResult, attempt_with_relay
from pi_plugin_batch.runner import (
    AttemptResult,
    AttemptSpec,
    EventSink,
    attempt_record,
    error_result,
)

DEFAULT_CPUS = 0.25  # an agent mostly waits on its model: four attempts share one CPU
POLL_S = 0.25
CONNECT_TIMEOUT_S = 10.0


class RayUnavailable(Exception):
    """`--ray` was given but Ray is not installed, or its cluster cannot be reached."""


def import_ray() -> ModuleType:
    """Import ray, or say which extra to install."""
    try:
        import ray
    except ImportError as error:
        raise RayUnavailable(
            "--ray needs Ray: install the extra with pip install 'pi-plugin-batch[ray]'"
        ) from error
    return ray


def check_reachable(address: str) -> None:
    """Refuse at once a `HOST:PORT` nobody answers on (Ray itself would wait for minutes)."""
    host, _, port = address.rpartition(":")
    if "://" in address or not host or not port.isdigit():
        return  # `auto`, a `ray://` client address: Ray finds or refuses them itself
    try:
        socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_S).close()
    except OSError as error:
        raise RayUnavailable(f"cannot reach the Ray cluster at {address}: {error}") from error


class EventRelay:
    """A Ray actor holding the workers' progress events until the driver collects them."""

    def __init__(self) -> None:
        self._events: list[tuple[str, dict[str, Any]]] = []

    def put(self, task_id: str, event: dict[str, Any]) -> None:
        """A worker's event."""
        self._events.append((task_id, event))

    def drain(self) -> list[tuple[str, dict[str, Any]]]:
        """Every event since the last drain."""
        events, self._events = self._events, []
        return events


class RayRunner:
    """Runs each attempt as a Ray task with `cpus` CPUs; files come back to the driver's OUT."""

    def __init__(self, address: str, cpus: float = DEFAULT_CPUS) -> None:
        self._ray = ray = import_ray()
        check_reachable(address)
        try:
            ray.init(
                address=address, logging_level=logging.WARNING, log_to_driver=False,
                configure_logging=False,
            )  # fmt: skip
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise RayUnavailable(f"cannot reach the Ray cluster at {address}: {error}") from error
        self._cpus = cpus
        self._task = ray.remote(num_cpus=cpus, max_retries=0)(attempt_with_relay)
        self._relay = ray.remote(num_cpus=0)(EventRelay).remote()
        self._env = forwarded_env(dict(os.environ))
        self._payloads: dict[tuple[tuple[str, str], ...], Any] = {}
        self._agent: bytes | None = None
        self._pack_lock = asyncio.Lock()
        self._sinks: dict[str, EventSink] = {}
        self._poller: asyncio.Task[None] | None = None
        self._running: set[Any] = set()  # the Ray tasks not yet returned

    async def run(self, spec: AttemptSpec, on_event: EventSink) -> AttemptResult:
        """Send the attempt to the cluster, wait for it, write its files into OUT."""
        started_at = datetime.now(UTC).isoformat()
        start = time.monotonic()
        unreplayable = replay.missing_recording(spec.name, spec.replay_from)
        if unreplayable is not None:  # judged here, as the local pool does: nothing to send
            record = attempt_record(spec, unreplayable, ChildOutcome(), started_at, start)
            return AttemptResult(record, unreplayable)
        try:
            payload = await self._payload(spec)
        except (OSError, subprocess.SubprocessError, ValueError) as error:  # cannot be packed
            return error_result(spec, f"packing the task's files: {error}", started_at, start)
        remote = replace(
            spec,
            task=resolve_prompt(spec.task, spec.task_base),
            extra_env={**self._env, **spec.extra_env},
        )
        self._sinks[spec.name] = on_event
        try:
            return await self._remote_run(spec, remote, payload, started_at, start)
        finally:
            self._sinks.pop(spec.name, None)

    async def _remote_run(
        self, spec: AttemptSpec, remote: AttemptSpec, payload: Any, started_at: str, start: float
    ) -> AttemptResult:
        self._ensure_poller()
        recording = None
        if spec.replay_from is not None:  # the attempt's own recording travels with it
            recording = replay.recording_path(spec.replay_from, spec.name).read_bytes()
        ref = self._task.remote(remote, payload, self._relay, recording)
        self._running.add(ref)
        try:
            node: NodeResult = await ref
        except asyncio.CancelledError:
            self._cancel(ref)
            raise
        except self._ray.exceptions.RayError as error:  # a dead worker or node, a lost object
            return error_result(spec, f"ray: {describe(error)}", started_at, start)
        finally:
            self._running.discard(ref)
        with contextlib.suppress(self._ray.exceptions.RayError):  # progress is best effort
            await self._drain()  # the attempt's last events, before its sink goes
        write_files(spec.out, node.files)
        return AttemptResult(node.record, node.verdict)

    @property
    def slots(self) -> int:
        """How many attempts the cluster's CPUs hold now, at this runner's CPUs each."""
        cpus = float(self._ray.cluster_resources().get("CPU", 1))
        return max(1, int(cpus / self._cpus + 1e-9))

    def close(self) -> None:
        """Cancel what still runs (a stopped or interrupted batch), then disconnect."""
        if self._poller is not None:
            self._poller.cancel()
        for ref in list(self._running):
            self._cancel(ref)
        self._ray.shutdown()

    def _cancel(self, ref: Any) -> None:
        """Kill the attempt's worker (its pi child dies with it); it may have ended already."""
        self._running.discard(ref)
        with contextlib.suppress(Exception):  # ended, or the connection is already closed
            self._ray.cancel(ref, force=True)

    async def _payload(self, spec: AttemptSpec) -> Any:
        """The task's packed sources in Ray's object store, packed once per distinct set."""
        key = tuple(task_sources(spec.task, spec.task_base))
        async with self._pack_lock:
            if key not in self._payloads:
                if self._agent is None:
                    self._agent = await asyncio.to_thread(pack_agent, spec.user_agent_dir)
                sources = [await asyncio.to_thread(pack, path, kind) for path, kind in key]
                payload = Payload(str(spec.task_base), sources, self._agent)
                self._payloads[key] = self._ray.put(payload)
            return self._payloads[key]

    def _ensure_poller(self) -> None:
        if self._poller is None or self._poller.done():
            self._poller = asyncio.create_task(self._poll())

    async def _poll(self) -> None:
        """Hand the workers' events to the progress line while attempts run."""
        while self._sinks:
            await asyncio.sleep(POLL_S)
            await self._drain()

    async def _drain(self) -> None:
        """Hand every event the relay holds to its attempt's sink."""
        for task_id, event in await self._relay.drain.remote():
            for name, sink in list(self._sinks.items()):
                if name == task_id or name.startswith(task_id + ".a"):
                    sink(task_id, event)
                    break


def describe(error: BaseException) -> str:
    """A one-line account of a Ray error: the worker's own exception when it raised one."""
    cause = getattr(error, "cause", None)
    if isinstance(cause, BaseException):
        return f"{type(cause).__name__}: {cause}"
    lines = [line for line in str(error).splitlines() if line.strip()]
    return f"{type(error).__name__}: {lines[-1] if lines else ''}"


def write_files(out: Path, files: dict[str, bytes]) -> None:
    """Write an attempt's returned files under the driver's `out`."""
    root = out.resolve()
    for relative, data in files.items():
        target = (root / relative).resolve()
        if not target.is_relative_to(root):
            raise ValueError(f"a worker sent a file outside OUT: {relative}")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
