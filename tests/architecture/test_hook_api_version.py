"""The hook API is versioned: a hookspec change without the version saying so fails here.

Regenerate the snapshot after bumping `HOOK_API_VERSION` in pi_core/hookspecs.py:

    python tests/architecture/test_hook_api_version.py
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from pi_core import hookspecs
from pi_core.plugins.hook_api import (
    HookApiMismatch,
    check_requirement,
    hookspec_snapshot,
    parse_version,
    required_bump,
)

LOCK = Path(__file__).with_name("hookspecs.lock.json")
REGENERATE = "python tests/architecture/test_hook_api_version.py"


def verdict(locked: dict[str, Any], live: dict[str, Any]) -> str | None:
    """What is wrong between the checked-in snapshot and the live hookspecs, or None."""
    if locked == live:
        return None
    bump, changes = required_bump(locked, live)
    old, new = parse_version(locked["version"]), parse_version(live["version"])
    listed = "".join(f"\n  - {change}" for change in changes)
    if bump == "major" and new[0] <= old[0]:
        return (
            f"hookspecs changed incompatibly:{listed}\nbump the major of HOOK_API_VERSION in "
            f"pi_core/hookspecs.py to {old[0] + 1}.0, then regenerate the snapshot: {REGENERATE}"
        )
    if bump == "minor" and not (new[0] > old[0] or (new[0] == old[0] and new[1] > old[1])):
        return (
            f"hookspecs gained hooks or arguments:{listed}\nbump the minor of HOOK_API_VERSION "
            f"in pi_core/hookspecs.py to {old[0]}.{old[1] + 1}, then regenerate the snapshot: "
            f"{REGENERATE}"
        )
    return f"the hookspec snapshot is out of date:{listed}\nregenerate it: {REGENERATE}"


def test_the_hookspecs_match_the_snapshot_of_their_version() -> None:
    problem = verdict(json.loads(LOCK.read_text()), hookspec_snapshot())
    assert problem is None, problem


def test_the_version_is_public() -> None:
    import pi_core

    assert pi_core.HOOK_API_VERSION == hookspecs.HOOK_API_VERSION
    assert parse_version(hookspecs.HOOK_API_VERSION) >= (1, 0)


def live_copy() -> dict[str, Any]:
    return copy.deepcopy(hookspec_snapshot())


def test_an_added_hook_needs_a_minor_bump() -> None:
    locked, live = live_copy(), live_copy()
    live["hooks"]["session_pause"] = dict(live["hooks"]["agent_end"])
    problem = verdict(locked, live)
    assert problem is not None and "bump the minor" in problem and "session_pause added" in problem
    assert REGENERATE in problem
    major, minor = parse_version(live["version"])
    live["version"] = f"{major}.{minor + 1}"
    problem = verdict(locked, live)
    assert problem is not None and problem.startswith("the hookspec snapshot is out of date")


def test_an_added_argument_needs_a_minor_bump() -> None:
    locked, live = live_copy(), live_copy()
    live["hooks"]["tool_call"]["arguments"].append("signal")
    problem = verdict(locked, live)
    assert problem is not None and "bump the minor" in problem
    assert "tool_call: argument(s) signal added" in problem


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda hooks: hooks.pop("turn_end"), "hook turn_end removed or renamed"),
        (lambda hooks: hooks["input"]["arguments"].remove("ctx"), "input: argument(s) ctx removed"),
        (lambda hooks: hooks["tool_call"].update(semantics="chain"), "tool_call: semantics"),
        (lambda hooks: hooks["agent_end"].update(firstresult=True), "agent_end: firstresult"),
    ],
)
def test_removals_renames_and_changed_semantics_need_a_major_bump(change: Any, said: str) -> None:
    locked, live = live_copy(), live_copy()
    change(live["hooks"])
    problem = verdict(locked, live)
    assert problem is not None and "bump the major" in problem and said in problem
    live["version"] = "1.9"  # a minor bump is not enough
    assert "bump the major" in (verdict(locked, live) or "")
    live["version"] = "2.0"
    assert (verdict(locked, live) or "").startswith("the hookspec snapshot is out of date")


class Plugin:
    """A plugin object with a hook API requirement."""

    def __init__(self, wanted: str) -> None:
        self.PI_HOOK_API = wanted


def test_a_plugin_may_require_this_or_an_older_minor_of_the_same_major() -> None:
    major, minor = parse_version(hookspecs.HOOK_API_VERSION)
    check_requirement(Plugin(f"{major}.{minor}"))
    check_requirement(Plugin(f">={major}.0"))
    check_requirement(object())  # no requirement at all


def test_a_plugin_needing_a_newer_or_another_major_hook_api_is_refused() -> None:
    major, minor = parse_version(hookspecs.HOOK_API_VERSION)
    with pytest.raises(HookApiMismatch, match=rf"needs hook API {major}\.{minor + 1} .*upgrade"):
        check_requirement(Plugin(f"{major}.{minor + 1}"))
    with pytest.raises(HookApiMismatch, match=rf"needs hook API {major + 1}\.0"):
        check_requirement(Plugin(f"{major + 1}.0"))
    with pytest.raises(HookApiMismatch, match="is not"):
        check_requirement(Plugin("soon"))


if __name__ == "__main__":
    LOCK.write_text(json.dumps(hookspec_snapshot(), indent=2) + "\n")
    print(f"wrote {LOCK.relative_to(Path.cwd()) if LOCK.is_relative_to(Path.cwd()) else LOCK}")
    sys.exit(0)
