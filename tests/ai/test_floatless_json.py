"""`floatless_json_bytes` writes what `json_bytes` writes for values without floats."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pi_core.ai.message_cache import (
    floatless_json_bytes,
    floatless_json_text,
    json_bytes,
    json_text,
)

_TEXT = st.text(st.characters(exclude_categories=("Cs",)))  # every character but surrogates
_SCALARS = st.none() | st.booleans() | st.integers() | _TEXT
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=20,
)


@given(_VALUES)
def test_the_same_bytes_as_json_without_floats(value: Any) -> None:
    assert floatless_json_bytes(value) == json_bytes(value)
    assert floatless_json_text(value) == json_text(value)


def test_escapes_and_non_ascii_as_json_writes_them() -> None:
    value = {"t": '\x00\x1f\x7f\u2028\U0001f600"\\/\b\f\n\r\té', "n": [None, True, 2**70, -1]}
    assert floatless_json_bytes(value) == json_bytes(value)


def test_a_lone_surrogate_fails_as_with_json() -> None:
    with pytest.raises(UnicodeEncodeError):
        json_bytes({"a": "x\ud800"})
    with pytest.raises(UnicodeEncodeError):
        floatless_json_bytes({"a": "x\ud800"})


def test_the_text_of_a_lone_surrogate_is_json_text() -> None:
    assert floatless_json_text({"a": "x\ud800"}) == json_text({"a": "x\ud800"})
