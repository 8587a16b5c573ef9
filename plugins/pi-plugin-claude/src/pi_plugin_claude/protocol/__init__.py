"""Claude Code's stream-json protocol: line I/O, the control channel and message shapes."""
