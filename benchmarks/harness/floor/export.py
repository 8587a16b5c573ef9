"""`--export IN OUT`: the session checked and carried, whole, by one self-contained page."""

from __future__ import annotations

import base64
import hashlib

from .session import check_lines

# The page's only script: it renders the embedded entries (a floor renders no markdown).
SCRIPT = (
    "const d=JSON.parse(document.getElementById('d').textContent);"
    "for(const e of d){const p=document.createElement('pre');"
    "p.textContent=JSON.stringify(e.message||e);document.body.append(p)}"
)


def export(source: str, target: str) -> int:
    """Parse every line (the page must carry valid JSON), then write the lines as one array in a
    page whose CSP allows that one script by its hash and nothing else."""
    with open(source, "rb") as handle:
        lines = [line for line in handle.read().split(b"\n") if line]
    check_lines(lines)
    digest = base64.b64encode(hashlib.sha256(SCRIPT.encode()).digest()).decode()
    head = (
        "<!DOCTYPE html><html><head><meta charset=utf-8><meta http-equiv=Content-Security-Policy "
        f"content=\"default-src 'none'; script-src 'sha256-{digest}'\"><title>Session</title>"
        "</head><body><script id=d type=application/json>["
    )
    tail = f"]</script><script>{SCRIPT}</script></body></html>"
    with open(target, "wb") as handle:
        handle.write(head.encode())
        handle.write(b",".join(lines).replace(b"</", b"<\\/"))
        handle.write(tail.encode())
    return 0
