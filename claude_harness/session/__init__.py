"""The session core (`core.Session`: ops in, events out) and what it keeps on disk
(`transcript`: append-as-it-happens JSONL, resume, continue).

This `__init__` imports nothing, so a front end can name the package without paying for the
loop, the tools or pydantic before its first paint; `claude_harness.session.bootstrap.build_session`
builds a Session from the command line's options.
"""
