"""Built-in tools, the 14-step pipeline and the streaming executor."""
