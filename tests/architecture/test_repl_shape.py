"""The REPL has the shape AgentSession has: its satellites talk to the app through small
protocols (`modes/interactive/host.py`), never import it, and import each other without a
circle, counting imports made for type checkers and inside functions."""

from __future__ import annotations

import ast

from tests.architecture.test_import_graph import (
    SMALL_PROTOCOL,
    TREES,
    all_imports,
    init_parameters,
    protocol_sizes,
)

REPL = "pi_core.modes.interactive"
APP = f"{REPL}.app"
ROOTS = {REPL, APP}  # run_app (in __init__) builds the app; app.py is the app
SATELLITES = {
    name: tree for name, tree in TREES.items() if name.startswith(f"{REPL}.") and name not in ROOTS
}


def test_there_are_satellites() -> None:
    assert len(SATELLITES) > 40
    assert f"{REPL}.session_events" in SATELLITES


def test_satellites_do_not_import_the_app() -> None:
    """Only the composition roots name app.py, at run time, lazily or for type checkers."""
    importers = sorted(name for name, tree in SATELLITES.items() if APP in all_imports(tree))
    assert importers == []


def annotations(tree: ast.Module) -> list[str]:
    """The text of every annotation in a module (parameters, returns, variables)."""
    found: list[ast.expr | None] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            found.append(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            found.append(node.returns)
        elif isinstance(node, ast.AnnAssign):
            found.append(node.annotation)
    return [ast.unparse(each) for each in found if each is not None]


def test_no_satellite_is_handed_the_whole_app() -> None:
    """A satellite types what it gets with a narrow protocol, never as `InteractiveApp`."""
    handed = sorted(
        f"{name}: {text}"
        for name, tree in SATELLITES.items()
        for text in annotations(tree)
        if "InteractiveApp" in text
    )
    assert handed == []
    given_the_app = [
        f"{name}.{cls}"
        for name, tree in SATELLITES.items()
        for cls, parameters in init_parameters(tree).items()
        if "app" in parameters
    ]
    assert given_the_app == []


def test_the_annotation_check_sees_the_app() -> None:
    tree = ast.parse("def f(app: InteractiveApp) -> None: ...\nx: 'InteractiveApp | None'\n")
    assert sorted(text for text in annotations(tree) if "InteractiveApp" in text) == [
        "'InteractiveApp | None'",
        "InteractiveApp",
    ]


def test_host_protocols_are_narrow() -> None:
    """Every protocol the REPL's satellites type against declares a handful of members."""
    wide = [
        f"{name}.{cls} ({size} members)"
        for name, tree in SATELLITES.items()
        for cls, size in protocol_sizes(tree).items()
        if size > SMALL_PROTOCOL
    ]
    assert wide == []
    assert set(protocol_sizes(TREES[f"{REPL}.host"])) >= {"Screen", "CommandHost", "EventHost"}


def strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """The graph's strongly-connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for following in graph.get(node, set()):
            if following not in index:
                visit(following)
                low[node] = min(low[node], low[following])
            elif following in stack:
                low[node] = min(low[node], index[following])
        if low[node] == index[node]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(component)

    for node in graph:
        if node not in index:
            visit(node)
    return found


def repl_graph() -> dict[str, set[str]]:
    """The REPL's modules and every REPL module each names: at run time, lazily, for types."""
    repl = {name for name in TREES if name == REPL or name.startswith(f"{REPL}.")}
    return {name: (all_imports(TREES[name]) & repl) - {name} for name in repl}


def test_no_import_circle_in_the_repl_counting_type_only_and_lazy_imports() -> None:
    assert strongly_connected(repl_graph()) == []


def test_the_circle_check_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert strongly_connected(graph) == [{"a", "b", "c"}]
