"""Configuration: settings files and their precedence, on-disk locations, memory files."""
