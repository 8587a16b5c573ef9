"""A provider's stream function that imports its code on the first request.

Registering a provider needs only a callable: a plugin that registers `stream_on_first_use(
"package.module:function")` keeps the request building and event parsing out of start-up, so a
run that never talks to that API never loads them.
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator

from pi_core.ai.model import Model
from pi_core.ai.protocol import LLMContext, StreamFunction, StreamOptions
from pi_core.messages.stream import AssistantMessageEvent


def stream_on_first_use(target: str) -> StreamFunction:
    """Return a stream function that calls `module:function`, importing the module when the
    first request is made (and looking the function up on each call)."""
    module_name, _, function_name = target.partition(":")
    if not module_name or not function_name:
        raise ValueError(f"expected 'module:function', got {target!r}")

    def stream(
        model: Model, context: LLMContext, options: StreamOptions
    ) -> AsyncIterator[AssistantMessageEvent]:
        function: StreamFunction = getattr(importlib.import_module(module_name), function_name)
        return function(model, context, options)

    stream.__name__ = stream.__qualname__ = function_name
    stream.__doc__ = f"Stream through `{target}`, imported on the first request."
    return stream
