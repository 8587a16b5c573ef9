"""JavaScript's idea of white space, for behaviour that must match pi's string handling.

pi trims with `String.prototype.trim` / `trimEnd`, which remove a fixed set of characters (the
WhiteSpace and LineTerminator code points of ECMAScript); Python's `str.strip()` removes a
different set (it also strips U+001C..U+001F and U+0085, and keeps U+FEFF).
"""

from __future__ import annotations

__all__ = ["JS_WHITESPACE", "js_trim", "js_trim_end"]

JS_WHITESPACE = (
    "\t\n\v\f\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
"""Every character JavaScript's `trim()` removes."""


def js_trim(text: str) -> str:
    """Trim white space at both ends exactly as JavaScript's `String.prototype.trim` does."""
    return text.strip(JS_WHITESPACE)


def js_trim_end(text: str) -> str:
    """Trim white space at the end exactly as JavaScript's `String.prototype.trimEnd` does."""
    return text.rstrip(JS_WHITESPACE)
