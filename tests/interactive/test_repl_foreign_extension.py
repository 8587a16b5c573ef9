"""The REPL does not start with a project TypeScript extension (it may be a gate)."""

from __future__ import annotations

from tests.interactive.conftest import Screen


def test_the_repl_stops_on_a_project_typescript_extension(screen: Screen) -> None:
    gate = screen.cwd / ".pi" / "extensions" / "gate.ts"
    gate.parent.mkdir(parents=True)
    gate.write_text("export default function (pi) {}\n")
    screen.start()
    text = screen.wait_for("EXIT=")
    assert "EXIT=1" in text
    assert "gate.ts" in text and "TypeScript/JavaScript extensions do not run here" in text
    assert "--block-plugin gate" in text
    assert screen.server.requests == []
