"""PyYAML's safe loader set to the YAML 1.2 core schema, so it reads frontmatter as pi does.

pi reads frontmatter with the `yaml` package (YAML 1.2, core schema, plain JavaScript objects).
PyYAML implements YAML 1.1, so this module swaps its implicit resolvers for the core schema's:
`yes`/`no`/`on`/`off`, `010`-style octals, `1_000`, sexagesimal numbers, timestamps, `=` and
`<<` merge keys stay strings; `0o17` and `1e3` are numbers. Mapping keys are spelled as
JavaScript spells object keys (`true`, `1`, `null` -> `""`), a repeated key is an error, and a
tag the core schema does not know leaves the value as it is. Imported only when a file has
frontmatter: PyYAML costs a few milliseconds to import.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any, ClassVar

import yaml

__all__ = ["YamlError", "load_yaml"]

_CORE = "tag:yaml.org,2002:"
_BASE: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class YamlError(ValueError):
    """YAML that cannot be read; the message ends with the line and column of the problem."""


class _CoreLoader(_BASE):  # type: ignore[valid-type,misc]
    """A safe loader with the YAML 1.2 core schema's resolvers only."""

    yaml_implicit_resolvers: ClassVar[dict[str | None, list[tuple[str, re.Pattern[str]]]]] = {}


def _resolve(tag: str, pattern: str, first: list[str]) -> None:
    _CoreLoader.add_implicit_resolver(_CORE + tag, re.compile(pattern), first)


# The `yaml` package's core schema tests; `first` lists the characters a match can start with.
_DIGITS = list("0123456789")
_resolve("null", r"^(?:~|[Nn]ull|NULL)?$", ["~", "n", "N", ""])
_resolve("bool", r"^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$", list("tTfF"))
_resolve("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", ["-", "+", *_DIGITS])
_resolve(
    "float",
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+"
    r"|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)|[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$",
    ["-", "+", ".", *_DIGITS],
)


def _js_key(key: Any) -> str:
    """Spell a mapping key the way JavaScript turns it into an object key."""
    if key is None:
        return ""
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, float) and math.isfinite(key) and key == int(key):
        return str(int(key))
    return str(key)


def _construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    text = str(loader.construct_scalar(node))
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text)  # `010` is ten in YAML 1.2


def _construct_float(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> float:
    text = str(loader.construct_scalar(node))
    if text.lower().lstrip("+-") == ".inf":
        return -math.inf if text.startswith("-") else math.inf
    if text.lower() == ".nan":
        return math.nan
    return float(text)


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode) -> Iterator[dict[str, Any]]:
    data: dict[str, Any] = {}
    yield data  # yielded first so that an alias inside the mapping can refer to it
    seen: set[tuple[bool, Any]] = set()
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key is None or isinstance(key, str | int | float):
            identity = (type(key) is bool, key)  # true and 1 are different keys, 1 and 1.0 not
            if identity in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, "Map keys must be unique", key_node.start_mark
                )
            seen.add(identity)
        data[_js_key(key)] = loader.construct_object(value_node, deep=True)


def _construct_untagged(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    """A tag the core schema does not know (`!custom`) leaves the value as it is."""
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    assert isinstance(node, yaml.MappingNode)
    steps = _construct_mapping(loader, node)
    data = next(steps)
    for _ in steps:
        pass
    return data


_CoreLoader.add_constructor(_CORE + "int", _construct_int)
_CoreLoader.add_constructor(_CORE + "float", _construct_float)
_CoreLoader.add_constructor(_CORE + "map", _construct_mapping)
_CoreLoader.add_constructor(None, _construct_untagged)


def _describe(error: yaml.YAMLError) -> str:
    if not isinstance(error, yaml.MarkedYAMLError) or error.problem_mark is None:
        return str(error)
    mark = error.problem_mark
    message = f"{error.problem} at line {mark.line + 1}, column {mark.column + 1}"
    where = error.context_mark
    if (
        error.context
        and where is not None
        and (where.line, where.column) != (mark.line, mark.column)
    ):
        message += f" ({error.context} at line {where.line + 1}, column {where.column + 1})"
    return message[0].upper() + message[1:]


def load_yaml(text: str) -> Any:
    """Parse one YAML document as pi's `yaml` package would; raise YamlError when invalid."""
    if not text.endswith("\n"):
        text += "\n"  # the `yaml` package ends a block scalar at the end of input with a newline
    try:
        return yaml.load(text, Loader=_CoreLoader)  # a SafeLoader subclass: no arbitrary objects
    except yaml.YAMLError as error:
        raise YamlError(_describe(error)) from None
