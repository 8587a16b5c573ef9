"""`pi batch --in-process`: every attempt a session on the driver's event loop, no child pi."""

from __future__ import annotations

from typing import Any

from pi_plugin_batch.inprocess_attempt import run_attempt_in_process
from pi_plugin_batch.runner import AttemptResult, AttemptSpec, EventSink

# pi_core.ai.traffic reads PI_HTTP_RECORD / PI_HTTP_REPLAY from the process environment, so a
# process records or replays one attempt's traffic, not many at once.
NO_TRAFFIC = (
    "--record and --replay need a child process per attempt (the recording is chosen by the "
    "process's PI_HTTP_RECORD / PI_HTTP_REPLAY): not with --in-process"
)


def refusal(options: dict[str, Any]) -> str | None:
    """Why `--in-process` cannot run with these options (a usage error), or None."""
    if options.get("ray"):
        return "--in-process runs on this machine: not with --ray"
    if options.get("record") or options.get("replay_from") is not None:
        return NO_TRAFFIC
    return None


class InProcessRunner:
    """Runs each attempt through the SDK in this process: no interpreter start per attempt."""

    async def run(self, spec: AttemptSpec, on_event: EventSink) -> AttemptResult:
        """Run the attempt as `rollout()` does; return the record the child runner would."""

        def relay(event: Any) -> None:
            on_event(spec.task.id, _as_wire(event))

        done = await run_attempt_in_process(spec, relay)
        return done.result


def _as_wire(event: Any) -> dict[str, Any]:
    """The fields of an SDK event the progress line reads, named as in a child's JSON event."""
    wire: dict[str, Any] = {"type": getattr(event, "type", None)}
    tool = getattr(event, "tool_name", None)
    if tool is not None:
        wire["toolName"] = tool
    return wire
