"""Claude Code compatibility for pi: hosts that drive Claude Code can drive pi."""
