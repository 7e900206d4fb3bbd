"""The loop's hook points beyond a single tool call: after a batch of tool calls
(PostToolBatch), after a compaction (PostCompact) and when a turn ends on an API error
(StopFailure). Each returns the events to show, and what the model must be told.

Also the reminders a batch brings: `.claude/rules` files whose `paths` match a file the batch
read or changed, and the nested CLAUDE.md files above it (the session's `ctx.file_reminders`
decides which are new; each memory file loaded fires `InstructionsLoaded`), and `CwdChanged`
when a `cd` moved the Bash tool's directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from claude_harness.api.errors import ApiError
from claude_harness.commands.custom import COMMAND_SOURCES
from claude_harness.config.nested_memory import MemoryReminder
from claude_harness.config.paths import user_config_dir
from claude_harness.hooks.events import (
    CWD_CHANGED,
    FILE_CHANGED,
    INSTRUCTIONS_LOADED,
    POST_COMPACT,
    POST_TOOL_BATCH,
    SESSION_START,
    STOP_FAILURE,
    USER_PROMPT_EXPANSION,
)
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.events import AgentEvent, HookRan, Notice
from claude_harness.tools.pipeline import ToolOutcome

FILE_TOOLS = frozenset({"Read", "Edit", "Write", "NotebookEdit"})


def reminder(text: str) -> dict[str, Any]:
    return {"type": "text", "text": f"<system-reminder>\n{text}\n</system-reminder>"}


def _hook_events(outcome: Any) -> list[AgentEvent]:
    events: list[AgentEvent] = [HookRan(outcome.event, outcome)] if outcome.ran else []
    events += [Notice(m) for m in outcome.system_messages]
    events += [Notice(m, "warning") for m in outcome.errors]
    return events


def _response(outcome: ToolOutcome) -> Any:
    """What a hook sees of a result: the tool's data when it is JSON, else its content."""
    data = outcome.data
    if isinstance(data, dict | list | str | int | float | bool):
        return data
    return outcome.content


async def after_batch(ctx: ToolUseContext, outcomes: list[ToolOutcome],
                      inputs: dict[str, dict[str, Any]]) -> tuple[list[dict[str, Any]],
                                                                  list[AgentEvent]]:
    """(blocks to send after the batch's results, events to show): PostToolBatch hooks'
    feedback and context, and the rules reminders for the files the batch touched."""
    blocks: list[dict[str, Any]] = []
    events: list[AgentEvent] = []
    if ctx.hooks is not None and ctx.hooks.has_hooks(POST_TOOL_BATCH):
        calls = [{"tool_name": o.name, "tool_input": inputs.get(o.tool_use_id, {}),
                  "tool_use_id": o.tool_use_id, "tool_response": _response(o)}
                 for o in outcomes]
        outcome = await ctx.hooks.run(POST_TOOL_BATCH, {"tool_calls": calls,
                                                        "cwd": str(ctx.cwd)})
        events += _hook_events(outcome)
        if outcome.blocked and outcome.block_reason:
            blocks.append(reminder(f"PostToolBatch hook feedback:\n{outcome.block_reason}"))
        blocks += [reminder(c) for c in outcome.additional_context if c.strip()]
    if ctx.file_reminders is not None:
        touched = [Path(str(inputs[o.tool_use_id].get("file_path") or
                             inputs[o.tool_use_id].get("notebook_path")))
                   for o in outcomes if o.name in FILE_TOOLS and not o.is_error
                   and (inputs.get(o.tool_use_id, {}).get("file_path")
                        or inputs.get(o.tool_use_id, {}).get("notebook_path"))]
        texts = ctx.file_reminders(touched)
        blocks += [reminder(text) for text in texts]
        events += await _instructions_loaded(ctx, texts)
    events += await _cwd_changed(ctx)
    if ctx.hooks is not None and ctx.agent_id is None and ctx.hooks.has_hooks(FILE_CHANGED):
        for outcome in await ctx.hooks.run_file_changed(ctx.cwd):  # a command rewrote one
            events += _hook_events(outcome)
    return blocks, events


async def _instructions_loaded(ctx: ToolUseContext, texts: list[str]) -> list[AgentEvent]:
    """InstructionsLoaded for each memory file a read brought in: a nested CLAUDE.md (Claude
    Code's `nested_traversal`) or a path-scoped rule (`path_glob_match`, with its `globs`)."""
    if ctx.hooks is None or not ctx.hooks.has_hooks(INSTRUCTIONS_LOADED):
        return []
    events: list[AgentEvent] = []
    for text in texts:
        if not isinstance(text, MemoryReminder):
            continue
        payload: dict[str, Any] = {
            "file_path": str(text.file_path), "memory_type": text.memory_type,
            "load_reason": text.load_reason, "trigger_file_path": str(text.trigger),
            "cwd": str(ctx.cwd)}
        if text.globs:
            payload["globs"] = list(text.globs)
        outcome = await ctx.hooks.run(INSTRUCTIONS_LOADED, payload)
        events += _hook_events(outcome)
    return events


async def _cwd_changed(ctx: ToolUseContext) -> list[AgentEvent]:
    """CwdChanged once the batch has moved the Bash tool's working directory (`old_cwd`,
    `new_cwd`, as Claude Code sends them)."""
    shell = ctx.shell
    old = shell.announced
    shell.announced = shell.cwd
    if old is None or old == shell.cwd or ctx.agent_id is not None:
        return []
    if ctx.hooks is None or not ctx.hooks.has_hooks(CWD_CHANGED):
        return []
    outcome = await ctx.hooks.run(CWD_CHANGED, {"old_cwd": str(old), "new_cwd": str(shell.cwd),
                                                 "cwd": str(shell.cwd)})
    return _hook_events(outcome)


async def post_compact(ctx: ToolUseContext, trigger: str, summary: str) -> list[AgentEvent]:
    if ctx.hooks is None or not ctx.hooks.has_hooks(POST_COMPACT):
        return []
    outcome = await ctx.hooks.run(POST_COMPACT, {"trigger": trigger,
                                                  "compact_summary": summary,
                                                  "cwd": str(ctx.cwd)})
    return _hook_events(outcome)


async def session_start_after_compact(ctx: ToolUseContext, messages: list[dict[str, Any]]
                                      ) -> tuple[list[dict[str, Any]], list[AgentEvent]]:
    """SessionStart with source `compact`, right after a compaction of the main conversation
    (as Claude Code fires it): what its hooks add joins the compacted history's last user
    message, so the next request carries it. Returns (the history, events to show)."""
    if ctx.hooks is None or ctx.agent_id is not None:
        return messages, []
    loaded = await _instructions_after_compact(ctx)
    if not ctx.hooks.has_hooks(SESSION_START):
        return messages, loaded
    outcome = await ctx.hooks.run(SESSION_START, {"source": "compact", "cwd": str(ctx.cwd)})
    blocks = [reminder(c) for c in outcome.additional_context if c.strip()]
    if not blocks or not messages or messages[-1].get("role") != "user":
        return messages, [*loaded, *_hook_events(outcome)]
    last = messages[-1]
    content = last.get("content")
    if isinstance(content, str):
        content = [{"type": "text", "text": content}]
    return [*messages[:-1], {**last, "content": [*(content or []), *blocks]}], \
        [*loaded, *_hook_events(outcome)]


async def _instructions_after_compact(ctx: ToolUseContext) -> list[AgentEvent]:
    """InstructionsLoaded with `compact` for each memory file of the system prompt, which the
    compacted conversation goes on with (Claude Code reloads them after a compaction)."""
    if ctx.hooks is None or not ctx.hooks.has_hooks(INSTRUCTIONS_LOADED):
        return []
    events: list[AgentEvent] = []
    for path in ctx.memory_files:
        memory_type = ("Local" if path.name == "CLAUDE.local.md" else "User"
                       if path.is_relative_to(user_config_dir().resolve()) else "Project")
        outcome = await ctx.hooks.run(INSTRUCTIONS_LOADED, {
            "file_path": str(path), "memory_type": memory_type, "load_reason": "compact",
            "cwd": str(ctx.cwd)})
        events += _hook_events(outcome)
    return events


async def prompt_expansion(ctx: ToolUseContext, command: Any, args: str, typed: str
                           ) -> tuple[str | None, list[dict[str, Any]], list[AgentEvent]]:
    """UserPromptExpansion when a typed `/command` expands (Claude Code's payload):
    (why it was blocked or None, context blocks for the prompt, events to show)."""
    if ctx.hooks is None or not ctx.hooks.has_hooks(USER_PROMPT_EXPANSION):
        return None, [], []
    outcome = await ctx.hooks.run(USER_PROMPT_EXPANSION, {
        "expansion_type": "slash_command", "command_name": command.name,
        "command_args": args, "command_source": COMMAND_SOURCES.get(getattr(command, "scope", None) or "", ""),
        "prompt": typed, "cwd": str(ctx.cwd)})
    events = _hook_events(outcome)
    if outcome.blocked or outcome.stop:
        reason = outcome.block_reason or outcome.stop_reason or "blocked by a hook"
        return f"UserPromptExpansion hook blocked /{command.name}: {reason}", [], events
    return None, [reminder(c) for c in outcome.additional_context if c.strip()], events


def error_kind(exc: ApiError) -> str:
    """The Agent SDK's name for an API failure (SDKAssistantMessageError)."""
    status = exc.status
    if status in (401, 403):
        return "authentication_failed"
    if status == 402:
        return "billing_error"
    if status == 429:
        return "rate_limit"
    if status == 529:
        return "overloaded"
    if status == 404:
        return "model_not_found"
    if status in (400, 413, 422):
        return "invalid_request"
    if status is not None and status >= 500:
        return "server_error"
    return "unknown"


async def stop_failure(ctx: ToolUseContext, exc: ApiError,
                       messages: list[dict[str, Any]]) -> list[AgentEvent]:
    """StopFailure hooks when the turn ends on an API error (they can change nothing)."""
    if ctx.hooks is None or not ctx.hooks.has_hooks(STOP_FAILURE):
        return []
    last = next((m for m in reversed(messages) if m.get("role") == "assistant"), None)
    text = "".join(b.get("text", "") for b in (last or {}).get("content", [])
                   if isinstance(b, dict) and b.get("type") == "text")
    outcome = await ctx.hooks.run(STOP_FAILURE, {"error": error_kind(exc),
                                                  "error_details": exc.message,
                                                  "last_assistant_message": text,
                                                  "cwd": str(ctx.cwd)})
    return _hook_events(outcome)
