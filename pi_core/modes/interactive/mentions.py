"""`@` mentions that plugins offer (`register_completions`): listed in the `@` menu, and turned
into text attached to the prompt when the message is sent."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable
from typing import Any

_MENTION = re.compile(r"(?<!\S)@(\S+)")


def mention_entries(sources: Iterable[Any], query: str) -> list[tuple[str, str, str]]:
    """(value, label, meta) of each plugin mention matching `query` (failing sources skipped)."""
    found: list[tuple[str, str, str]] = []
    for source in sources:
        try:
            items = source.complete(query) or []
        except Exception:
            continue
        for item in items:
            value = str(item.get("value", "")) if isinstance(item, dict) else str(item)
            if not value:
                continue
            label = str(item.get("label") or value) if isinstance(item, dict) else value
            described = item.get("description") if isinstance(item, dict) else None
            where = f"[{source.plugin}]" if source.plugin else ""
            found.append((value, label, " ".join(p for p in (described, where) if p)))
    return found


async def attach_mentions(text: str, sources: Iterable[Any], report: Callable[[str], None]) -> str:
    """`text` with the content of each plugin mention in it appended as a `<resource>` block.

    A mention no source claims (an `@file`, say) is left alone; one whose source fails is
    reported through `report` and the message goes without it.
    """
    resolvers = [source for source in sources if source.resolve is not None]
    if not resolvers:
        return text
    blocks: list[str] = []
    for token in dict.fromkeys(_MENTION.findall(text)):
        for source in resolvers:
            try:
                content = source.resolve(token)
                if inspect.isawaitable(content):
                    content = await content
            except Exception as error:
                report(f"Warning: could not attach @{token} ({source.plugin}): {error}")
                break
            if content is not None:
                blocks.append(f'<resource name="{token}">\n{content}\n</resource>')
                break
    return "\n\n".join([text, *blocks]) if blocks else text
