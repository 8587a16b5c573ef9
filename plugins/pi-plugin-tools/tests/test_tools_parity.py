"""Same answers as pi 0.73.1's own code on random inputs: truncation, edit matching, the diff,
and ls ordering. Runs only where node and the pi package are present (PI_REFERENCE_PACKAGE)."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pi_plugin_tools.collate import collation_key
from pi_plugin_tools.edit_diff import EditError, apply_edits
from pi_plugin_tools.line_diff import generate_diff_string
from pi_plugin_tools.truncate import format_size, truncate_head, truncate_tail

PACKAGE = Path(
    os.environ.get("PI_REFERENCE_PACKAGE", "/tmp/piref/node_modules/@mariozechner/pi-coding-agent")
)
TOOLS = PACKAGE / "dist" / "core" / "tools"

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or not TOOLS.is_dir(),
    reason="needs node and pi 0.73.1 (set PI_REFERENCE_PACKAGE)",
)

SCRIPT = """
const [tools, casesPath] = process.argv.slice(2);
const fs = await import("node:fs");
const t = await import(`${tools}/truncate.js`);
const d = await import(`${tools}/edit-diff.js`);
const c = JSON.parse(fs.readFileSync(casesPath, "utf-8"));
const apply = ([content, edits]) => {
  try {
    const edit = edits.map(([oldText, newText]) => ({ oldText, newText }));
    const r = d.applyEditsToNormalizedContent(content, edit, "f.txt");
    return { ok: [r.baseContent, r.newContent] };
  } catch (e) { return { err: e.message }; }
};
console.log(JSON.stringify({
  truncate: c.truncate.map(([s, l, b, n]) => [
    t.truncateHead(s, { maxLines: l, maxBytes: b }),
    t.truncateTail(s, { maxLines: l, maxBytes: b }),
    t.formatSize(n),
  ]),
  apply: c.apply.map(apply),
  diff: c.diff.map(([a, b]) => d.generateDiffString(a, b)),
  sort: [...c.sort].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
}));
"""


def _cases(rng: random.Random) -> dict[str, Any]:
    pieces = ["a", "bb", "\n", "é", "€", "x" * 7]
    truncate = [
        [
            "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40))),
            rng.randint(1, 8),
            rng.randint(1, 30),
            rng.randint(0, 5_000_000),
        ]
        for _ in range(300)
    ]
    alphabet = ["a", "b", " ", "\n", "\u2019", "'", "\u201c", '"', "\u2014", "-", "\u00a0", "\t"]
    apply = []
    for _ in range(600):
        content = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 25)))
        edits = []
        for _ in range(rng.randint(1, 3)):
            if content and rng.random() < 0.7:
                start = rng.randrange(len(content))
                old = content[start : start + rng.randint(0, 6)]
                if rng.random() < 0.3:
                    old = old.replace("\u2019", "'").replace(" ", "\u00a0")
            else:
                old = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3)))
            edits.append([old, "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3)))])
        apply.append([content, edits])
    words = ["a", "b", "c", "x"]
    diff = []
    for _ in range(300):
        old = [rng.choice(words) for _ in range(rng.randint(0, 40))]
        new = list(old)
        for _ in range(rng.randint(1, 4)):
            if new and rng.random() < 0.5:
                new[rng.randrange(len(new))] = rng.choice(words) + "!"
            else:
                new.insert(rng.randint(0, len(new)), rng.choice(words))
        diff.append(["\n".join(old) + rng.choice(["", "\n"]), "\n".join(new)])
    names = [*"aAbBzZ019_-.~ é$#@(", "ö", "É"]
    sort = sorted(
        {"".join(rng.choice(names) for _ in range(rng.randint(1, 5))) for _ in range(300)}
    )
    return {"truncate": truncate, "apply": apply, "diff": diff, "sort": sort}


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], dict[str, Any]]:
    """Random cases, and pi's answers to them."""
    folder = tmp_path_factory.mktemp("parity")
    cases = _cases(random.Random(7))
    (folder / "cases.json").write_text(json.dumps(cases))
    (folder / "run.mjs").write_text(SCRIPT)
    output = subprocess.run(
        ["node", str(folder / "run.mjs"), str(TOOLS), str(folder / "cases.json")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return cases, json.loads(output)


def test_truncation_matches_pi(reference: tuple[dict[str, Any], dict[str, Any]]) -> None:
    cases, answers = reference
    for (text, lines, size, number), (head, tail, formatted) in zip(
        cases["truncate"], answers["truncate"], strict=True
    ):
        assert truncate_head(text, lines, size).model_dump(by_alias=True) == head
        assert truncate_tail(text, lines, size).model_dump(by_alias=True) == tail
        assert format_size(number) == formatted


def test_edit_matching_matches_pi(reference: tuple[dict[str, Any], dict[str, Any]]) -> None:
    cases, answers = reference
    for (content, edits), expected in zip(cases["apply"], answers["apply"], strict=True):
        try:
            got: dict[str, Any] = {"ok": list(apply_edits(content, edits, "f.txt"))}
        except EditError as error:
            got = {"err": str(error)}
        assert got == expected, (content, edits)


def test_diff_matches_pi(reference: tuple[dict[str, Any], dict[str, Any]]) -> None:
    cases, answers = reference
    for (old, new), expected in zip(cases["diff"], answers["diff"], strict=True):
        diff, first = generate_diff_string(old, new)
        assert (diff, first) == (expected["diff"], expected.get("firstChangedLine"))


def test_ls_order_matches_pi(reference: tuple[dict[str, Any], dict[str, Any]]) -> None:
    cases, answers = reference
    ours = [name.lower() for name in sorted(cases["sort"], key=collation_key)]
    assert ours == [name.lower() for name in answers["sort"]]
