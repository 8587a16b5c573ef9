"""pi as a native ACP agent."""
