"""Partial messages whose streaming text lags behind their deltas, brought up to date on demand.

The message builder joins a long block's streamed pieces only now and then (so a huge reply costs
O(n) in all, not O(n²)); between two joins the partial message a delta event carries lacks the
newest pieces. A builder that leaves its message behind says so here (`lags`), and a reader of
the partial message itself calls `bring_up_to_date` first: the JSON and RPC records (whose
`message` holds every delta so far, the event's own included; pi's never lacks one), the
`message_update` hooks, the REPL once a frame. A reader that follows the deltas (the
plain-terminal REPL) or reads only the final message (print mode) never pays for the join.
"""

from __future__ import annotations

import weakref
from typing import Any, Protocol


class Lagging(Protocol):
    """A source of a partial message that can join the pieces its text blocks lack."""

    @property
    def message(self) -> Any:
        """The partial message it builds."""
        ...

    def catch_up(self) -> None:
        """Bring every text block of `message` up to date with the deltas sent."""
        ...


# id(message) -> its source; an entry goes when the source is garbage collected
_lagging: dict[int, weakref.ref[Lagging]] = {}


def lags(source: Lagging) -> None:
    """Note that `source.message` lacks deltas until `source.catch_up()` (or until it is read
    through `bring_up_to_date`)."""
    key = id(source.message)

    def forget(ref: weakref.ref[Lagging]) -> None:
        if _lagging.get(key) is ref:
            del _lagging[key]

    _lagging[key] = weakref.ref(source, forget)


def bring_up_to_date(message: Any) -> None:
    """Give `message` (a partial message, or anything else) the deltas its text lacks, if any."""
    key = id(message)
    ref = _lagging.get(key)
    source = ref() if ref is not None else None
    if source is not None and source.message is message:
        del _lagging[key]  # the source notes it again when it next lags
        source.catch_up()
