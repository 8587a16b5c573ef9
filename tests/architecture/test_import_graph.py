"""pi_core's modules import each other without circles, and no lazy import hides one."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "pi_core"


def module_files() -> dict[str, Path]:
    """Map each pi_core module's dotted name to its file."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


MODULES = module_files()


def target(module: str, name: str) -> str:
    """The pi_core module `from module import name` loads: a submodule if name is one."""
    if f"{module}.{name}" in MODULES:
        return f"{module}.{name}"
    while module not in MODULES and "." in module:
        module = module.rsplit(".", 1)[0]
    return module


def imports(node: ast.AST) -> Iterator[str]:
    """Yield the pi_core modules an import statement loads."""
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        if node.module.split(".")[0] == "pi_core":
            for alias in node.names:
                yield target(node.module, alias.name)
    elif isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name.split(".")[0] == "pi_core":
                yield target(alias.name, "")


def is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def module_level_imports(tree: ast.Module) -> set[str]:
    """The modules imported when the module runs: not inside functions, not for type checkers."""
    found: set[str] = set()
    todo: list[ast.AST] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or is_type_checking(node):
            continue
        found.update(imports(node))
        todo.extend(ast.iter_child_nodes(node))
    return found


def lazy_imports(tree: ast.Module) -> list[tuple[str, int]]:
    """The (module, line) imports made inside functions."""
    found = []
    for function in ast.walk(tree):
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            for node in ast.walk(function):
                found += [(module, getattr(node, "lineno", 0)) for module in imports(node)]
    return found


TREES = {name: ast.parse(path.read_text(), str(path)) for name, path in MODULES.items()}
GRAPH = {name: module_level_imports(tree) - {name} for name, tree in TREES.items()}


def reaches(start: str, goal: str) -> list[str] | None:
    """A module-level import path from start to goal, or None."""
    paths = {start: [start]}
    todo = [start]
    while todo:
        current = todo.pop()
        if current == goal:
            return paths[current]
        for following in GRAPH.get(current, ()):
            if following not in paths:
                paths[following] = [*paths[current], following]
                todo.append(following)
    return None


def test_there_are_modules_to_check() -> None:
    assert len(MODULES) > 100
    assert "pi_core.plugins.dispatch" in GRAPH["pi_core.plugins.manager"]


def test_no_module_level_import_circle() -> None:
    circles = []
    for name, imported in GRAPH.items():
        for module in imported:
            path = reaches(module, name)
            if path is not None:
                circles.append(" -> ".join([name, *path]))
    assert circles == []


def test_no_lazy_import_hides_a_circle() -> None:
    hidden = []
    for name, tree in TREES.items():
        for module, line in lazy_imports(tree):
            path = reaches(module, name) if module != name else None
            if path is not None:
                hidden.append(f"{MODULES[name].name}:{line}: " + " -> ".join([name, *path]))
    assert hidden == []


SESSION = "pi_core.agent_session.session"


def all_imports(tree: ast.Module) -> set[str]:
    """Every pi_core module a module names: at run time, lazily or for type checkers."""
    return {module for node in ast.walk(tree) for module in imports(node)}


def test_session_collaborators_do_not_import_the_session() -> None:
    """AgentSession hands its collaborators what they need; none reaches back to its module."""
    importers = {
        name
        for name, tree in TREES.items()
        if name.startswith("pi_core.agent_session.") and name != SESSION
        if SESSION in all_imports(tree)
    }
    assert importers == set()


def test_the_check_sees_type_checking_imports() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from pi_core.agent_session.session import AgentSession\n"
    )
    assert SESSION in all_imports(tree)


SMALL_PROTOCOL = 8


def protocol_sizes(tree: ast.Module) -> dict[str, int]:
    """Each Protocol class of a module and how many members it declares."""
    sizes = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and any("Protocol" in ast.unparse(b) for b in node.bases):
            members = [n for n in node.body if not isinstance(n, ast.Expr)]  # not the docstring
            sizes[node.name] = len(members)
    return sizes


def init_parameters(tree: ast.Module) -> dict[str, list[str]]:
    """Each class's `__init__` parameter names."""
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                    arguments = item.args.args + item.args.kwonlyargs
                    found[node.name] = [a.arg for a in arguments]
    return found


def test_session_collaborators_get_narrow_things() -> None:
    """No collaborator is handed the whole session, nor a protocol as wide as it."""
    helpers = {
        name: tree
        for name, tree in TREES.items()
        if name.startswith("pi_core.agent_session.") and name != SESSION
    }
    wide = [
        f"{name}.{cls} ({size} members)"
        for name, tree in helpers.items()
        for cls, size in protocol_sizes(tree).items()
        if size > SMALL_PROTOCOL
    ]
    assert wide == []
    given_the_session = [
        f"{name}.{cls}"
        for name, tree in helpers.items()
        for cls, parameters in init_parameters(tree).items()
        if "session" in parameters
    ]
    assert given_the_session == []


def test_the_narrowness_check_sees_wide_protocols() -> None:
    tree = ast.parse(
        "class Wide(Protocol):\n"
        '    """doc"""\n' + "".join(f"    def m{i}(self) -> None: ...\n" for i in range(9))
    )
    assert protocol_sizes(tree) == {"Wide": 9}
    assert init_parameters(ast.parse("class A:\n    def __init__(self, session): ...\n")) == {
        "A": ["self", "session"]
    }


RENAMED = {
    "pi_core.agent.abort": "pi_core.abort",
    "pi_core.agent.tools": "pi_core.agent.tool_calls",
    "pi_core.events.tools": "pi_core.events.tool_events",
    "pi_core.agent_session.events": "pi_core.agent_session.session_events",
    "pi_core.ai.registry": "pi_core.ai.model_registry",
    "pi_core.plugins.registry": "pi_core.plugins.registrations",
    "pi_core.plugins.loader": "pi_core.plugins.importing",
    "pi_core.resources.loader": "pi_core.resources.resource_loader",
    "pi_core.tools.execution": "pi_core.testing.tools",
}


def test_each_renamed_module_has_one_name() -> None:
    """A renamed module lives at its new path only: no re-exporting module keeps the old one."""
    assert [old for old in RENAMED if old in MODULES] == []
    assert [new for new in RENAMED.values() if new not in MODULES] == []
