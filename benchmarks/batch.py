"""`pi batch` throughput: tasks per minute per core, local pool and Ray side by side.

    python benchmarks/batch.py [--tasks 16] [-j 4] [--ray-cpus 0.25] [--no-ray] [--pi PATH]
                               [--json out.json]

Every task is one real pi session against the loopback fake model, which answers from the
prompt (`mark <id>`): a `bash` tool call that writes a file, then a text answer (two requests).
The same task file runs with the local pool (`-j J`) and with `--ray` on a local Ray head started
here (`--num-cpus` = this machine's cores; its start-up and a warm-up batch are not timed). The
per-task overhead of the batch is its `-j 1` seconds per task minus a loop of bare `pi -p` (ours),
and, with `--pi PATH`, minus a loop of pi 0.73.1's `pi -p` on the same prompts.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from harness.machine import describe
from harness.pi import our_pi, version_of
from harness.scenarios import MODEL, Workspace, make_workspace

from pi_core.testing import FakeLLMServer, FakeResponse, RecordedRequest, chat_stream

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugins/pi-plugin-batch/tests"))
from ray_head import ray_head  # the tests' local Ray head, reused


def answer(request: RecordedRequest) -> FakeResponse:
    """`mark <id>`: first a bash call writing marker.txt, then (after its result) a text answer."""
    body = request.json()
    messages = body.get("messages", [])
    prompt = next((m.get("content") for m in messages if m.get("role") == "user"), "")
    if isinstance(prompt, list):
        prompt = "".join(part.get("text", "") for part in prompt)
    task_id = str(prompt).partition(" ")[2]
    if any(m.get("role") == "tool" for m in messages):
        return chat_stream(f"done {task_id}")
    command = f"printf %s {task_id} > marker.txt"
    return chat_stream("", tool_calls=[("bash", {"command": command})])


def write_tasks(root: Path, count: int, prefix: str) -> Path:
    """A task file of `count` tasks, each in a copy of a small project folder."""
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "src" / "README").write_text("a project\n")
    path = root / f"{prefix}.jsonl"
    lines = [{"id": f"{prefix}{n:03d}", "prompt": f"mark {prefix}{n:03d}", "workdir": "src"}
             for n in range(count)]  # fmt: skip
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def timed_batch(workspace: Workspace, tasks: Path, out: Path, *args: str) -> float:
    """Seconds for `pi batch TASKS -o OUT ARGS`; every task must end ok."""
    command = [our_pi(), "batch", str(tasks), "-o", str(out), "--model", MODEL, *args]
    start = time.perf_counter()
    done = subprocess.run(command, env=workspace.env, cwd=workspace.root, capture_output=True,
                          text=True, timeout=3600)  # fmt: skip
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"pi batch {' '.join(args)} exited {done.returncode}:\n{done.stderr}")
    return seconds


def print_loop(workspace: Workspace, executable: str, count: int, prefix: str) -> float:
    """Seconds per task for `count` bare `pi -p "mark <id>"` runs, one after another."""
    start = time.perf_counter()
    for n in range(count):
        folder = workspace.root / f"{prefix}-{n}"
        shutil.copytree(workspace.root / "src", folder)
        command = [executable, "-p", f"mark {prefix}{n:03d}", "--model", MODEL]
        done = subprocess.run(command, env=workspace.env, cwd=folder, capture_output=True,
                              text=True, timeout=300)  # fmt: skip
        if done.returncode != 0 or not (folder / "marker.txt").exists():
            raise RuntimeError(f"{executable} -p failed: {done.stderr[-2000:]}")
    return (time.perf_counter() - start) / count


def measure(options: argparse.Namespace) -> dict[str, Any]:
    """Run every measurement; return the figures."""
    cores = os.cpu_count() or 1
    figures: dict[str, Any] = {"tasks": options.tasks, "jobs": options.jobs, "cores": cores}
    server = FakeLLMServer().start()
    server.route(answer)
    root = Path(tempfile.mkdtemp(prefix="pi-batch-bench-"))
    try:
        workspace = make_workspace(root / "ws", server.base_url)
        tasks = write_tasks(workspace.root, options.tasks, "t")
        local = timed_batch(workspace, tasks, root / "local", "-j", str(options.jobs))
        figures["local_tasks_per_min_per_core"] = options.tasks / (local / 60) / cores
        serial = timed_batch(workspace, write_tasks(workspace.root, options.serial, "s"),
                             root / "serial", "-j", "1")  # fmt: skip
        figures["batch_s_per_task_j1"] = serial / options.serial
        figures["ours_print_s_per_task"] = print_loop(workspace, our_pi(), options.serial, "o")
        figures["overhead_vs_ours_s"] = (
            figures["batch_s_per_task_j1"] - figures["ours_print_s_per_task"]
        )
        if options.pi:
            figures["pi_print_s_per_task"] = print_loop(workspace, options.pi, options.serial, "p")
            figures["overhead_vs_pi_s"] = (
                figures["batch_s_per_task_j1"] - figures["pi_print_s_per_task"]
            )
        if not options.no_ray:
            with ray_head(num_cpus=cores) as address:
                ray_args = ("--ray", address, "--ray-cpus", str(options.ray_cpus))
                warm = write_tasks(workspace.root, 2, "w")
                timed_batch(workspace, warm, root / "warm", *ray_args)  # workers start
                remote = timed_batch(workspace, tasks, root / "ray", *ray_args)
            figures["ray_tasks_per_min_per_core"] = options.tasks / (remote / 60) / cores
    finally:
        server.stop()
        shutil.rmtree(root, ignore_errors=True)
    return figures


def render(figures: dict[str, Any], machine: dict[str, str]) -> str:
    """The figures as a small table."""

    def cell(key: str, unit: str) -> str:
        value = figures.get(key)
        return "—" if value is None else f"{value:.2f} {unit}"

    rows = [
        ("tasks/min/core, local pool", cell("local_tasks_per_min_per_core", "")),
        ("tasks/min/core, Ray", cell("ray_tasks_per_min_per_core", "")),
        ("pi batch -j 1, per task", cell("batch_s_per_task_j1", "s")),
        ("bare pi -p (ours), per task", cell("ours_print_s_per_task", "s")),
        ("bare pi -p (pi 0.73.1), per task", cell("pi_print_s_per_task", "s")),
        ("batch overhead vs ours", cell("overhead_vs_ours_s", "s")),
        ("batch overhead vs pi 0.73.1", cell("overhead_vs_pi_s", "s")),
    ]
    width = max(len(name) for name, _ in rows)
    head = [f"{k}: {v}" for k, v in machine.items()]
    head.append(f"{figures['tasks']} tasks, -j {figures['jobs']}, {figures['cores']} cores")
    return "\n".join([*head, "", *(f"{name:<{width}}  {value}" for name, value in rows)])


def main() -> None:
    """Parse the options, measure, print (and save) the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=16, help="tasks in the throughput batch")
    parser.add_argument("-j", "--jobs", type=int, default=4, help="the local pool's -j")
    parser.add_argument("--serial", type=int, default=4, help="tasks in each per-task loop")
    parser.add_argument("--ray-cpus", type=float, default=0.25, help="CPUs per Ray attempt")
    parser.add_argument("--no-ray", action="store_true", help="leave the Ray column out")
    parser.add_argument("--pi", default=None, help="pi 0.73.1's executable, for its -p loop")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    options = parser.parse_args()
    if not options.no_ray:
        try:
            import ray  # noqa: F401
        except ImportError as error:
            hint = "pip install -e 'plugins/pi-plugin-batch[ray]'"
            raise SystemExit(f"Ray is not installed: {hint}") from error
    machine = describe(version_of(options.pi) if options.pi else None)
    figures = measure(options)
    print(render(figures, machine))
    if options.json:
        options.json.write_text(json.dumps({"machine": machine, **figures}, indent=2))


if __name__ == "__main__":
    main()
