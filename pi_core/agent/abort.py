"""Old import path of `pi_core.abort`, kept until in-flight branches have merged."""

from pi_core.abort import AbortController, AbortError, AbortSignal

__all__ = ["AbortController", "AbortError", "AbortSignal"]
