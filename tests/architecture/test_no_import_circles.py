"""No import circle in pi_core or a first-party plugin, counting every import the code names.

A type-only import (`if TYPE_CHECKING:`) and an import inside a function are edges too: they do
not fail at run time, but they still tie the modules into one knot a reader has to hold at once.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def package_roots() -> list[Path]:
    """The core package and every first-party plugin's src package."""
    return [ROOT / "pi_core", *sorted(ROOT.glob("plugins/*/src/*/"))]


def module_files(roots: list[Path]) -> dict[str, Path]:
    """Map each module's dotted name to its file."""
    modules = {}
    for root in roots:
        for path in root.rglob("*.py"):
            parts = path.relative_to(root.parent).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


@dataclass(frozen=True)
class Edge:
    """One import: who imports what, and where it says so."""

    source: str
    target: str
    line: int
    text: str

    def describe(self, files: dict[str, Path]) -> str:
        """The edge as `file:line: import statement` a reader can jump to."""
        path = files[self.source]
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        return f"{shown}:{self.line}: {self.text}"


def resolve(modules: dict[str, Path], module: str, name: str) -> str | None:
    """The known module `from module import name` loads: a submodule if name is one."""
    if f"{module}.{name}" in modules:
        return f"{module}.{name}"
    while module not in modules and "." in module:
        module = module.rsplit(".", 1)[0]
    return module if module in modules else None


def absolute(importer: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module name of a (possibly relative) `from … import`."""
    if node.level == 0:
        return node.module or ""
    base = importer.split(".") if is_package else importer.split(".")[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def edges_of(name: str, path: Path, modules: dict[str, Path]) -> Iterator[Edge]:
    """Every import of a known module in one file, at any depth, type-only ones included."""
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        targets: list[str | None] = []
        if isinstance(node, ast.ImportFrom):
            module = absolute(name, path.name == "__init__.py", node)
            targets = [resolve(modules, module, alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            targets = [resolve(modules, alias.name, "") for alias in node.names]
        for found in targets:
            if found is not None and found != name:
                yield Edge(name, found, node.lineno, ast.unparse(node))


def build_graph(modules: dict[str, Path]) -> dict[str, dict[str, Edge]]:
    """For each module, the modules it imports and the first line that imports each."""
    graph: dict[str, dict[str, Edge]] = {name: {} for name in modules}
    for name, path in modules.items():
        for edge in edges_of(name, path, modules):
            graph[name].setdefault(edge.target, edge)
    return graph


def circles(graph: dict[str, dict[str, Edge]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, following = work[-1]
            child = next(following, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))

    for name in sorted(graph):
        if name not in index:
            visit(name)
    return found


def report(component: list[str], graph: dict[str, dict[str, Edge]], files: dict[str, Path]) -> str:
    """A circle's modules, then one import line for each edge between them."""
    members = set(component)
    lines = [f"import circle of {len(component)} modules: {', '.join(component)}"]
    for name in component:
        for target in sorted(set(graph[name]) & members):
            edge = graph[name][target]
            lines.append(f"  {name} -> {target}  ({edge.describe(files)})")
    return "\n".join(lines)


MODULES = module_files(package_roots())
GRAPH = build_graph(MODULES)


def test_every_package_is_read() -> None:
    """The check covers the core and each first-party plugin, type-only imports included."""
    assert len(MODULES) > 100
    assert {"pi_plugin_tools", "pi_plugin_claude", "pi_plugin_mcp"} <= set(MODULES)
    plugin_runtime = GRAPH["pi_core.plugins.manager"]
    assert "pi_core.plugins.dispatch" in plugin_runtime


def test_no_import_circle() -> None:
    """No module reaches itself through imports, at run time, lazily or for type checkers."""
    found = [report(c, GRAPH, MODULES) for c in circles(GRAPH)]
    assert not found, "\n\n".join(found)


Graph = dict[str, dict[str, Edge]]


def graph_of(sources: dict[str, str], tmp_path: Path) -> tuple[dict[str, Path], Graph]:
    """Write a small package and read its graph as the check reads the real ones."""
    files = {}
    for name, text in sources.items():
        path = tmp_path / Path(*name.split(".")).with_suffix(".py")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        files[name] = path
    return files, build_graph(files)


def test_the_check_sees_type_only_lazy_and_relative_imports(tmp_path: Path) -> None:
    files, graph = graph_of(
        {
            "pkg.a": "if TYPE_CHECKING:\n    from pkg.b import B\n",
            "pkg.b": "def f():\n    from .c import C\n",
            "pkg.c": "import pkg.a\n",
            "pkg.d": "from pkg import a\n",
        },
        tmp_path,
    )
    assert circles(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
    message = report(["pkg.a", "pkg.b", "pkg.c"], graph, files)
    assert "pkg.a -> pkg.b" in message and "from pkg.b import B" in message
    assert "pkg.b -> pkg.c" in message and "from .c import C" in message
