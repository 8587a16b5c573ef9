"""The names a plugin distribution derives from the one its author gives (`hello`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

DIST_PREFIX = "pi-plugin-"
# What is left after the prefix: lowercase words joined by single hyphens (`hello`, `word-count`).
SHORT_NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
MAX_SHORT = 24  # so the template's lines that hold a name stay within 100 characters


class PluginNameError(ValueError):
    """The name cannot become a distribution, an import package and a tool name."""


@dataclass(frozen=True)
class PluginNames:
    """Every spelling of one plugin's name the template needs."""

    short: str  # `word-count`: the command and the flag's prefix

    @property
    def dist(self) -> str:
        """Return the distribution name, `pi-plugin-word-count`."""
        return DIST_PREFIX + self.short

    @property
    def package(self) -> str:
        """Return the import package, `pi_plugin_word_count`."""
        return self.dist.replace("-", "_")

    @property
    def entry(self) -> str:
        """Return the `pi` entry point's name (the plugin's name), `word_count`."""
        return self.short.replace("-", "_")

    @property
    def tool(self) -> str:
        """Return the tool's name, `word_count`."""
        return self.entry

    @property
    def title(self) -> str:
        """Return the prefix of the template's class names, `WordCount`."""
        return "".join(word.capitalize() for word in self.short.split("-"))


def plugin_names(name: str) -> PluginNames:
    """Read `hello`, `pi-plugin-hello` or `pi_plugin_hello` as the plugin `hello`."""
    short = name.strip().lower().replace("_", "-").removeprefix(DIST_PREFIX)
    if len(short) > MAX_SHORT:
        raise PluginNameError(
            f"{name!r} is too long: at most {MAX_SHORT} characters after pi-plugin-"
        )
    if not SHORT_NAME.fullmatch(short):
        raise PluginNameError(
            f"{name!r} is not a plugin name: use lowercase letters, digits and single hyphens, "
            "starting with a letter (e.g. `hello` or `pi-plugin-word-count`)"
        )
    return PluginNames(short)
