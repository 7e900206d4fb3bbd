"""Sandboxed Bash: bubblewrap around each command, a domain-filtering proxy for its network.

runtime.py   the session's sandbox: settings, availability, decisions, /sandbox status
bash.py      what the Bash tool asks for one command (decision, wrapper, result notes)
settings.py  the `sandbox` settings block (Claude Code's keys), merged across sources
bwrap.py     the bubblewrap command line; paths.py what it makes writable, protected, hidden
proxy.py     the HTTP CONNECT / plain HTTP proxy that enforces sandbox.network's domains
"""
