"""A small YAML reader for frontmatter: the subset skills and prompt templates use.

Handles block mappings and sequences, plain / quoted / block (`|`, `>`) scalars, flow collections,
comments, anchors and aliases, and the core schema's null, bool, int and float. Errors name the
line and column (relative to the YAML text) the way pi's `yaml` package does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from pi_core.resources.yaml_scalars import (
    ESCAPES,
    HEX_ESCAPES,
    YamlError,
    apply_tag,
    as_key,
    fold_block,
    resolve_plain,
    unescape,
    unquote_single,
)

__all__ = ["YamlError", "parse_yaml", "resolve_plain"]


@dataclass
class _Line:
    number: int  # 1-based
    indent: int
    text: str  # without the indentation


def parse_yaml(text: str) -> Any:
    """Parse a YAML document; raise YamlError for what this subset cannot read."""
    return _Parser(text).document()


class _Parser:
    def __init__(self, text: str) -> None:
        self.lines: list[_Line] = []
        self.anchors: dict[str, Any] = {}
        raw_lines = text.split("\n")
        if len(raw_lines) > 1 and raw_lines[-1] == "":
            raw_lines.pop()  # the line break ending the last line starts no new line
        for number, raw in enumerate(raw_lines, start=1):
            stripped = raw.lstrip(" ")
            if stripped.startswith("\t") and stripped.strip():
                raise YamlError("Tabs are not allowed as indentation", number, 1)
            self.lines.append(_Line(number, len(raw) - len(stripped), stripped))
        self.pos = 0

    # --- line helpers ---------------------------------------------------------------------

    def _skip_blank(self) -> None:
        while self.pos < len(self.lines) and _is_blank(self.lines[self.pos].text):
            self.pos += 1

    def _current(self) -> _Line | None:
        self._skip_blank()
        return self.lines[self.pos] if self.pos < len(self.lines) else None

    def document(self) -> Any:
        line = self._current()
        if line is None:
            return None
        value = self._block_node(line.indent, -1)
        rest = self._current()
        if rest is not None:
            raise YamlError("Unexpected content after the document", rest.number, rest.indent + 1)
        return value

    # --- block structure ------------------------------------------------------------------

    def _block_node(self, indent: int, parent_indent: int) -> Any:
        line = self.lines[self.pos]
        if line.text == "?" or line.text.startswith("? "):
            raise YamlError("Explicit keys (?) are not supported", line.number, line.indent + 1)
        if _is_sequence_item(line.text):
            return self._block_sequence(indent)
        if _find_mapping_colon(line.text) is not None:
            return self._block_mapping(indent)
        return self._inline_value(line, 0, parent_indent)

    def _block_mapping(self, indent: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        while (line := self._current()) is not None:
            if line.indent < indent:
                break
            if line.indent > indent or _is_sequence_item(line.text):
                raise YamlError("All mapping items must start at the same column", line.number, 1)
            colon = _find_mapping_colon(line.text)
            if colon is None:
                raise YamlError(
                    "Implicit map keys need to be followed by map values", line.number, 1
                )
            key = self._key(line, colon)
            if key in result:
                raise YamlError("Map keys must be unique", line.number, line.indent + 1)
            rest_start = colon + 1
            result[key] = self._mapping_value(line, rest_start, indent)
        return result

    def _key(self, line: _Line, colon: int) -> str:
        raw = line.text[:colon].rstrip()
        if raw[:1] in ("'", '"') and raw[-1:] == raw[:1] and len(raw) >= 2:
            return (
                unquote_single(raw[1:-1])
                if raw[0] == "'"
                else unescape(raw[1:-1], line.number, line.indent + 2)
            )
        return as_key(resolve_plain(raw))

    def _mapping_value(self, line: _Line, start: int, indent: int) -> Any:
        rest = line.text[start:]
        if _is_blank(rest):
            self.pos += 1
            nxt = self._current()
            if nxt is None:
                return None
            if nxt.indent > indent or (nxt.indent == indent and _is_sequence_item(nxt.text)):
                return self._block_node(nxt.indent, indent)
            return None
        return self._inline_value(line, start, indent)

    def _block_sequence(self, indent: int) -> list[Any]:
        result: list[Any] = []
        while (line := self._current()) is not None:
            if line.indent < indent:
                break
            if line.indent > indent or not _is_sequence_item(line.text):
                if line.indent == indent and _find_mapping_colon(line.text) is not None:
                    break  # a sibling key of a mapping whose value this sequence is
                raise YamlError(
                    "All collection items must start at the same column", line.number, 1
                )
            content = line.text[1:]
            offset = len(content) - len(content.lstrip(" "))
            if _is_blank(content):
                self.pos += 1
                nxt = self._current()
                if nxt is not None and nxt.indent > indent:
                    result.append(self._block_node(nxt.indent, indent))
                else:
                    result.append(None)
                continue
            # Re-read the item's content as a line of its own, indented where it starts.
            item_indent = indent + 1 + offset
            self.lines[self.pos] = _Line(line.number, item_indent, content.lstrip(" "))
            result.append(self._block_node(item_indent, indent))
        return result

    # --- values on a line -----------------------------------------------------------------

    def _inline_value(self, line: _Line, start: int, parent_indent: int) -> Any:
        text = line.text
        i = _skip_spaces(text, start)
        anchor: str | None = None
        tag: str | None = None
        while i < len(text) and text[i] in "&!":
            end = _token_end(text, i)
            if text[i] == "&":
                anchor = text[i + 1 : end]
            else:
                tag = text[i:end]
            i = _skip_spaces(text, end)
        if i >= len(text) or text[i] == "#":
            self.pos += 1
            nxt = self._current()
            value: Any = None
            if nxt is not None and nxt.indent > parent_indent:
                value = self._block_node(nxt.indent, parent_indent)
        else:
            value = self._scalar_or_flow(line, i, parent_indent)
        value = apply_tag(value, tag)
        if anchor:
            self.anchors[anchor] = value
        return value

    def _scalar_or_flow(self, line: _Line, i: int, parent_indent: int) -> Any:
        char = line.text[i]
        column = line.indent + i + 1
        if char == "*":
            end = _token_end(line.text, i)
            name = line.text[i + 1 : end]
            if name not in self.anchors:
                raise YamlError(f"Unresolved alias {name!r}", line.number, column)
            self._finish_line(self.pos, end)
            return self.anchors[name]
        if char in "|>":
            return self._block_scalar(line, i, parent_indent)
        if char in "[{" or char in "'\"":
            value, end_line, end_col = _FlowReader(self, self.pos, i, parent_indent).read()
            self._finish_line(end_line, end_col)
            return value
        if char in "@`":
            raise YamlError(
                f"Plain value cannot start with reserved character {char}", line.number, column
            )
        return self._plain_scalar(line, i, parent_indent)

    def _finish_line(self, index: int, col: int) -> None:
        """Check nothing but a comment follows a value ending at `col`; move to the next line."""
        line = self.lines[index]
        rest = line.text[col:]
        stripped = rest.lstrip(" \t")
        if stripped and not (stripped.startswith("#") and rest != stripped):
            column = line.indent + col + len(rest) - len(stripped) + 1
            raise YamlError("Unexpected scalar at node end", line.number, column)
        self.pos = index + 1

    def _plain_scalar(self, line: _Line, i: int, parent_indent: int) -> Any:
        first, comment = _plain_segment(line.text[i:])
        if parent_indent >= 0 and _is_sequence_item(first):
            raise YamlError(
                "Unexpected block-seq-ind on same line with key", line.number, line.indent + i + 1
            )
        if ": " in first or first.endswith(":"):
            raise YamlError(
                "Nested mappings are not allowed in compact mappings",
                line.number,
                line.indent + i + 1,
            )
        parts = [first]
        self.pos += 1
        blank_run = 0
        while not comment and self.pos < len(self.lines):
            nxt = self.lines[self.pos]
            if _is_blank(nxt.text) and not nxt.text.lstrip(" ").startswith("#"):
                blank_run += 1
                self.pos += 1
                continue
            if nxt.indent <= parent_indent or nxt.text.startswith("#"):
                break
            if _find_mapping_colon(nxt.text) is not None:
                raise YamlError(
                    "Nested mappings are not allowed in compact mappings", nxt.number, 1
                )
            segment, comment = _plain_segment(nxt.text)
            parts.append("\n" * blank_run if blank_run else " ")
            parts.append(segment)
            blank_run = 0
            self.pos += 1
        if len(parts) == 1:
            return resolve_plain(first)
        return "".join(parts)

    def _block_scalar(self, line: _Line, i: int, parent_indent: int) -> str:
        header = line.text[i:]
        match = re.match(r"([|>])([+-]?)([1-9]?)([+-]?)(\s+#.*)?\s*$", header)
        if match is None:
            raise YamlError("Invalid block scalar header", line.number, line.indent + i + 1)
        folded = match.group(1) == ">"
        chomp = match.group(2) or match.group(4)
        explicit = int(match.group(3)) if match.group(3) else None
        self.pos += 1
        content_indent = None if explicit is None else max(parent_indent, 0) + explicit
        raw_lines: list[tuple[_Line, str]] = []
        while self.pos < len(self.lines):
            nxt = self.lines[self.pos]
            if nxt.text.strip(" \t") == "":
                raw_lines.append((nxt, ""))
                self.pos += 1
                continue
            if content_indent is None:
                if nxt.indent <= parent_indent:
                    break
                content_indent = nxt.indent
            if nxt.indent < content_indent:
                break
            raw_lines.append((nxt, " " * (nxt.indent - content_indent) + nxt.text))
            self.pos += 1
        return fold_block([text for _, text in raw_lines], folded, chomp)


class _FlowReader:
    """Reads a flow collection or a quoted scalar that may span several lines."""

    def __init__(self, parser: _Parser, index: int, col: int, parent_indent: int) -> None:
        self.parser = parser
        self.index = index
        self.col = col
        self.parent_indent = parent_indent

    # cursor helpers
    def _line(self) -> _Line:
        return self.parser.lines[self.index]

    def _peek(self) -> str:
        text = self._line().text
        return text[self.col] if self.col < len(text) else "\n"

    def _error(self, message: str) -> YamlError:
        line = self._line()
        return YamlError(message, line.number, line.indent + self.col + 1)

    def _next_line(self, message: str) -> None:
        lines = self.parser.lines
        if self.index + 1 >= len(lines):
            self.col = len(self._line().text)
            raise self._error(message)
        self.index += 1
        self.col = 0
        line = self._line()
        closing = line.text.startswith(("]", "}"))
        if line.indent <= self.parent_indent and not _is_blank(line.text) and not closing:
            raise YamlError(message, line.number, 1)

    def _skip_space(self, message: str) -> None:
        while True:
            char = self._peek()
            if char == " ":
                self.col += 1
            elif char == "#" and (self.col == 0 or self._line().text[self.col - 1] == " "):
                self.col = len(self._line().text)
            elif char == "\n":
                self._next_line(message)
            else:
                return

    def read(self) -> tuple[Any, int, int]:
        value = self._value(None)
        return value, self.index, self.col

    def _value(self, closer: str | None) -> Any:
        char = self._peek()
        if char == "[":
            return self._sequence()
        if char == "{":
            return self._mapping()
        if char in "'\"":
            return self._quoted(char)
        return self._plain(closer)

    def _sequence(self) -> list[Any]:
        message = "Flow sequence in block collection must be sufficiently indented and end with a ]"
        self.col += 1
        items: list[Any] = []
        while True:
            self._skip_space(message)
            if self._peek() == "]":
                self.col += 1
                return items
            item = self._value("]")
            self._skip_space(message)
            if self._peek() == ":":
                self.col += 1
                self._skip_space(message)
                item = {as_key(item): self._value("]")}
                self._skip_space(message)
            items.append(item)
            if self._peek() == ",":
                self.col += 1
            elif self._peek() != "]":
                raise self._error(message)

    def _mapping(self) -> dict[str, Any]:
        message = "Flow map in block collection must be sufficiently indented and end with a }"
        self.col += 1
        result: dict[str, Any] = {}
        while True:
            self._skip_space(message)
            if self._peek() == "}":
                self.col += 1
                return result
            key = as_key(self._value("}"))
            self._skip_space(message)
            value: Any = None
            if self._peek() == ":":
                self.col += 1
                self._skip_space(message)
                value = None if self._peek() in ",}" else self._value("}")
                self._skip_space(message)
            result[key] = value
            if self._peek() == ",":
                self.col += 1
            elif self._peek() != "}":
                raise self._error(message)

    def _plain(self, closer: str | None) -> Any:
        text = self._line().text
        start = self.col
        stops = ",[]{}" if closer else ""
        while self.col < len(text):
            char = text[self.col]
            if char in stops:
                break
            if char == ":" and (self.col + 1 >= len(text) or text[self.col + 1] in " ,]}"):
                break
            if char == "#" and self.col > start and text[self.col - 1] == " ":
                break
            self.col += 1
        raw = text[start : self.col].rstrip(" ")
        if not raw and closer:
            raise self._error("Unexpected flow-seq-end token")
        return resolve_plain(raw)

    def _quoted(self, quote: str) -> str:
        message = f"Missing closing {quote}quote"
        self.col += 1
        pieces: list[str] = []
        current: list[str] = []
        while True:
            text = self._line().text
            if self.col >= len(text):
                pieces.append("".join(current).rstrip(" \t"))
                current = []
                blanks = 0
                while True:
                    try:
                        self._next_line(message)
                    except YamlError:
                        raise self._error(message) from None
                    if _is_blank(self._line().text):
                        blanks += 1
                        continue
                    break
                pieces.append("\n" * blanks if blanks else " ")
                continue
            char = text[self.col]
            if char == quote:
                if quote == "'" and text[self.col + 1 : self.col + 2] == "'":
                    current.append("'")
                    self.col += 2
                    continue
                self.col += 1
                pieces.append("".join(current))
                return "".join(pieces)
            if quote == '"' and char == "\\":
                if self.col + 1 >= len(text):  # escaped line break: join without a space
                    pieces.append("".join(current))
                    current = []
                    self._next_line(message)
                    self.col = 0
                    line_text = self._line().text
                    while self.col < len(line_text) and line_text[self.col] in " \t":
                        self.col += 1
                    continue
                code = text[self.col + 1]
                if code in HEX_ESCAPES:
                    width = HEX_ESCAPES[code]
                    digits = text[self.col + 2 : self.col + 2 + width]
                    if len(digits) != width or not re.fullmatch(r"[0-9a-fA-F]+", digits):
                        raise self._error(f"Invalid escape sequence \\{code}{digits}")
                    current.append(chr(int(digits, 16)))
                    self.col += 2 + width
                    continue
                if code not in ESCAPES:
                    raise self._error(f"Invalid escape sequence \\{code}")
                current.append(ESCAPES[code])
                self.col += 2
                continue
            current.append(char)
            self.col += 1


def _plain_segment(text: str) -> tuple[str, bool]:
    """Return a plain scalar's text on one line and whether a comment ended it."""
    match = re.search(r"(^|\s)#", text)
    if match is not None:
        return text[: match.start()].strip(" "), True
    return text.strip(" "), False


def _is_blank(text: str) -> bool:
    stripped = text.strip(" \t")
    return stripped == "" or stripped.startswith("#")


def _is_sequence_item(text: str) -> bool:
    return text == "-" or text.startswith(("- ", "-\t"))


def _find_mapping_colon(text: str) -> int | None:
    """Return the index of the `:` ending an implicit key on this line, if there is one."""
    if text[:1] in ("'", '"'):
        quote = text[0]
        i = 1
        while i < len(text):
            if text[i] == quote:
                if quote == "'" and text[i + 1 : i + 2] == "'":
                    i += 2
                    continue
                break
            i += 2 if (quote == '"' and text[i] == "\\") else 1
        rest = text[i + 1 :].lstrip(" ")
        if rest.startswith(":") and (len(rest) == 1 or rest[1] in " \t"):
            return i + 1 + (len(text[i + 1 :]) - len(rest))
        return None
    if text[:1] in ("[", "{", "#", "|", ">", "&", "*", "!") or _is_sequence_item(text):
        return None
    for match in re.finditer(r":(?=\s|$)", text):
        before = text[: match.start()]
        if re.search(r"(^|\s)#", before):
            return None
        return match.start()
    return None


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _token_end(text: str, i: int) -> int:
    while i < len(text) and text[i] not in " \t,[]{}":
        i += 1
    return i
