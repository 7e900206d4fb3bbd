"""The agent loop, its messages and its context."""
