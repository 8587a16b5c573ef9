"""`pi batch` throughput: tasks per minute per core, child pool, in-process pool and Ray.

    python benchmarks/batch.py [--tasks 16] [-j 4] [--ray-cpus 0.25] [--no-ray] [--pi PATH]
                               [--json out.json]

Every task is one real pi session against the loopback fake model, which answers from the
prompt (`mark <id>`): a `bash` tool call that writes a file, then a text answer (two requests).
The same task file runs with the local pool (`-j J`) and with `--ray` on a local Ray head started
here (`--num-cpus` = this machine's cores; its start-up and a warm-up batch are not timed), and
with `--in-process` (`-j J`: every attempt a session in the driver's process). The per-task
overhead of the batch is its `-j 1` seconds per task minus a loop of bare `pi -p` (ours), and,
with `--pi PATH`, minus a loop of pi 0.73.1's `pi -p` on the same prompts.

Wall time on a shared machine is noisy, so every run's CPU time (user + system of it and its
children) is measured too: `*_cpu_s_per_task`, and the tasks per CPU-minute that follow from it,
against which pi's loop is compared (`*_vs_pi_cpu`, > 1 = ours does more tasks per CPU-minute).
The JSON's `ours` (read by harness.batch_hook for run.py's row) is the in-process figure.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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


def children_cpu() -> float:
    """CPU seconds (user + system) of every child process this one has waited for."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed_batch(workspace: Workspace, tasks: Path, out: Path, *args: str) -> float:
    """Seconds for `pi batch TASKS -o OUT ARGS`; every task must end ok."""
    return cpu_timed_batch(workspace, tasks, out, *args)[0]


def cpu_timed_batch(
    workspace: Workspace, tasks: Path, out: Path, *args: str
) -> tuple[float, float]:
    """Wall and CPU seconds (the driver and its pi children) of `pi batch TASKS -o OUT ARGS`."""
    command = [our_pi(), "batch", str(tasks), "-o", str(out), "--model", MODEL, *args]
    start, cpu = time.perf_counter(), children_cpu()
    done = subprocess.run(command, env=workspace.env, cwd=workspace.root, capture_output=True,
                          text=True, timeout=3600)  # fmt: skip
    seconds, cpu = time.perf_counter() - start, children_cpu() - cpu
    if done.returncode != 0:
        raise RuntimeError(f"pi batch {' '.join(args)} exited {done.returncode}:\n{done.stderr}")
    return seconds, cpu


def print_loop(workspace: Workspace, executable: str, count: int, prefix: str) -> float:
    """Seconds per task for `count` bare `pi -p "mark <id>"` runs, one after another."""
    return cpu_print_loop(workspace, executable, count, prefix)[0]


def cpu_print_loop(
    workspace: Workspace, executable: str, count: int, prefix: str
) -> tuple[float, float]:
    """Wall and CPU seconds per task of `count` bare `pi -p "mark <id>"` runs in a row."""
    start, cpu = time.perf_counter(), children_cpu()
    for n in range(count):
        folder = workspace.root / f"{prefix}-{n}"
        shutil.copytree(workspace.root / "src", folder)
        command = [executable, "-p", f"mark {prefix}{n:03d}", "--model", MODEL]
        done = subprocess.run(command, env=workspace.env, cwd=folder, capture_output=True,
                              text=True, timeout=300)  # fmt: skip
        if done.returncode != 0 or not (folder / "marker.txt").exists():
            raise RuntimeError(f"{executable} -p failed: {done.stderr[-2000:]}")
    return (time.perf_counter() - start) / count, (children_cpu() - cpu) / count


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
        jobs = ("-j", str(options.jobs))
        local, local_cpu = cpu_timed_batch(workspace, tasks, root / "local", *jobs)
        figures["local_tasks_per_min_per_core"] = options.tasks / (local / 60) / cores
        figures["local_cpu_s_per_task"] = local_cpu / options.tasks
        inside, inside_cpu = cpu_timed_batch(workspace, tasks, root / "inproc", *jobs,
                                             "--in-process")  # fmt: skip
        figures["inproc_tasks_per_min_per_core"] = options.tasks / (inside / 60) / cores
        figures["inproc_cpu_s_per_task"] = inside_cpu / options.tasks
        figures["ours"] = figures["inproc_tasks_per_min_per_core"]
        serial = timed_batch(workspace, write_tasks(workspace.root, options.serial, "s"),
                             root / "serial", "-j", "1")  # fmt: skip
        figures["batch_s_per_task_j1"] = serial / options.serial
        serial_inside = timed_batch(workspace, write_tasks(workspace.root, options.serial, "i"),
                                    root / "serial-inproc", "-j", "1", "--in-process")  # fmt: skip
        figures["inproc_s_per_task_j1"] = serial_inside / options.serial
        ours_s, ours_cpu = cpu_print_loop(workspace, our_pi(), options.serial, "o")
        figures["ours_print_s_per_task"], figures["ours_print_cpu_s_per_task"] = ours_s, ours_cpu
        figures["overhead_vs_ours_s"] = (
            figures["batch_s_per_task_j1"] - figures["ours_print_s_per_task"]
        )
        if options.pi:
            pi_s, pi_cpu = cpu_print_loop(workspace, options.pi, options.serial, "p")
            figures["pi_print_s_per_task"], figures["pi_print_cpu_s_per_task"] = pi_s, pi_cpu
            figures["overhead_vs_pi_s"] = (
                figures["batch_s_per_task_j1"] - figures["pi_print_s_per_task"]
            )
            for mode in ("local", "inproc"):
                figures[f"{mode}_vs_pi_cpu"] = pi_cpu / figures[f"{mode}_cpu_s_per_task"]
                # pi's loop runs one task at a time, so on one core: 60 / s per task
                figures[f"{mode}_vs_pi_wall"] = (
                    figures[f"{mode}_tasks_per_min_per_core"] * pi_s / 60
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
        ("tasks/min/core, local pool (children)", cell("local_tasks_per_min_per_core", "")),
        ("tasks/min/core, local pool (--in-process)", cell("inproc_tasks_per_min_per_core", "")),
        ("tasks/min/core, Ray", cell("ray_tasks_per_min_per_core", "")),
        ("CPU per task, children", cell("local_cpu_s_per_task", "s")),
        ("CPU per task, --in-process", cell("inproc_cpu_s_per_task", "s")),
        ("CPU per task, bare pi -p (ours)", cell("ours_print_cpu_s_per_task", "s")),
        ("CPU per task, pi 0.73.1 pi -p loop", cell("pi_print_cpu_s_per_task", "s")),
        ("tasks per CPU-minute vs pi's loop, children", cell("local_vs_pi_cpu", "x")),
        ("tasks per CPU-minute vs pi's loop, --in-process", cell("inproc_vs_pi_cpu", "x")),
        ("tasks/min/core vs pi's loop (wall), children", cell("local_vs_pi_wall", "x")),
        ("tasks/min/core vs pi's loop (wall), --in-process", cell("inproc_vs_pi_wall", "x")),
        ("pi batch -j 1, per task", cell("batch_s_per_task_j1", "s")),
        ("pi batch --in-process -j 1, per task", cell("inproc_s_per_task_j1", "s")),
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
