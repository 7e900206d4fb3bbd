"""The Agent Client Protocol front end: `claude-harness --acp` on stdin/stdout.

Editors (Zed, JetBrains IDEs, Neovim plugins, Emacs) and terminal clients (Toad) drive an agent
over ACP, JSON-RPC on stdio. Like every other front end this package only submits ops and
renders events; the `agent-client-protocol` package does the JSON-RPC. Nothing here is imported
unless `--acp` was given (start-up of the other front ends stays as it was).

  run.py          the entry: the stdio connection, then the sessions' shutdown
  transport.py    NDJSON framing that answers a malformed line instead of dying on it
  agent.py        the ACP methods (initialize, session/new, load, prompt, cancel, modes...)
  runner.py       one ACP session = one of our sessions: ops in, `session/update`s out
  tool_calls.py   a tool call's kind, title, locations and content (diffs, command output)
  prompt.py       ACP content blocks -> our prompt (text, images, files attached)
  replay.py       a loaded transcript as `session/update`s
  choices.py      modes, the model select, the slash commands offered
  mcp_servers.py  the client's MCP servers as our `--mcp-config`
"""
