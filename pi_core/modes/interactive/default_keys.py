"""prompt_toolkit's default key bindings for the REPL's editor: emacs only.

`load_key_bindings()` also loads the vi bindings (318 of its 582), which the REPL never enables
(it has no vi mode), and prompt_toolkit's Application adds its own copy of the defaults to
whatever the app passes. A key that misses prompt_toolkit's lookup cache (the first press of
each key) is matched against every binding, so the REPL keeps one emacs-only set.
"""

from __future__ import annotations

from prompt_toolkit.filters import buffer_has_focus
from prompt_toolkit.key_binding.bindings.basic import load_basic_bindings
from prompt_toolkit.key_binding.bindings.cpr import load_cpr_bindings
from prompt_toolkit.key_binding.bindings.emacs import (
    load_emacs_bindings,
    load_emacs_search_bindings,
    load_emacs_shift_selection_bindings,
)
from prompt_toolkit.key_binding.bindings.mouse import load_mouse_bindings
from prompt_toolkit.key_binding.key_bindings import (
    ConditionalKeyBindings,
    KeyBindingsBase,
    merge_key_bindings,
)


def emacs_key_bindings() -> KeyBindingsBase:
    """prompt_toolkit's `load_key_bindings()` without the vi bindings (same order, same
    filters: the editing bindings apply only while a buffer has the focus)."""
    editing = merge_key_bindings(
        [
            load_basic_bindings(),
            load_emacs_bindings(),
            load_emacs_search_bindings(),
            load_emacs_shift_selection_bindings(),
        ]
    )
    return merge_key_bindings(
        [
            ConditionalKeyBindings(editing, buffer_has_focus),
            load_mouse_bindings(),
            load_cpr_bindings(),
        ]
    )
