"""Markdown and code to HTML, in Python, with untrusted input kept inert.

Raw HTML is shown as text, links keep only http(s), mailto and in-page targets, and images are
shown only when they are embedded (`data:image/...`): a page that loads nothing from the network.
"""

from __future__ import annotations

import html
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pi_core.export.render_cache import RenderCache

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token
    from pygments.lexer import Lexer

PYGMENTS_STYLE = "github-dark"
HIGHLIGHT_LIMIT = 256 * 1024  # longer code is shown plain: highlighting it would take seconds
# Characters of code one export highlights; past that, code is shown plain. Pygments is the slow
# part of an export, and the page shows the newest entries first, so a huge session keeps colour
# where people look (about the newest 1,500 entries of `benchmarks/export.py`'s session).
HIGHLIGHT_BUDGET = 150_000
# The same for markdown-it: past this many characters, text goes into the page as written and
# the page's script renders it when the entry is shown (assets/markdown.js).
MARKDOWN_BUDGET = 100_000


# Text and code already rendered in this export are reused and cost no budget: tool results and
# answers repeat (the same file read again, the same command's output).
_rendered = RenderCache()


class _Budget:
    left = HIGHLIGHT_BUDGET
    markdown_left = MARKDOWN_BUDGET


def reset_budgets() -> None:
    """Start an export's allowance of highlighted code and of markdown, and its cache."""
    _Budget.left = HIGHLIGHT_BUDGET
    _Budget.markdown_left = MARKDOWN_BUDGET
    _rendered.clear()


_SAFE_SCHEMES = ("http", "https", "mailto")
_SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):")
_INVISIBLE = re.compile(r"[\x00-\x20\x7f]+")
_EMBEDDED_IMAGE = re.compile(r"^data:image/(?:png|jpe?g|gif|webp);base64,[A-Za-z0-9+/=\s]*$", re.I)
# Text without any of these renders as plain paragraphs: no markdown-it pass needed.
_MARKDOWN_SYNTAX = re.compile(r"[\\`*_\[\]<&|~]|^\s*(?:[-+>#=]|\d+[.)])|^ {4}|^\t", re.M)


def escape(text: str) -> str:
    """Escape text for HTML content and double-quoted attributes."""
    return html.escape(text, quote=True)


def safe_url(url: str) -> bool:
    """Whether a link target is harmless: http(s), mailto, relative or in-page."""
    compact = _INVISIBLE.sub("", html.unescape(url)).lower()
    match = _SCHEME.match(compact)
    return match is None or match.group(1) in _SAFE_SCHEMES


def safe_image_src(src: str) -> bool:
    """Whether an image source is embedded data (nothing is fetched)."""
    return bool(_EMBEDDED_IMAGE.match(src))


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    parser = MarkdownIt("commonmark", {"html": False, "breaks": True, "linkify": False})
    parser.enable(["table", "strikethrough"])
    parser.validateLink = lambda url: safe_url(url) or safe_image_src(url)  # type: ignore[method-assign]
    parser.add_render_rule("fence", _render_fence)
    parser.add_render_rule("code_block", _render_fence)
    parser.add_render_rule("image", _render_image)
    parser.add_render_rule("link_open", _render_link_open)
    return parser


def _render_fence(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    language = token.info.strip().split(maxsplit=1)[0] if token.info.strip() else ""
    return highlight_block(token.content, language=language)


def _render_image(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    src = str(token.attrGet("src") or "")
    alt = "".join(child.content for child in token.children or [])
    if safe_image_src(src):
        return f'<img class="md-image" src="{escape(src)}" alt="{escape(alt)}">'
    # A remote image would be fetched when shown: show where it points instead.
    label = escape(f"[image: {alt or src}]")
    if safe_url(src):
        return f'<a href="{escape(src)}" rel="noopener noreferrer nofollow">{label}</a>'
    return f"<span>{label}</span>"


def _render_link_open(self: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    token = tokens[idx]
    href = str(token.attrGet("href") or "")
    if not safe_url(href):
        href = "#"
    title = token.attrGet("title")
    title_attr = f' title="{escape(str(title))}"' if title else ""
    return f'<a href="{escape(href)}"{title_attr} rel="noopener noreferrer nofollow">'


def render_markdown(text: str) -> str:
    """Render markdown (GFM tables and strikethrough, line breaks kept) to inert HTML.

    Past the export's markdown budget, the text is shown as written instead.
    """
    if not _MARKDOWN_SYNTAX.search(text):
        return _plain_paragraphs(text)
    key = ("markdown", text)
    rendered = _rendered.get(key)
    if rendered is not None:
        return rendered
    if len(text) > _Budget.markdown_left:
        return f'<div class="as-written">{escape(text)}</div>'
    _Budget.markdown_left -= len(text)
    return _rendered.put(key, str(_parser().render(text)))


def _plain_paragraphs(text: str) -> str:
    parts = []
    for block in re.split(r"\n[ \t]*\n", text.strip("\n")):
        lines = [line.strip() for line in block.split("\n")]
        if any(lines):
            shown = (html.escape(line, quote=False).replace('"', "&quot;") for line in lines)
            parts.append("<p>" + "<br />\n".join(shown) + "</p>\n")
    return "".join(parts)


@lru_cache(maxsize=256)
def _lexer_by_name(name: str) -> Lexer | None:
    from pygments.lexers import get_lexer_by_name
    from pygments.util import ClassNotFound

    try:
        return get_lexer_by_name(name, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


@lru_cache(maxsize=256)
def _lexer_for_suffix(suffix: str) -> Lexer | None:
    from pygments.lexers import get_lexer_for_filename
    from pygments.util import ClassNotFound

    try:
        return get_lexer_for_filename("x" + suffix, stripnl=False, ensurenl=False)
    except ClassNotFound:
        return None


def lexer_for_path(path: str) -> Lexer | None:
    """The lexer for a file name (by its suffix), or None."""
    name = path.rsplit("/", 1)[-1]
    if name in ("Makefile", "Dockerfile"):
        return _lexer_by_name(name.lower())
    if "." not in name:
        return None
    return _lexer_for_suffix(name[name.rindex(".") :].lower())


@lru_cache(maxsize=1)
def _styled_classes() -> dict[Any, str]:
    """The CSS class of every token type the style colours (others get no span at all)."""
    from pygments.styles import get_style_by_name
    from pygments.token import STANDARD_TYPES

    style = get_style_by_name(PYGMENTS_STYLE)
    classes: dict[Any, str] = {}
    for ttype, css_class in STANDARD_TYPES.items():
        look = style.style_for_token(ttype)
        if css_class and (look["color"] or look["bold"] or look["italic"] or look["bgcolor"]):
            classes[ttype] = css_class
    return classes


_class_cache: dict[Any, str] = {}


def _css_class(ttype: Any) -> str:
    css_class = _class_cache.get(ttype)
    if css_class is None:
        from pygments.token import STANDARD_TYPES

        styled = _styled_classes()
        probe = ttype
        while probe not in STANDARD_TYPES and probe.parent is not None:
            probe = probe.parent
        css_class = styled.get(probe, "")
        _class_cache[ttype] = css_class
    return css_class


def highlight_code(code: str, lexer: Lexer | None) -> str:
    """Highlighted HTML of code (escaped text when no lexer fits or the code is huge).

    Only coloured tokens get a span, and neighbours of one colour share it: half the size of
    pygments' HtmlFormatter output for the same colours.
    """
    if lexer is None or len(code) > HIGHLIGHT_LIMIT:
        return escape(code)
    key = ("code", lexer, code)
    highlighted = _rendered.get(key)
    if highlighted is not None:
        return highlighted
    if len(code) > _Budget.left:
        return escape(code)
    _Budget.left -= len(code)
    return _rendered.put(key, _highlighted(code, lexer))


def _highlighted(code: str, lexer: Lexer) -> str:
    out: list[str] = []
    current, pending = "", list[str]()
    for ttype, value in lexer.get_tokens(code):
        css_class = _css_class(ttype) if value.strip() else current
        if css_class != current:
            out.append(_span(current, "".join(pending)))
            current, pending = css_class, []
        pending.append(value)
    out.append(_span(current, "".join(pending)))
    return "".join(out)


def _span(css_class: str, text: str) -> str:
    if not text:
        return ""
    escaped = html.escape(text, quote=False)
    return f'<span class="{css_class}">{escaped}</span>' if css_class else escaped


def highlight_block(code: str, *, language: str = "", lexer: Lexer | None = None) -> str:
    """A `<pre>` block of code, highlighted by language name or by the given lexer."""
    if lexer is None and language:
        lexer = _lexer_by_name(language.lower())
    css = f' class="language-{escape(language)}"' if language else ""
    return f'<pre class="hl"><code{css}>{highlight_code(code, lexer)}</code></pre>\n'


def highlight_css() -> str:
    """The CSS of the code highlighting colours."""
    from pygments.formatters import HtmlFormatter

    return str(HtmlFormatter(style=PYGMENTS_STYLE).get_style_defs(".hl"))
