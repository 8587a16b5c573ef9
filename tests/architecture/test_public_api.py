"""First-party plugins build on the public API only, and the public API is a short face."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# The documented public modules (docs/api.md). A facade with `__all__` exports exactly those names.
PUBLIC_MODULES = (
    "pi_core",
    "pi_core.abort",
    "pi_core.ai.http",
    "pi_core.ai.oauth",
    "pi_core.compaction",
    "pi_core.deep",
    "pi_core.events",
    "pi_core.js_text",
    "pi_core.hookspecs",
    "pi_core.messages",
    "pi_core.providers",
    "pi_core.session",
    "pi_core.terminal_text",
    "pi_core.testing",
    "pi_core.tools",
)


def core_imports(source: Path) -> list[tuple[str, str, int]]:
    """Return (module, name, line) for every import of pi_core in a file, at any depth."""
    found = []
    for node in ast.walk(ast.parse(source.read_text(), str(source))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] == "pi_core":
                found += [(node.module, alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "pi_core":
                    found.append((alias.name, "", node.lineno))
    return found


def public_names(module_name: str) -> set[str]:
    """The names a public module exports: its `__all__`, else its names without an underscore."""
    module = importlib.import_module(module_name)
    exported = getattr(module, "__all__", None)
    if exported is not None:
        return set(exported)
    return {name for name in vars(module) if not name.startswith("_")}


def private_imports(sources: list[Path]) -> list[str]:
    """Every import of a pi_core name that is not public, as `path:line: why`."""
    offences = []
    for source in sources:
        for module, name, line in core_imports(source):
            where = f"{source.relative_to(ROOT)}:{line}"
            if module not in PUBLIC_MODULES:
                offences.append(f"{where}: {module} is not a public module")
            elif name and name not in public_names(module):
                offences.append(f"{where}: {module} does not export {name}")
    return offences


def test_first_party_plugins_import_only_public_names() -> None:
    sources = sorted(ROOT.glob("plugins/*/src/**/*.py"))
    assert len(sources) > 20
    assert private_imports(sources) == []


def test_the_docs_examples_import_only_public_names() -> None:
    """What a plugin author copies from docs/ must hold to the rule their plugin should."""
    sources = sorted(ROOT.glob("docs/examples/**/*.py")) + sorted(
        ROOT.glob("docs/hook_examples/*.py")
    )
    assert len(sources) > 40
    assert ROOT / "docs" / "examples" / "keep_last_turns.py" in sources
    assert private_imports(sources) == []


# What one first-party plugin may import from another: its documented public modules.
PLUGIN_PUBLIC_MODULES = {
    "pi_plugin_tools": ("pi_plugin_tools", "pi_plugin_tools.api"),
}


def test_plugins_use_other_plugins_only_through_their_public_modules() -> None:
    offences = []
    for source in sorted(ROOT.glob("plugins/*/src/**/*.py")):
        own = source.relative_to(ROOT / "plugins").parts[2]
        for node in ast.walk(ast.parse(source.read_text(), str(source))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                modules = [node.module]
            elif isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            else:
                continue
            for module in modules:
                package = module.split(".")[0]
                if package == own or package not in PLUGIN_PUBLIC_MODULES:
                    continue
                if module not in PLUGIN_PUBLIC_MODULES[package]:
                    offences.append(f"{source.relative_to(ROOT)}:{node.lineno}: {module}")
    assert offences == []


def test_the_checker_catches_private_imports(tmp_path: Path) -> None:
    source = tmp_path / "plugin.py"
    source.write_text(
        "from pi_core.ai.builder import AssistantMessageBuilder\n"
        "def later():\n    import pi_core.agent_session.session\n"
    )
    modules = [module for module, _, _ in core_imports(source)]
    assert modules == ["pi_core.ai.builder", "pi_core.agent_session.session"]
    assert not set(modules) & set(PUBLIC_MODULES)


def test_every_public_facade_name_resolves() -> None:
    for module_name in PUBLIC_MODULES:
        module = importlib.import_module(module_name)
        for name in getattr(module, "__all__", ()):
            assert getattr(module, name) is not None, f"{module_name}.{name}"


def test_the_top_level_is_a_short_face() -> None:
    import pi_core

    assert len(pi_core.__all__) <= 60
    assert len(set(pi_core.__all__)) == len(pi_core.__all__)


def test_the_typed_and_the_lazy_exports_agree() -> None:
    import pi_core

    tree = ast.parse((ROOT / "pi_core" / "__init__.py").read_text())
    typed: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module
                for alias in statement.names:
                    assert alias.asname == alias.name, f"{alias.name} needs the `X as X` form"
                    typed[alias.name] = statement.module
    assert typed == pi_core._EXPORTS


def test_the_plugin_context_is_typed_without_any() -> None:
    for name in ("runtime.py", "context.py"):
        tree = ast.parse((ROOT / "pi_core" / "plugins" / name).read_text())
        names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
        attributes = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert "Any" not in names | attributes, name
