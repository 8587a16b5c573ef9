"""The plugin's test helpers (`helpers/`) on the import path."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for folder in (HERE, HERE / "helpers"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
