"""Hooks: user-configured shell commands at deterministic control points of the agent.

Compatible with the `hooks` section of Claude Code settings files. `HookConfig` parses and
validates the settings; `HookRunner.run(event, payload)` runs matching hooks in parallel and
returns a `HookOutcome` the caller applies; `StopHookGuard` bounds Stop-hook continuations.
"""

from claude_harness.hooks.config import DEFAULT_TIMEOUT_S, HookConfig, HookEntry, HookLine
from claude_harness.hooks.events import (
    EVENT_SPECS,
    HOOK_EVENTS,
    NOTIFICATION,
    PERMISSION_DENIED,
    PERMISSION_REQUEST,
    POST_TOOL_USE,
    POST_TOOL_USE_FAILURE,
    PRE_COMPACT,
    PRE_TOOL_USE,
    SESSION_END,
    SESSION_START,
    STOP,
    SUBAGENT_STOP,
    TOOL_EVENTS,
    USER_PROMPT_SUBMIT,
    EventSpec,
)
from claude_harness.hooks.matcher import Matcher, MatcherError
from claude_harness.hooks.outcome import HookOutcome, HookResult
from claude_harness.hooks.runner import HookRunner
from claude_harness.hooks.stop_guard import StopHookGuard

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "EVENT_SPECS",
    "HOOK_EVENTS",
    "NOTIFICATION",
    "PERMISSION_DENIED",
    "PERMISSION_REQUEST",
    "POST_TOOL_USE",
    "POST_TOOL_USE_FAILURE",
    "PRE_COMPACT",
    "PRE_TOOL_USE",
    "SESSION_END",
    "SESSION_START",
    "STOP",
    "SUBAGENT_STOP",
    "TOOL_EVENTS",
    "USER_PROMPT_SUBMIT",
    "EventSpec",
    "HookConfig",
    "HookEntry",
    "HookLine",
    "HookOutcome",
    "HookResult",
    "HookRunner",
    "Matcher",
    "MatcherError",
    "StopHookGuard",
]
