"""Markdown laid out as pi lays it out: blocks, spacing, lists, fenced code, tables, links.

The source is parsed with markdown-it (CommonMark plus tables and strikethrough) and each block
becomes rich `Text` lines wrapped to the width. Spacing follows pi: one blank line between two
blocks, except after a list, and between a paragraph and the list right under it; blank lines in
the source collapse to one. Line breaks inside a paragraph are kept as lines.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style
from rich.text import Text

if TYPE_CHECKING:
    from markdown_it.tree import SyntaxTreeNode

    from pi_core.modes.interactive.theme import Theme

# pi's theme tokens for markdown and the dark theme's colours, used when a theme lacks one
COLOURS = {
    "mdHeading": "#f0c674",
    "mdLink": "#81a2be",
    "mdLinkUrl": "#666666",
    "mdCode": "#8abeb7",
    "mdCodeBlockBorder": "#808080",
    "mdListBullet": "#8abeb7",
    "mdQuote": "#808080",
    "mdQuoteBorder": "#808080",
    "mdHr": "#808080",
}
CODE_THEME = "monokai"
MAX_UNBROKEN_CELL = 30  # a column is never made wider than this to keep a word whole
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_LIST_TYPES = ("bullet_list", "ordered_list")


@dataclass(frozen=True)
class MarkdownOptions:
    """How a text is drawn: base style, code block indent, OSC 8 links, the theme's colours."""

    style: str = ""
    code_indent: str = "  "
    hyperlinks: bool = False
    colours: Mapping[str, str] = field(default_factory=dict)  # md* theme token → rich style

    def colour(self, token: str, extra: str = "") -> Style:
        """The style of a markdown theme token, with `extra` attributes (bold, italic…)."""
        chosen = self.colours.get(token) or COLOURS[token]
        return Style.parse(f"{extra} {chosen}".strip())


def chat_options(code_indent: str, theme: Theme) -> MarkdownOptions:
    """Options for the chat: the `markdown.codeBlockIndent` setting, OSC 8 links where shown,
    the md* colours of the theme (read at each render: a theme switch recolours later text)."""
    from pi_core.modes.interactive.hyperlinks import supports_hyperlinks

    linked = theme.color and supports_hyperlinks()
    return MarkdownOptions(code_indent=code_indent, hyperlinks=linked, colours=_Live(theme))


class _Live(Mapping[str, str]):
    """A theme's current styles as a mapping (the theme swaps its table when switched)."""

    def __init__(self, theme: Theme) -> None:
        self.theme = theme

    def __getitem__(self, key: str) -> str:
        return self.theme.styles[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.theme.styles)

    def __len__(self) -> int:
        return len(self.theme.styles)


@functools.cache
def _parser() -> Any:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


class MarkdownView:
    """A rich renderable: markdown source drawn with pi's layout."""

    def __init__(self, source: str, options: MarkdownOptions) -> None:
        self.source = source
        self.options = options

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """One `Text` per screen row."""
        yield from markdown_lines(self.source, options.max_width, self.options, console)


def markdown_lines(
    source: str, width: int, options: MarkdownOptions, console: Console | None = None
) -> list[Text]:
    """The rows of `source` at `width` (empty when there is no text)."""
    from markdown_it.tree import SyntaxTreeNode

    if not source.strip():
        return []
    console = console or Console(width=width, emoji=False, highlight=False)
    source = source.replace("\t", "   ")
    tree = SyntaxTreeNode(_parser().parse(source))
    renderer = _Renderer(options, console, source.split("\n"))
    rows: list[Text] = []
    for line in renderer.blocks(tree.children, max(1, width)):
        rows += _wrap(line, max(1, width), console)
    return rows


def _wrap(line: Text, width: int, console: Console) -> list[Text]:
    if not line.plain:
        return [line]
    if "\n" not in line.plain and cell_len(line.plain) <= width:
        return [line]
    return list(line.wrap(console, width, overflow="fold", no_wrap=False))


class _Renderer:
    """Walks the block tree and produces unwrapped lines (a line may hold newlines)."""

    def __init__(self, options: MarkdownOptions, console: Console, source: list[str]) -> None:
        self.options = options
        self.source = source
        self.console = console
        self.base = Style.parse(options.style) if options.style else Style()

    def blocks(self, nodes: list[SyntaxTreeNode], width: int) -> Iterator[Text]:
        """The lines of a sequence of blocks with pi's spacing between them."""
        for index, node in enumerate(nodes):
            yield from self.block(node, width)
            following = nodes[index + 1] if index + 1 < len(nodes) else None
            if following is not None and self.spaced(node, following):
                yield Text()

    def spaced(self, node: SyntaxTreeNode, following: SyntaxTreeNode) -> bool:
        """Whether a blank row separates two sibling blocks, as pi spaces them."""
        above = following.map[0] - 1 if following.map else -1
        if 0 <= above < len(self.source) and not self.source[above].strip(" >"):
            return True  # blank lines in the source: one blank row
        if node.type in _LIST_TYPES:
            return False
        return not (node.type == "paragraph" and following.type in _LIST_TYPES)

    def block(self, node: SyntaxTreeNode, width: int) -> Iterator[Text]:
        """The lines of one block."""
        kind = node.type
        if kind == "paragraph":
            yield self.inline(node)
        elif kind == "heading":
            yield self.heading(node)
        elif kind in ("fence", "code_block"):
            yield from self.code(node)
        elif kind in _LIST_TYPES:
            yield from self.items(node, 0, width)
        elif kind == "blockquote":
            yield from self.quote(node, width)
        elif kind == "hr":
            yield Text("─" * min(width, 80), style=self.options.colour("mdHr"))
        elif kind == "table":
            yield from self.table(node, width)
        elif kind == "html_block":
            yield Text(node.content.strip(), style=self.base)
        else:
            yield Text(node.content.rstrip("\n"), style=self.base)

    def heading(self, node: SyntaxTreeNode) -> Text:
        """`#` and `##` as styled text; deeper levels keep their `###` marks."""
        level = int(node.tag[1:]) if node.tag[1:].isdigit() else 1
        style = self.options.colour("mdHeading", "bold underline" if level == 1 else "bold")
        text = Text(style=style)
        if level >= 3:
            text.append("#" * level + " ")
        text.append_text(self.inline(node, style))
        return text

    def code(self, node: SyntaxTreeNode) -> Iterator[Text]:
        """A fenced block: its fences visible, each line indented and highlighted."""
        from rich.syntax import Syntax

        language = (node.info or "").strip().split(" ")[0]
        yield Text("```" + language, style=self.options.colour("mdCodeBlockBorder"))
        code = node.content[:-1] if node.content.endswith("\n") else node.content
        syntax = Syntax("", language or "text", theme=CODE_THEME, background_color="default")
        highlighted = syntax.highlight(code)
        highlighted.remove_suffix("\n")
        for line in highlighted.split("\n", allow_blank=True):
            row = Text(self.options.code_indent)
            row.append_text(line)
            yield row
        yield Text("```", style=self.options.colour("mdCodeBlockBorder"))

    def items(self, node: SyntaxTreeNode, depth: int, width: int) -> Iterator[Text]:
        """Bullets as `- `, numbers as `N. ` from the list's start; nested lists two deeper."""
        indent = "  " * depth
        start = int(str(node.attrs.get("start", 1))) if node.type == "ordered_list" else 1
        for index, item in enumerate(node.children):
            bullet = f"{start + index}. " if node.type == "ordered_list" else "- "
            marker = self.options.colour("mdListBullet")
            first = True
            for part in item.children:
                if part.type in _LIST_TYPES:
                    # pi's nested list: its own indent, under the item's text
                    for line in self.items(part, depth + 1, width):
                        yield Text(indent + "  ") + line
                    first = False
                    continue
                for line in self.block(part, width):
                    row = Text(indent)
                    row.append(
                        bullet if first else "  ",
                        style=self.options.colour("mdListBullet") if first else "",
                    )
                    row.append_text(_indent_breaks(line, indent + "  "))
                    first = False
                    yield row
            if first:
                yield Text(indent + bullet, style=marker)

    def quote(self, node: SyntaxTreeNode, width: int) -> Iterator[Text]:
        """A block quote: `│ ` before each row, italic."""
        inner = max(1, width - 2)
        rows: list[Text] = []
        for line in self.blocks(node.children, inner):
            line.stylize(self.options.colour("mdQuote", "italic"))
            rows += _wrap(line, inner, self.console)
        while rows and not rows[-1].plain:
            rows.pop()
        for row in rows:
            out = Text("│ ", style=self.options.colour("mdQuoteBorder"))
            out.append_text(row)
            yield out

    def table(self, node: SyntaxTreeNode, width: int) -> Iterator[Text]:
        """A boxed table whose cells wrap (wide characters included) to fit the width."""
        rows: list[list[Text]] = []
        for section in node.children:
            for tr in section.children:
                rows.append([self.inline(cell) for cell in tr.children])
        columns = max((len(row) for row in rows), default=0)
        if columns == 0:
            return
        for row in rows:
            row += [Text() for _ in range(columns - len(row))]
        widths = column_widths(rows, columns, width)
        if widths is None:  # too narrow for the borders: the source as it was written
            first, last = node.map or (0, 0)
            for line in self.source[first:last]:
                yield Text(line, style=self.base)
            return
        yield Text("┌─" + "─┬─".join("─" * w for w in widths) + "─┐")
        separator = Text("├─" + "─┼─".join("─" * w for w in widths) + "─┤")
        for index, row in enumerate(rows):
            cells = [_wrap(cell, w, self.console) for cell, w in zip(row, widths, strict=True)]
            for line_index in range(max(len(cell) for cell in cells)):
                out = Text("│ ")
                for column, cell in enumerate(cells):
                    part = cell[line_index].copy() if line_index < len(cell) else Text()
                    part.pad_right(widths[column] - part.cell_len)
                    if index == 0:
                        part.stylize("bold")
                    out.append_text(part)
                    out.append(" │ " if column < columns - 1 else " │")
                yield out
            if index < len(rows) - 1:
                yield separator
        yield Text("└─" + "─┴─".join("─" * w for w in widths) + "─┘")

    def inline(self, node: SyntaxTreeNode, style: Style | None = None) -> Text:
        """The inline content of a paragraph, heading or cell as one styled text."""
        text = Text(style=self.base)
        children = node.children
        if len(children) == 1 and children[0].type == "inline":
            children = children[0].children
        self._inline(children, style or Style(), text)
        return text

    def _inline(self, nodes: list[SyntaxTreeNode], style: Style, out: Text) -> None:
        for node in nodes:
            kind = node.type
            if kind == "text":
                out.append(node.content, style=style)
            elif kind in ("softbreak", "hardbreak"):
                out.append("\n")
            elif kind == "code_inline":
                out.append(node.content, style=style + self.options.colour("mdCode"))
            elif kind == "strong":
                self._inline(node.children, style + Style(bold=True), out)
            elif kind == "em":
                self._inline(node.children, style + Style(italic=True), out)
            elif kind == "s":
                self._inline(node.children, style + Style(strike=True), out)
            elif kind == "link":
                self._link(node, style, out)
            elif kind == "image":
                out.append(node.content or str(node.attrs.get("src", "")), style=style)
            elif kind == "html_inline":
                out.append(node.content, style=style)
            else:
                self._inline(node.children, style, out)

    def _link(self, node: SyntaxTreeNode, style: Style, out: Text) -> None:
        href = _CONTROL.sub("", str(node.attrs.get("href", "")))
        link_style = style + self.options.colour("mdLink", "underline")
        if self.options.hyperlinks and href:
            link_style += Style(link=href)
        start = len(out)
        self._inline(node.children, link_style, out)
        shown = out.plain[start:]
        compared = href[7:] if href.startswith("mailto:") else href
        if shown != compared and shown != href:
            out.append(f" ({href})", style=style + self.options.colour("mdLinkUrl"))


def _indent_breaks(line: Text, indent: str) -> Text:
    """A list item's own line breaks continue under its text, not under the bullet."""
    if "\n" not in line.plain:
        return line
    parts = line.split("\n", allow_blank=True)
    joined = Text()
    for index, part in enumerate(parts):
        if index:
            joined.append("\n" + indent)
        joined.append_text(part)
    return joined


def column_widths(rows: list[list[Text]], columns: int, width: int) -> list[int] | None:
    """Column widths that fit `width` with the borders (None when even one cell each cannot)."""
    overhead = 3 * columns + 1
    room = width - overhead
    if room < columns:
        return None
    natural = [max(row[c].cell_len for row in rows) for c in range(columns)]
    longest_word = [
        max(1, min(MAX_UNBROKEN_CELL, max(_longest_word(row[c].plain) for row in rows)))
        for c in range(columns)
    ]
    minimum = list(longest_word)
    if sum(minimum) > room:
        minimum = _shares([w - 1 for w in longest_word], room - columns, [1] * columns)
    if sum(natural) + overhead <= width:
        return [max(n, m) for n, m in zip(natural, minimum, strict=True)]
    growth = [max(0, n - m) for n, m in zip(natural, minimum, strict=True)]
    widths = _shares(growth, max(0, room - sum(minimum)), minimum)
    left = room - sum(widths)
    while left > 0:
        grew = False
        for c in range(columns):
            if left > 0 and widths[c] < natural[c]:
                widths[c] += 1
                left -= 1
                grew = True
        if not grew:
            break
    return widths


def _shares(weights: list[int], amount: int, base: list[int]) -> list[int]:
    """`base` plus `amount` split in proportion to `weights` (rounded down)."""
    total = sum(max(0, w) for w in weights)
    if total <= 0 or amount <= 0:
        return list(base)
    return [b + (max(0, w) * amount) // total for b, w in zip(base, weights, strict=True)]


def _longest_word(text: str) -> int:
    return max((cell_len(word) for word in text.split()), default=0)
