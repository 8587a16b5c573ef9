"""`pi mcp serve`: pi as an MCP server (pi_run, pi_reply, and optionally the coding tools)."""
