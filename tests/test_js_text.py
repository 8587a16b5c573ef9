"""`pi_core.js_text`: JavaScript's white space, defined once and matching JavaScript itself.

`fixtures/js_whitespace.json` lists every code point JavaScript's `trim()` removes, recorded with
node -e 'const s=[];for(let c=0;c<=0x10ffff;c++){if(String.fromCodePoint(c).trim()==="")s.push(c)}
console.log(JSON.stringify(s))' > tests/fixtures/js_whitespace.json
"""

from __future__ import annotations

import json
from pathlib import Path

from pi_core.js_text import JS_WHITESPACE, js_trim, js_trim_end

ROOT = Path(__file__).resolve().parents[1]


def test_the_set_is_what_javascript_trims() -> None:
    recorded = json.loads((ROOT / "tests" / "fixtures" / "js_whitespace.json").read_text())
    assert sorted(map(ord, JS_WHITESPACE)) == recorded


def test_trim_and_trim_end_are_javascripts() -> None:
    assert js_trim("\ufeff\u00a0 text \u3000\n") == "text"
    assert js_trim("\x1ctext\x85") == "\x1ctext\x85"  # Python's strip() would remove these
    assert js_trim_end("\u2028 text \u205f\t") == "\u2028 text"


def test_the_set_is_written_down_once() -> None:
    sources = [*ROOT.glob("pi_core/**/*.py"), *ROOT.glob("plugins/*/src/**/*.py")]
    holders = sorted(
        str(path.relative_to(ROOT)) for path in sources if "\\u1680\\u2000" in path.read_text()
    )
    assert holders == ["pi_core/js_text.py"]
