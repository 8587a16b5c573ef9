"""The registry entry's `icon.svg` follows the ACP registry's icon rules.

The rules, from the registry's CONTRIBUTING.md (Icon Validation; source in tests/data/SOURCE.md):
an `icon.svg` beside `agent.json`, exactly 16x16 (by `width`/`height` or `viewBox`), square, and
monochrome: every `fill` and `stroke` is `currentColor`, `none` or `inherit`, no hard-coded colour.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ICON = Path(__file__).resolve().parents[1] / "acp-registry" / "pi-harness" / "icon.svg"
SVG = "{http://www.w3.org/2000/svg}"
ALLOWED_PAINT = {"currentcolor", "none", "inherit"}
COLOUR = re.compile(r"#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?)\(", re.IGNORECASE)


def paints(element: ET.Element) -> list[str]:
    """The element's fill and stroke values, from attributes and from its `style`."""
    found = [element.attrib[name] for name in ("fill", "stroke") if name in element.attrib]
    for declaration in element.attrib.get("style", "").split(";"):
        name, _, value = declaration.partition(":")
        if name.strip() in ("fill", "stroke"):
            found.append(value.strip())
    return found


def icon_problems(text: str) -> list[str]:
    """Why the registry would refuse this SVG text (empty when it is accepted)."""
    root = ET.fromstring(text)
    if root.tag != f"{SVG}svg":
        return ["the root element is not an SVG <svg>"]
    problems = []
    size = (root.get("width"), root.get("height"))
    view_box = (root.get("viewBox") or "").split()
    if size != ("16", "16") and view_box[2:] != ["16", "16"]:
        problems.append(f"not 16x16: width/height {size}, viewBox {view_box}")
    if size[0] != size[1]:
        problems.append(f"not square: {size}")
    drawn = False
    for element in root.iter():
        for paint in paints(element):
            if paint.lower() not in ALLOWED_PAINT:
                problems.append(f"<{element.tag.removeprefix(SVG)}> is painted {paint!r}")
            drawn = drawn or paint.lower() == "currentcolor"
        for name, value in element.attrib.items():
            if name not in ("fill", "stroke", "style") and COLOUR.search(value):
                problems.append(f"a hard-coded colour in {name}={value!r}")
    if not drawn:
        problems.append("nothing is drawn in currentColor")
    return problems


def test_the_icon_follows_the_registrys_rules() -> None:
    assert icon_problems(ICON.read_text()) == []


@pytest.mark.parametrize(
    ("svg", "problem"),
    [
        ('<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24">'
         '<path fill="currentColor" d="M0 0h1v1z"/></svg>', "not 16x16"),
        ('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16">'
         '<path fill="#ff0000" d="M0 0h1v1z"/></svg>', "painted '#ff0000'"),
        ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">'
         '<path style="stroke: red" fill="none" d="M0 0h1v1z"/></svg>', "painted 'red'"),
        ('<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16">'
         '<path d="M0 0h1v1z"/></svg>', "nothing is drawn in currentColor"),
    ],
)  # fmt: skip
def test_the_check_refuses_what_the_registry_refuses(svg: str, problem: str) -> None:
    assert any(problem in found for found in icon_problems(svg))
