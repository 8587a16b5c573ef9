"""The footer: where you are, what it cost, how full the context is, which model thinks how."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples

from pi_core.terminal_text import sanitize


def format_tokens(count: int) -> str:
    """1234 → 1.2k, 123456 → 123k, 1234567 → 1.2M (pi's footer format)."""
    if count < 1000:
        return str(count)
    if count < 10_000:
        return f"{count / 1000:.1f}k"
    if count < 1_000_000:
        return f"{round(count / 1000)}k"
    if count < 10_000_000:
        return f"{count / 1_000_000:.1f}M"
    return f"{round(count / 1_000_000)}M"


def home_relative(path: str) -> str:
    """Show the home folder as `~`."""
    home = os.path.expanduser("~")
    if path == home:
        return "~"
    if path.startswith(home + os.sep):
        return "~" + path[len(home) :]
    return path


def git_branch(cwd: str) -> str | None:
    """Read the current branch from .git/HEAD (no subprocess); a short hash when detached."""
    folder = Path(cwd).resolve()
    for candidate in (folder, *folder.parents):
        dot_git = candidate / ".git"
        if dot_git.is_file():  # a worktree: "gitdir: <path>"
            text = dot_git.read_text(errors="replace").strip()
            if text.startswith("gitdir:"):
                dot_git = (candidate / text.split(":", 1)[1].strip()).resolve()
        head = dot_git / "HEAD"
        if head.is_file():
            content = head.read_text(errors="replace").strip()
            if content.startswith("ref: refs/heads/"):
                return content.removeprefix("ref: refs/heads/")
            return content[:7] or None
    return None


def footer_data(session: Any, statuses: dict[str, str], width: int) -> dict[str, Any]:
    """What a plugin's footer (`ctx.ui.set_footer`) is given to draw from."""
    model = session.model
    return {
        "width": width,
        "cwd": str(session.cwd),
        "git_branch": git_branch(str(session.cwd)),
        "session_name": session.session_name,
        "model": f"{model.provider}/{model.id}" if model is not None else None,
        "thinking_level": session.thinking_level,
        "statuses": dict(statuses),
    }


def footer_lines(session: Any, statuses: dict[str, str], width: int) -> StyleAndTextTuples:
    """Build the footer as prompt_toolkit formatted text (two or three lines)."""
    from pi_core.agent_session.stats import all_branches_usage, context_usage

    place = home_relative(str(session.cwd))
    branch = git_branch(str(session.cwd))
    if branch:
        place += f" ({branch})"
    if session.session_name:
        place += f" • {session.session_name}"
    place = sanitize(place)  # folder, branch and name can all hold control characters
    tokens, cost = all_branches_usage(session.session_manager)
    left: list[tuple[str, str]] = []
    for label, key in (("↑", "input"), ("↓", "output"), ("R", "cacheRead"), ("W", "cacheWrite")):
        if tokens[key]:
            left.append(("class:footer", f"{label}{format_tokens(tokens[key])} "))
    if cost:
        left.append(("class:footer", f"${cost:.3f} "))
    usage = context_usage(session)
    if usage:
        window = format_tokens(int(usage["contextWindow"]))
        percent = usage.get("percent")
        style = "class:footer"
        if percent is None:
            shown = f"?/{window}"
        else:
            shown = f"{percent:.1f}%/{window}"
            if percent > 90:
                style = "class:footer.error"
            elif percent > 70:
                style = "class:footer.warning"
        left.append((style, shown))
        if session.settings.get_compaction_enabled():
            left.append(("class:footer", " (auto)"))
    right = _model_label(session)
    left_width = sum(len(text) for _, text in left)
    gap = max(1, width - left_width - len(right))
    lines: StyleAndTextTuples = [("class:footer", _cut(place, width)), ("", "\n")]
    lines += left
    lines.append(("class:footer", " " * gap + right))
    if statuses:
        joined = "  ".join(" ".join(sanitize(statuses[key]).split()) for key in sorted(statuses))
        lines += [("", "\n"), ("class:footer", _cut(joined, width))]
    return lines


def _model_label(session: Any) -> str:
    model = session.model
    if model is None:
        return "no model: /login"
    label = f"({model.provider}) {model.id}"
    if getattr(model, "reasoning", False):
        level = session.thinking_level
        label += " • thinking off" if level == "off" else f" • {level}"
    return label


def _cut(text: str, width: int) -> str:
    return text if len(text) <= width else text[: max(0, width - 3)] + "..."
