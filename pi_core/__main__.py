"""`python -m pi_core` runs the `pi` command."""

from pi_core.cli import main

main()
