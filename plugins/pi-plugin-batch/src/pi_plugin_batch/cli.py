"""`pi batch TASKS.jsonl -o OUT`, `pi batch status OUT`, `pi batch summary OUT`."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

import click
from click.core import ParameterSource

EXIT_USAGE = 3


class BatchUsageError(click.UsageError):
    """A usage error of `pi batch`: exit code 3 (2 means a stopped batch)."""

    exit_code = EXIT_USAGE


class BatchGroup(click.Group):
    """A group whose first word, when not a subcommand, is the task file of `run`."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Send `pi batch TASKS …` to `run`."""
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["run", *args]
        try:
            return super().parse_args(ctx, args)
        except click.UsageError as error:
            raise BatchUsageError(error.message, error.ctx) from error

    def invoke(self, ctx: click.Context) -> Any:
        """Usage errors of the subcommands exit 3, as the batch's exit codes say."""
        try:
            return super().invoke(ctx)
        except click.UsageError as error:
            raise BatchUsageError(error.message, error.ctx) from error


@click.group("batch", cls=BatchGroup)
def batch_command() -> None:
    """Run many headless pi sessions from a JSONL task file: pi batch TASKS.jsonl -o OUT."""


@batch_command.command("run")
@click.argument("tasks_file", type=click.Path(path_type=Path))
@click.option("-o", "--out", type=click.Path(path_type=Path), required=True, help="Output folder.")
@click.option("-j", "--jobs", type=click.IntRange(1), default=4, show_default=True)
@click.option("--model", default=None, help="Default model (a task's `model` wins).")
@click.option("--tools", default=None, help="Default comma-separated tool allow-list.")
@click.option("--timeout", "timeout_s", type=float, default=None, help="Seconds per attempt.")
@click.option("--idle-timeout", "idle_timeout_s", type=float, default=300.0, show_default=True,
              help="Kill an attempt that sends no event for this many seconds.")  # fmt: skip
@click.option("--task-max-cost", type=float, default=None, help="Default dollars per task.")
@click.option("--max-cost", type=float, default=None, help="Dollars for the whole batch.")
@click.option("--attempts", type=click.IntRange(1), default=1, show_default=True,
              help="Independent attempts per task (pass@k).")  # fmt: skip
@click.option("--retries", type=click.IntRange(0), default=3, show_default=True,
              help="Retries of an infrastructure or transient provider error.")  # fmt: skip
@click.option("--backoff", "backoff_s", type=float, default=2.0, show_default=True,
              help="First retry delay in seconds, doubled each retry.")  # fmt: skip
@click.option("--in-place", is_flag=True, help="Run `workdir` tasks in the folder itself.")
@click.option("--keep-work", is_flag=True, help="Keep each attempt's working copy.")
@click.option("--force", is_flag=True, help="Resume although the models or prompts changed.")
@click.option("--record", is_flag=True, help="Keep every provider request and answer in OUT.")
@click.option("--replay", "replay_from", default=None, metavar="RECORDED_OUT",
              type=click.Path(path_type=Path, exists=True, file_okay=False),
              help="Answer every request from RECORDED_OUT's recordings (no network).")  # fmt: skip
@click.option("--token-ids", is_flag=True,
              help="Ask Chat Completions servers for token ids (return_token_ids).")  # fmt: skip
@click.option("--logprobs", type=click.IntRange(0), default=None, metavar="N",
              help="Ask for logprobs with N alternatives per token.")  # fmt: skip
@click.option("--in-process", is_flag=True,
              help="Run the attempts as sessions in this process, not pi children.")  # fmt: skip
@click.option("--ray", "ray", metavar="ADDRESS|auto", default=None,
              help="Run the attempts as Ray tasks on this cluster (the ray extra).")  # fmt: skip
@click.option("--ray-cpus", type=click.FloatRange(0, min_open=True), default=0.25,
              show_default=True, help="CPUs Ray reserves per attempt.")  # fmt: skip
def run_command(tasks_file: Path, out: Path, **options: Any) -> None:
    """Run every task of TASKS_FILE not yet final in OUT (the same command resumes)."""
    from pi_plugin_batch.batch import BatchConfigError, run_batch

    if options["ray"] and (options["in_place"] or options["keep_work"]):
        raise BatchUsageError("--in-place and --keep-work need the driver's disk; not with --ray")
    if options["in_process"]:
        from pi_plugin_batch.inprocess_runner import refusal

        if (refused := refusal(options)) is not None:
            raise BatchUsageError(refused)
    ctx = click.get_current_context()
    if options["ray"] and ctx.get_parameter_source("jobs") is ParameterSource.DEFAULT:
        options["jobs"] = None  # as many as the cluster's CPUs hold at --ray-cpus each
    try:
        code = asyncio.run(run_batch(tasks_file, out, options))
    except BatchConfigError as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(EXIT_USAGE)
    sys.exit(code)


@batch_command.command("status")
@click.argument("out", type=click.Path(path_type=Path, exists=True, file_okay=False))
def status_command(out: Path) -> None:
    """How many attempts are final, by status, and which will run again."""
    from pi_plugin_batch.summary import status_text

    click.echo(status_text(out))


@batch_command.command("summary")
@click.argument("out", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def summary_command(out: Path, as_json: bool) -> None:
    """Final attempts by status, error class and model; cost, tokens, p50/p95 wall time."""
    from pi_plugin_batch.summary import summary_data, summary_text

    data = summary_data(out)
    click.echo(json.dumps(data, indent=2) if as_json else summary_text(data))


@batch_command.command("export")
@click.argument("out", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--format", "fmt", type=click.Choice(["swebench", "atif"]), required=True)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=None,
    help="The predictions file or ATIF folder (OUT/predictions.jsonl, OUT/atif).",
)
@click.option("--model-name", default=None, help="swebench: model_name_or_path for every task.")
@click.option("--json-list", is_flag=True, help="swebench: one JSON list instead of JSONL.")
def export_command(
    out: Path, fmt: str, output: Path | None, model_name: str | None, json_list: bool
) -> None:
    """Export each task's chosen attempt as SWE-bench predictions or ATIF trajectories."""
    from pi_plugin_batch.export import export

    # The SWE-bench harness picks its reader by the file's suffix: `.json` is a list.
    if fmt == "swebench" and output is not None and (output.suffix == ".json") != json_list:
        raise BatchUsageError(f"{output.name}: use a .json name with --json-list, else .jsonl")
    click.echo(export(out, fmt, output, model_name=model_name, json_list=json_list))


@batch_command.command("open", context_settings={"ignore_unknown_options": True})
@click.argument("out", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.argument("task_id")
@click.option("--attempt", type=click.IntRange(1), default=1, show_default=True)
@click.option("--dir", "where", type=click.Path(path_type=Path), default=None,
              help="Recreate the working copy here (default OUT/work/<id>).")  # fmt: skip
@click.argument("pi_args", nargs=-1, type=click.UNPROCESSED)
def open_command(
    out: Path, task_id: str, attempt: int, where: Path | None, pi_args: tuple[str, ...]
) -> None:
    """Recreate TASK_ID's working copy (its patch applied) and continue its session in pi."""
    import subprocess

    from pi_plugin_batch.child import pi_command
    from pi_plugin_batch.reopen import ReopenError, reopen
    from pi_plugin_batch.reopen import pi_args as open_args

    try:
        reopened = reopen(out, task_id, attempt, where)
    except ReopenError as error:
        raise BatchUsageError(str(error)) from error
    made = "recreated" if reopened.created else "reusing"
    click.echo(f"{made} {reopened.workdir}", err=True)
    command = [*pi_command(), *open_args(reopened, list(pi_args))]
    sys.exit(subprocess.run(command, cwd=reopened.workdir).returncode)
