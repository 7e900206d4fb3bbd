"""The command-line flags the Agent SDKs send, beyond the ones every user types.

Both SDKs build the CLI's argv from their options (`subprocess_cli.py` in Python, `sdk.mjs` in
TypeScript, which writes every valued flag as `--flag=value`). An unknown flag would end the run
before the program sees a line, so every flag either SDK may send is accepted here: applied when
claude-harness can honour it, otherwise kept with a one-line note on stderr saying it is not
applied. Stdlib only: `--help` stays instant.
"""

from __future__ import annotations

import argparse
from typing import Any

# flag -> why it is accepted without effect (one line each, printed on stderr when given)
NOT_APPLIED: dict[str, str] = {
    "--task-budget": "task budgets are not tracked",
    "--thinking": "thinking comes from the model table and the settings",
    "--thinking-display": "thinking comes from the model table and the settings",
    "--resume-session-at": "a resumed session continues from its last message",
    "--resume-drops-turn": "a resumed session keeps every turn",
    "--session-mirror": "transcripts stay in the data directory (no transcript_mirror frames)",
    "--plugin-dir-no-mcp": "use --plugin-dir (its MCP servers load too)",
    "--channels": "channels are not supported",
    "--debug-to-stderr": "use --debug (the log goes to the session folder)",
    "--managed-settings": "managed settings come from the managed settings file",
    "--managed-settings-in-initialize": "managed settings come from the managed settings file",
    "--initialize-fields": "settings and disallowed tools come from the command line",
    "--permission-prompts": "permission prompts go through --permission-prompt-tool stdio",
    "--project-config-root": "project settings are read from the working directory",
    "--hard-fail": "failures end the turn with an error result",
}

_VALUED = ("--task-budget", "--thinking", "--thinking-display", "--resume-session-at",
           "--resume-drops-turn", "--plugin-dir-no-mcp", "--channels",
           "--initialize-fields", "--permission-prompts", "--project-config-root")
_SWITCHES = ("--session-mirror", "--debug-to-stderr", "--managed-settings-in-initialize",
             "--hard-fail")


def add_sdk_flags(p: argparse.ArgumentParser) -> None:
    """The Agent SDK's flags (see the module docstring)."""
    sdk = p.add_argument_group("Agent SDK")
    sdk.add_argument("--permission-prompt-tool", metavar="TOOL",
                     help="'stdio': ask the program driving us (can_use_tool) before a call "
                     "that would prompt")
    sdk.add_argument("--include-partial-messages", action="store_true",
                     help="stream-json: also write each API stream event (stream_event lines)")
    sdk.add_argument("--include-hook-events", action="store_true",
                     help="stream-json: write a hook_response line when hooks ran")
    sdk.add_argument("--max-budget-usd", type=float, metavar="USD",
                     help="end the run once the session has cost this much")
    sdk.add_argument("--fallback-model", metavar="MODEL",
                     help="switch to this model when the main one stays overloaded")
    sdk.add_argument("--json-schema", metavar="JSON",
                     help="the final answer must match this JSON schema (structured_output)")
    sdk.add_argument("--fork-session", action="store_true",
                     help="with --resume/--continue: continue under a new session id")
    sdk.add_argument("--strict-mcp-config", action="store_true",
                     help="use only the MCP servers of --mcp-config")
    sdk.add_argument("--setting-sources", metavar="LIST",
                     help="settings files to read: user,project,local (comma separated)")
    sdk.add_argument("--system-prompt-file", metavar="FILE")
    sdk.add_argument("--append-system-prompt-file", metavar="FILE",
                     help="append this file's text to the system prompt")
    sdk.add_argument("--no-session-persistence", action="store_true",
                     help="write no transcript for this session")
    sdk.add_argument("--allow-dangerously-skip-permissions", action="store_true",
                     help="let the mode be switched to bypassPermissions later")
    sdk.add_argument("--replay-user-messages", action="store_true",
                     help="stream-json: write each prompt back with its uuid (rewind_files "
                     "names a prompt by it)")
    sdk.add_argument("--await-initialize", action="store_true", help=argparse.SUPPRESS)
    sdk.add_argument("--managed-settings", nargs="?", const="", help=argparse.SUPPRESS)
    for flag in _VALUED:
        sdk.add_argument(flag, action="append", help=argparse.SUPPRESS)
    for flag in _SWITCHES:
        sdk.add_argument(flag, action="store_true", help=argparse.SUPPRESS)


def sdk_options(args: argparse.Namespace) -> dict[str, Any]:
    """RunOptions fields from the parsed SDK flags, with a note for each flag not applied."""
    notes = []
    for flag, why in NOT_APPLIED.items():
        if getattr(args, flag[2:].replace("-", "_"), None) not in (None, False):
            notes.append(f"{flag} is accepted but not applied: {why}.")
    tool = args.permission_prompt_tool
    if tool and tool != "stdio":
        notes.append(f"--permission-prompt-tool {tool} is not supported (only stdio); calls "
                     "that would need approval are denied.")
    sources = None
    if args.setting_sources is not None:
        sources = tuple(s.strip() for s in args.setting_sources.split(",") if s.strip())
    return {
        "permission_prompt_tool": tool,
        "include_partial_messages": args.include_partial_messages,
        "include_hook_events": args.include_hook_events,
        "max_budget_usd": args.max_budget_usd,
        "fallback_model": args.fallback_model,
        "json_schema": args.json_schema,
        "fork_session": args.fork_session,
        "strict_mcp_config": args.strict_mcp_config,
        "setting_sources": sources,
        "persist_session": not args.no_session_persistence,
        "allow_bypass": args.allow_dangerously_skip_permissions,
        "replay_user_messages": args.replay_user_messages,
        "notes": notes,
    }


def read_system_prompt_file(path: str, flag: str = "--system-prompt-file") -> str:
    """`--system-prompt-file` / `--append-system-prompt-file`: the file's text (a clear error
    when it cannot be read)."""
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) else "not UTF-8 text"
        raise SystemExit(f"Error: cannot read {flag} {path}: {why}") from exc
