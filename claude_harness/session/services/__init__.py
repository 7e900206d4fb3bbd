"""The services the session calls: hooks, MCP, permission answers,
questions, models, the status line, reports and slash commands.
"""
