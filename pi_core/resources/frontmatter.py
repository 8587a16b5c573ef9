"""Splitting a markdown file into its YAML frontmatter and its body, the way pi does."""

from __future__ import annotations

from typing import Any

from pi_core.js_text import js_trim

__all__ = [
    "FrontmatterError",
    "parse_frontmatter",
    "split_frontmatter",
    "strip_frontmatter",
]


class FrontmatterError(ValueError):
    """Frontmatter that is not valid YAML; the message names the line and column."""


def _normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def split_frontmatter(content: str) -> tuple[str | None, str]:
    """Return (the YAML text or None, the body); the body is trimmed only after frontmatter."""
    normalized = _normalize_newlines(content)
    if not normalized.startswith("---"):
        return None, normalized
    end = normalized.find("\n---", 3)
    if end == -1:
        return None, normalized
    return normalized[4:end], js_trim(normalized[end + 4 :])


def parse_frontmatter(content: str) -> tuple[dict[str, Any], str]:
    """Return (frontmatter mapping, body); raise FrontmatterError when the YAML is invalid."""
    yaml_text, body = split_frontmatter(content)
    if not yaml_text:
        return {}, body
    from pi_core.resources.yaml_core import YamlError, load_yaml  # PyYAML only when needed

    try:
        data = load_yaml(yaml_text)
    except YamlError as error:
        raise FrontmatterError(str(error)) from None
    return (data if isinstance(data, dict) else {}), body


def strip_frontmatter(content: str) -> str:
    """Return the body without its frontmatter (trimmed when frontmatter was present)."""
    return split_frontmatter(content)[1]
