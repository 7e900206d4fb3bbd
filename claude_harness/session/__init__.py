"""Session transcripts on disk: append-as-it-happens JSONL, resume, continue."""
