"""`claude-harness mcp serve`: this program's tools offered to an MCP client
over stdio.
"""
