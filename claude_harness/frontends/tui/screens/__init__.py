"""Modal screens (pickers) pushed over the conversation."""
