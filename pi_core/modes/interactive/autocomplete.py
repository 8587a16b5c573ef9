"""Plugins' completers (`ctx.ui.add_autocomplete_provider`) stacked over the editor's own."""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable, Iterable
from typing import Any

from prompt_toolkit.completion import CompleteEvent, Completer, Completion, DummyCompleter
from prompt_toolkit.document import Document

from pi_core.plugins.ui import AutocompleteProviderFactory


class StackedCompleter(Completer):
    """The built-in completer wrapped by each plugin's factory in turn, the latest outermost.

    A factory gets the completer built so far and returns a prompt_toolkit `Completer`
    (which may yield its own completions and then delegate). Factories may be added before
    the editor exists: the stack is built again over the base when it arrives. A factory that
    raises, or returns something that is not a completer, is reported and dropped; a completer
    that raises while completing yields nothing for that key.
    """

    def __init__(self, on_error: Callable[[BaseException], None]) -> None:
        self._base: Completer | None = None
        self._factories: list[AutocompleteProviderFactory] = []
        self._top: Completer = DummyCompleter()
        self._on_error = on_error

    def over(self, base: Completer) -> StackedCompleter:
        """Stack the factories over `base` (the editor's own completer); returns self."""
        self._base = base
        self._build()
        return self

    def add(self, factory: AutocompleteProviderFactory) -> None:
        """Wrap the current completer with `factory(current)`."""
        self._factories.append(factory)
        self._build()

    def clear(self) -> None:
        """Drop every plugin's completer: the editor's own completer alone again."""
        self._factories.clear()
        self._build()

    def _build(self) -> None:
        if self._base is None:
            return  # the editor is not there yet: `over` builds the stack
        top = self._base
        for factory in list(self._factories):
            try:
                wrapped: Any = factory(top)
                if not isinstance(wrapped, Completer):
                    raise TypeError(f"{getattr(factory, '__name__', factory)!r} returned "
                                    f"{type(wrapped).__name__}, not a Completer")  # fmt: skip
            except Exception as error:
                self._factories.remove(factory)
                self._on_error(error)
                continue
            top = wrapped
        self._top = top

    def get_completions(
        self, document: Document, complete_event: CompleteEvent
    ) -> Iterable[Completion]:
        """The outermost completer's completions."""
        try:
            yield from self._top.get_completions(document, complete_event)
        except Exception:
            return

    async def get_completions_async(
        self, document: Document, complete_event: CompleteEvent
    ) -> AsyncGenerator[Completion, None]:
        """The same, for completers that only work asynchronously."""
        try:
            async for completion in self._top.get_completions_async(document, complete_event):
                yield completion
        except Exception:
            return
