"""The plugin's test helpers (`helpers/`) on the import path."""

from __future__ import annotations

import sys
from pathlib import Path

HELPERS = Path(__file__).resolve().parent / "helpers"
if str(HELPERS) not in sys.path:
    sys.path.insert(0, str(HELPERS))
