"""claude-harness: an interactive terminal coding agent in Python."""

__version__ = "0.1.0"
