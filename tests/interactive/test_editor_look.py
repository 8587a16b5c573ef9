"""The editor's padding and the completion menu's rows are clamped as pi's editor clamps them."""

from __future__ import annotations

from pi_core.modes.interactive.editor_look import menu_rows, padding_columns


def test_padding_is_never_negative_and_leaves_at_least_one_column() -> None:
    assert padding_columns(2, 100) == 2
    assert padding_columns(-1, 100) == 0
    assert padding_columns(3, 6) == 2  # 6 columns: 2 + 1 + 2 (at least one for the text)
    assert padding_columns(3, 1) == 0


def test_menu_rows_stay_between_3_and_20() -> None:
    assert menu_rows(7) == 7
    assert menu_rows(1) == 3
    assert menu_rows(50) == 20
