"""pi-plugin-mcp: tools, prompts and resources from MCP servers."""
