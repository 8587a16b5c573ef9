"""Fixtures for the batch tests (the helpers live in batch_helpers.py, importable from here)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from batch_helpers import fake

__all__ = ["fake"]
