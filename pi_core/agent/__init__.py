"""The agent loop and its cancellation primitives."""

from pi_core.abort import AbortController, AbortError, AbortSignal

__all__ = ["AbortController", "AbortError", "AbortSignal"]
