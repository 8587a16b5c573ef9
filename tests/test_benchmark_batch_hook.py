"""run.py's `pi batch` row reads benchmarks/batch.py's JSON (harness/batch_hook.py)."""

from __future__ import annotations

import json
import sys
from importlib.util import module_from_spec, spec_from_file_location
from pathlib import Path
from types import ModuleType

import pytest

HOOK = Path(__file__).resolve().parents[1] / "benchmarks" / "harness" / "batch_hook.py"


def load_hook() -> ModuleType:
    """The module by its path (the benchmarks are scripts, not a package on sys.path)."""
    spec = spec_from_file_location("batch_hook", HOOK)
    assert spec is not None and spec.loader is not None
    module = module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


hook = load_hook()

# A stand-in for batch.py: writes the keys the real one writes, and the options it was given.
FAKE_BATCH = """
import json, sys
args = sys.argv[1:]
out = args[args.index("--json") + 1]
figures = {"local_tasks_per_min_per_core": 42.5, "pi_print_s_per_task": 2.0}
open(out, "w").write(json.dumps(figures))
open(sys.argv[0] + ".argv", "w").write(json.dumps(args))
"""


def test_the_row_is_batch_pys_local_pool_against_a_loop_of_pis_print_mode(tmp_path: Path) -> None:
    script = tmp_path / "batch.py"
    script.write_text(FAKE_BATCH)
    figures, note = hook.run_batch("/opt/pi", True, script)
    assert note is None
    assert figures.ours == 42.5
    assert figures.pi == pytest.approx(30.0)  # one task every 2 s on one core
    assert figures.floor is None


def test_figures_named_directly_win_over_the_derived_ones() -> None:
    data = {"ours": 7.0, "pi": 1.5, "floor": 9.0, "pi_print_s_per_task": 2.0}
    figures = hook.figures_from(data)
    assert (figures.ours, figures.pi, figures.floor) == (7.0, 1.5, 9.0)


def test_the_options_given_to_batch_py(tmp_path: Path) -> None:
    script = tmp_path / "batch.py"
    script.write_text(FAKE_BATCH)
    given = tmp_path / "batch.py.argv"

    def options() -> list[str]:
        """What the stand-in was run with, the JSON path left out."""
        args: list[str] = json.loads(given.read_text())
        del args[args.index("--json") + 1]
        return args

    hook.run_batch(None, True, script)  # run.py --quick, no pi
    assert options() == ["--no-ray", "--json", "--tasks", "4", "--serial", "1"]
    hook.run_batch("/opt/pi", False, script)
    assert options() == ["--no-ray", "--json", "--pi", "/opt/pi"]


def test_without_batch_py_the_row_is_left_out_with_a_note(tmp_path: Path) -> None:
    figures, note = hook.run_batch(None, False, tmp_path / "batch.py")
    assert figures is None
    assert "not measured" in note


def test_a_failing_batch_py_is_an_error(tmp_path: Path) -> None:
    script = tmp_path / "batch.py"
    script.write_text("import sys; sys.exit('no fake server')")
    with pytest.raises(RuntimeError, match="no fake server"):
        hook.run_batch(None, False, script)
