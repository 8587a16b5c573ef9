"""The floor: the least work each benchmark figure needs, as a program that takes pi's arguments.

    python benchmarks/floor.py -p "Read notes.txt" --model fake/fake-model   # print mode
    python benchmarks/floor.py --mode rpc --model fake/fake-model             # RPC (JSONL)
    python benchmarks/floor.py --export SESSION.jsonl OUT.html                # HTML export
    python benchmarks/floor.py                                                # the REPL's floor
    python benchmarks/floor.py --measure [--quick] [--pi PATH] [--json OUT]   # measure it

The program is the package harness/floor/ (its docstring says what it imports and why that much is
unavoidable); it reads models.json from PI_CODING_AGENT_DIR like pi. `--measure` runs
benchmarks/run.py's groups that have a floor (print, rpc, session-prompt, sessions, export,
repl): ours, pi's (with --pi) and the floor's columns, then issue 34's table. run.py measures
the floor in every run anyway; this is the shortcut.
"""

from __future__ import annotations

import sys
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path

HERE = Path(__file__).resolve().parent
FLOOR_GROUPS = "print,rpc,session-prompt,sessions,export,repl"


def measure(argv: list[str]) -> int:
    """run.py with the floor's groups and the issue's table."""
    sys.path.insert(0, str(HERE))
    import run

    return run.main(["--only", FLOOR_GROUPS, "--markdown", *argv])


def main() -> int:
    """Measure, or run the floor program itself with the given arguments."""
    argv = sys.argv[1:]
    if "--measure" in argv:
        return measure([arg for arg in argv if arg != "--measure"])
    package = HERE / "harness" / "floor"
    spec = spec_from_file_location(
        "pi_floor", package / "__init__.py", submodule_search_locations=[str(package)]
    )
    assert spec is not None and spec.loader is not None
    agent = sys.modules["pi_floor"] = module_from_spec(spec)
    spec.loader.exec_module(agent)
    result: int = agent.main(argv)
    return result


if __name__ == "__main__":
    sys.exit(main())
