"""The agent loop (`loop.query`), its messages, compaction, the system prompt, and the sub-agent
spawner. The session drives it; it reports everything it changes as events (see
`claude_harness/protocol/events.py`); the tool-call context types live in `protocol/context.py`."""
