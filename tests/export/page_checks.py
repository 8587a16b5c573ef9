"""Reading an exported page back: its scripts, its attributes, its entry templates and data."""

from __future__ import annotations

import base64
import gzip
import json
import re
from html.parser import HTMLParser
from typing import Any


class PageParser(HTMLParser):
    """Collects every tag with its attributes, and the text of each script element."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self._script: dict[str, str | None] | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))
        if tag == "script":
            self._script, self._text = dict(attrs), []

    def handle_endtag(self, tag: str) -> None:
        if tag == "script" and self._script is not None:
            self.scripts.append((self._script, "".join(self._text)))
            self._script = None

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self._text.append(data)


def parse(page: str) -> PageParser:
    """Parse the page."""
    parser = PageParser()
    parser.feed(page)
    parser.close()
    return parser


def tree_data(page: str) -> dict[str, Any]:
    """The sidebar's data the page embeds."""
    for attrs, text in parse(page).scripts:
        if attrs.get("id") == "session-tree":
            data: dict[str, Any] = json.loads(text)
            return data
    raise AssertionError("no session-tree data in the page")


def embedded_jsonl(page: str) -> bytes:
    """The original JSONL the download button saves: gzipped, or else the escaped lines."""
    scripts = {attrs.get("id"): text for attrs, text in parse(page).scripts}
    if scripts.get("session-jsonl"):
        return gzip.decompress(base64.b64decode(scripts["session-jsonl"]))
    if "session-lines" in scripts:
        return scripts["session-lines"].replace("\\u003C", "<").encode()
    raise AssertionError("no JSONL in the page")


def templates(page: str) -> dict[str, str]:
    """Entry id → the entry's rendered HTML."""
    found = re.findall(r'<template data-id="([^"]*)">(.*?)</template>', page, re.S)
    import html

    return {html.unescape(entry_id): body for entry_id, body in found}
