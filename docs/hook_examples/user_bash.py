"""Answer `!now` without a shell: the plugin gives the finished result itself."""

from datetime import UTC, datetime

from pi_core import hookimpl
from pi_core.events import BashResult, UserBashEvent, UserBashResult


@hookimpl
def user_bash(event: UserBashEvent) -> UserBashResult | None:
    if event.command.strip() != "now":
        return None  # another plugin, or pi's own shell, runs it
    now = datetime.now(UTC).isoformat(timespec="seconds")
    return UserBashResult(result=BashResult(output=now + "\n", exit_code=0))
