"""Compaction preparation (the summarizer itself is a plugin)."""

from pi_core.compaction.types import (
    CompactionPreparation,
    CompactionResult,
    CompactionSettings,
    FileOperations,
)

__all__ = ["CompactionPreparation", "CompactionResult", "CompactionSettings", "FileOperations"]
