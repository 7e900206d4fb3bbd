"""`initialize`: the first control request of every SDK session.

The request may carry what the session is built with (the TypeScript SDK sends its system
prompt and JSON schema here, and may name its in-process MCP servers), so the bridge builds the
session only after applying it; its hook callbacks are registered once the session exists. The
answer tells the program what this CLI offers: its commands, agents, models and account, in
Claude Code's field names (`ClaudeSDKClient.get_server_info()` returns it).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from claude_harness import __version__
from claude_harness.commands.registry import BUILTINS, custom_commands
from claude_harness.frontends.sdk.messages import SDKControlInitializeRequest
from claude_harness.protocol.ops import HookCallbackMatcher
from claude_harness.session.bootstrap import DEFAULT_MODEL, MODEL_ALIASES
from claude_harness.session.options import RunOptions
from claude_harness.tools.agent.definitions import agent_definitions

# initialize fields that change nothing here (one stderr note each when sent)
UNAPPLIED = {
    "agents": "--agents definitions do not reach the session's Agent tool yet",
    "skills": "every skill stays offered (no allow-list)",
    "forwardSubagentText": "sub-agent text arrives with the Agent call's result",
}


def apply_initialize(request: SDKControlInitializeRequest, opts: RunOptions) -> list[str]:
    """Fold what `initialize` configures into `opts` (before the session is built); returns a
    note per field accepted without effect."""
    prompt = request.get("systemPrompt")
    if isinstance(prompt, list):
        opts.system_prompt = "\n\n".join(str(p) for p in prompt)
    elif isinstance(prompt, str):
        opts.system_prompt = prompt
    if isinstance(append := request.get("appendSystemPrompt"), str):
        opts.append_system_prompt = append
    if (schema := request.get("jsonSchema")) is not None:
        opts.json_schema = json.dumps(schema)
    if isinstance(agents := request.get("agents"), dict) and agents:
        opts.agents_json = json.dumps(agents)  # as --agents would give them
    servers = request.get("sdkMcpServers")
    if isinstance(servers, list) and servers:
        opts.mcp_config.append(json.dumps({"mcpServers": {
            str(name): {"type": "sdk", "name": str(name)} for name in servers}}))
    return [f"initialize.{key} is accepted but not applied: {why}."
            for key, why in UNAPPLIED.items() if request.get(key)]


def hook_matchers(request: SDKControlInitializeRequest) -> tuple[HookCallbackMatcher, ...]:
    """`hooks: {event: [{matcher, hookCallbackIds, timeout}]}` as RegisterHookCallbacks data."""
    hooks = request.get("hooks")
    if not isinstance(hooks, dict):
        return ()
    found = []
    for event, groups in hooks.items():
        for group in groups if isinstance(groups, list) else []:
            if not isinstance(group, dict):
                continue
            ids = tuple(str(i) for i in group.get("hookCallbackIds") or ())
            timeout = group.get("timeout")
            found.append(HookCallbackMatcher(
                str(event), group.get("matcher"), ids,
                float(timeout) if isinstance(timeout, (int, float)) else None))
    return tuple(found)


def commands(cwd: Path) -> list[dict[str, Any]]:
    """The slash commands a program may send as a prompt: session commands and custom ones."""
    rows = [{"name": c.name, "description": c.description, "argumentHint": c.arg_hint}
            for c in BUILTINS if c.to_ops is not None]
    taken = {row["name"] for row in rows}
    rows += [{"name": c.name, "description": c.description or "custom command",
              "argumentHint": c.argument_hint}
             for c in custom_commands(cwd) if c.name not in taken]
    return rows


def agents(cwd: Path) -> list[dict[str, Any]]:
    return [{"name": d.name, "description": d.description, **({"model": d.model}
                                                                if d.model else {})}
            for d in agent_definitions(cwd)]


def models() -> list[dict[str, Any]]:
    default = {"value": "default", "resolvedModel": DEFAULT_MODEL,
               "displayName": "Default (recommended)",
               "description": f"Use the default model (currently {DEFAULT_MODEL})"}
    return [default, *({"value": alias, "resolvedModel": model, "displayName": alias.capitalize(),
                        "description": model} for alias, model in MODEL_ALIASES.items())]


def initialize_response(opts: RunOptions, *, hooks_sent: bool) -> dict[str, Any]:
    key = bool(os.environ.get("ANTHROPIC_API_KEY"))
    answer: dict[str, Any] = {
        "commands": commands(opts.cwd), "agents": agents(opts.cwd),
        "output_style": "default", "available_output_styles": ["default"],
        "models": models(),
        "account": {"tokenSource": "none",
                    "apiKeySource": "ANTHROPIC_API_KEY" if key else "none",
                    "apiProvider": "firstParty"},
        "pid": os.getpid(), "claude_code_version": __version__,
        "current_permission_mode": opts.permission_mode or "default",
        "hook_on_failure_supported": False,
        "session_state": "idle",
    }
    if hooks_sent:
        answer["hooks_applied"] = True
    return answer
