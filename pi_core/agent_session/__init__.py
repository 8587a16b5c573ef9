"""The session layer: an agent, its session file, plugins and resources working as one."""
