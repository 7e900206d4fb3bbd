"""The front ends: the Textual app, the line REPL, `-p`, the Agent SDK pipe, ACP,
`doctor` and `mcp serve`.

Empty on purpose: nothing here is imported before a front end asks for it.
"""
