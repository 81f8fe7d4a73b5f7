"""Adapters: thin translations between the core and its users (HTTP, MCP, OpenWebUI)."""
