"""The Agent SDK front end: programs that drive Claude Code through `claude-agent-sdk` (Python)
or `@anthropic-ai/claude-agent-sdk` (TypeScript) drive claude-harness the same way.

The SDK starts the CLI with `--output-format stream-json --input-format stream-json` and speaks
JSON lines on stdin/stdout: prompts in, Claude Code's message lines out, and a control protocol
both ways (permissions, hooks, in-process MCP servers, live settings). That protocol is the
session's own contract (ops in, events out) on a pipe.

    flags.py      the flags the SDKs send (applied, or accepted with a stderr note)
    wire.py       stdin lines as they arrive, compact JSON lines out
    messages.py   the protocol's messages as TypedDicts (the SDK's names; pyright checks them)
    control.py    control_request / control_response plumbing, both directions
    handshake.py  `initialize`: what it configures, and its answer
    requests.py   the answers to mcp_status and get_context_usage
    lines.py      Claude Code's output lines from the session's events (also used by `-p`)
    bridge.py     SdkBridge: stdin -> ops and control answers, events -> lines and requests
    run.py        run_sdk(opts): the entry from the command line

The recorded wire format this follows is in tests/sdk (the same programs run against Claude
Code with CLAUDE_HARNESS_REFERENCE_CLI set).
"""
