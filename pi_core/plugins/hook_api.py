"""The hook API's version: what a plugin requires of it, and the shape of every hookspec."""

from __future__ import annotations

import inspect
from typing import Any

from pi_core import hookspecs

REQUIREMENT_ATTRIBUTE = "PI_HOOK_API"
"""The module attribute where a plugin names the hook API it needs, such as "1.2"."""


class HookApiMismatch(Exception):
    """A plugin needs a hook API this pi does not provide."""


def parse_version(text: str) -> tuple[int, int]:
    """Read "MAJOR.MINOR" (a leading ">=" or "^" is allowed) as a pair of numbers."""
    cleaned = text.strip().removeprefix(">=").removeprefix("^").strip()
    major, dot, minor = cleaned.partition(".")
    if not (major.isdigit() and (not dot or minor.isdigit())):
        raise ValueError(f'hook API version {text!r} is not "MAJOR.MINOR"')
    return int(major), int(minor or 0)


def is_compatible(required: tuple[int, int], provided: tuple[int, int]) -> bool:
    """Whether a plugin written for `required` works with `provided`: same major, newer minor."""
    return required[0] == provided[0] and required[1] <= provided[1]


def check_requirement(plugin: Any) -> None:
    """Raise HookApiMismatch if the plugin's `PI_HOOK_API` asks for a hook API pi lacks."""
    wanted = getattr(plugin, REQUIREMENT_ATTRIBUTE, None)
    if wanted is None:
        return
    provided = parse_version(hookspecs.HOOK_API_VERSION)
    try:
        required = parse_version(str(wanted))
    except ValueError as error:
        raise HookApiMismatch(f"{REQUIREMENT_ATTRIBUTE}: {error}") from None
    if is_compatible(required, provided):
        return
    needed = f"{required[0]}.{required[1]}"
    if required[0] < provided[0]:
        advice = f"use a release of the plugin made for hook API {provided[0]}.x"
    else:
        advice = (
            f"upgrade pi-harness to a release with hook API {needed} or a later {required[0]}.x"
        )
    raise HookApiMismatch(
        f"the plugin needs hook API {needed} ({REQUIREMENT_ATTRIBUTE}), but this pi provides "
        f"{hookspecs.HOOK_API_VERSION}: {advice}"
    )


def hookspec_snapshot() -> dict[str, Any]:
    """Describe every hookspec (kind, semantics, argument names, pluggy flags) and the version."""
    hooks: dict[str, Any] = {}
    for name in [*hookspecs.REGISTRATION_HOOKS, *hookspecs.EVENT_HOOKS]:
        spec = getattr(hookspecs, name)
        opts = getattr(spec, f"{hookspecs.PROJECT_NAME}_spec")
        hooks[name] = {
            "kind": "registration" if name in hookspecs.REGISTRATION_HOOKS else "event",
            "semantics": hookspecs.EVENT_HOOKS.get(name),
            "arguments": list(inspect.signature(spec).parameters),
            "firstresult": bool(opts.get("firstresult")),
            "historic": bool(opts.get("historic")),
        }
    return {"version": hookspecs.HOOK_API_VERSION, "hooks": dict(sorted(hooks.items()))}


def required_bump(locked: dict[str, Any], live: dict[str, Any]) -> tuple[str, list[str]]:
    """Compare two snapshots: ("major" | "minor" | "none", what changed)."""
    old, new = locked["hooks"], live["hooks"]
    breaking = [f"hook {name} removed or renamed" for name in old if name not in new]
    added = [f"hook {name} added" for name in new if name not in old]
    for name in set(old) & set(new):
        before, after = old[name], new[name]
        gone = [arg for arg in before["arguments"] if arg not in after["arguments"]]
        extra = [arg for arg in after["arguments"] if arg not in before["arguments"]]
        if gone:
            breaking.append(f"{name}: argument(s) {', '.join(gone)} removed or renamed")
        if extra:
            added.append(f"{name}: argument(s) {', '.join(extra)} added")
        for key in ("kind", "semantics", "firstresult", "historic"):
            if before.get(key) != after.get(key):
                breaking.append(f"{name}: {key} {before.get(key)!r} -> {after.get(key)!r}")
    if breaking:
        return "major", sorted(breaking) + sorted(added)
    if added:
        return "minor", sorted(added)
    return "none", []
