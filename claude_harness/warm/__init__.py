"""The warm start: a resident process per user and installed version that has the HTTP client,
the session core and the Bash checker imported, and forks a ready child for each short `-p` run or
Agent SDK query (see server.py and client.py). Standard library only, imported by nothing but
the CLI's first lines, so the thin client that hands a run over stays a few milliseconds."""
