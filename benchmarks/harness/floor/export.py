"""`--export IN OUT`: the session parsed and carried, whole, by one self-contained page."""

from __future__ import annotations

import json

from .session import parse_lines


def export(source: str, target: str) -> int:
    """`--export IN OUT`: parse the session and write a self-contained page that carries it."""
    with open(source, "rb") as handle:
        entries = parse_lines(handle.read())
    data = json.dumps(entries, ensure_ascii=False, separators=(",", ":")).replace("</", "<\\/")
    script = (
        "const d=JSON.parse(document.getElementById('d').textContent);"
        "for(const e of d){const p=document.createElement('pre');"
        "p.textContent=JSON.stringify(e.message||e);document.body.append(p)}"
    )
    page = (
        "<!DOCTYPE html><html><head><meta charset=utf-8><meta http-equiv=Content-Security-Policy "
        "content=\"default-src 'none'; script-src 'unsafe-inline'\"><title>Session</title></head>"
        f"<body><script id=d type=application/json>{data}</script><script>{script}</script>"
        "</body></html>"
    )
    with open(target, "wb") as handle:
        handle.write(page.encode())
    return 0
