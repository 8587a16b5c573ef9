"""Prefix caches do not keep a conversation alive once it is left."""

from __future__ import annotations

import gc
import weakref

from pi_core.ai.message_cache import PrefixCache, forget_conversations


class Message:
    """A stand-in for a finished message (only identity matters)."""


def test_a_state_that_does_not_match_is_dropped_at_once() -> None:
    cache: PrefixCache[list[Message]] = PrefixCache()
    old = [Message(), Message()]
    cache.save("model", list(old), [Message()])
    refs = [weakref.ref(message) for message in old]
    del old
    assert cache.resume("model", [Message()]) == (0, None)
    gc.collect()
    assert [ref() for ref in refs] == [None, None]


def test_a_matching_state_is_kept() -> None:
    cache: PrefixCache[str] = PrefixCache()
    history = [Message(), Message()]
    cache.save("model", list(history), "state")
    assert cache.resume("model", [*history, Message()]) == (2, "state")
    assert cache.resume("model", history) == (2, "state")


def test_forget_conversations_empties_every_prefix_cache() -> None:
    first: PrefixCache[str] = PrefixCache()
    second: PrefixCache[str] = PrefixCache(size=2)
    history = [Message()]
    first.save("a", list(history), "one")
    second.save("b", list(history), "two")
    forget_conversations()
    assert first.resume("a", history) == (0, None)
    assert second.resume("b", history) == (0, None)
