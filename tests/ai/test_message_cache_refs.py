"""`MessageCache` converts each message once and forgets it when the message is freed."""

from __future__ import annotations

import gc

from pi_core.ai.message_cache import MessageCache


class Message:
    """A stand-in for a finished message (only identity matters)."""


def test_each_message_converts_once_per_variant_and_goes_with_it() -> None:
    cache: MessageCache[str] = MessageCache()
    calls: list[str] = []

    def convert(message: Message) -> str:
        calls.append("x")
        return f"converted {len(calls)}"

    messages = [Message() for _ in range(50)]
    first = [cache.get(m, "v", convert) for m in messages]
    assert [cache.get(m, "v", convert) for m in messages] == first
    assert len(calls) == 50 and len(cache) == 50
    assert cache.get(messages[0], "other", convert) == "converted 51"  # a variant converts anew
    del messages, first
    gc.collect()
    assert len(cache) == 0
