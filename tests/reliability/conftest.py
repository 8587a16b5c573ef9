"""The reliability tests run the real `pi` against the fake server, like the CLI tests."""

from tests.cli.conftest import cli

__all__ = ["cli"]
