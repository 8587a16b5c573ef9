"""A pi-shaped tool: the parameter model is written out, so the schema is exactly what you say."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, Field

from pi_core import AbortSignal, ExtensionContext, Tool, ToolResult, ToolUpdateCallback


class WordCountArgs(BaseModel):
    """The arguments of `word_count`; their JSON schema is what the model sees."""

    path: str = Field(description="File to count words in, relative to the working directory")


class WordCount(Tool[WordCountArgs]):
    """Count the words in a text file."""

    name = "word_count"
    label = "Word count"
    description = "Count the words in a text file"
    parameters = WordCountArgs

    async def execute(
        self,
        call_id: str,
        params: WordCountArgs,
        signal: AbortSignal | None,
        on_update: ToolUpdateCallback | None,
        ctx: ExtensionContext,
    ) -> ToolResult:
        """Read the file and count what whitespace separates."""
        words = len(Path(ctx.cwd, params.path).read_text(encoding="utf-8").split())
        return ToolResult.text(f"{words} words", details={"words": words})
