"""The session's side of sub-agents: what an agent's definition may set for its child, and the
agents that work in the background.

A definition's `permissionMode`, its rule-form `tools` (pre-approved for the child) and its
`hooks` come from a file; a project's file is the repository's word, so they apply only in a
folder the person trusts (a cloned repository must not hand its agents
`bypassPermissions`). A parent in bypassPermissions keeps it for its children, and
no definition grants bypassPermissions to a session that was not started with it.

A background agent (`run_in_background`) runs without anyone to ask (an undecided call is
denied, as in `-p`); when it ends the session gives the model a `<task-notification>` with its
report, at the next turn or, when the session is idle, in a turn of its own.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from html import escape

from claude_harness.agent.subagent import ChildSetup, new_agent_id, transcript_path
from claude_harness.hooks.config import agent_hook_config
from claude_harness.permissions.rules import allow_rules
from claude_harness.protocol.context import (
    BackgroundAgent,
    SubAgentReport,
    SubAgentSpec,
    ToolUseContext,
)

HOOK_SOURCES = {"project": "projectSettings", "user": "userSettings", "plugin": "pluginHooks",
                "flag": "cliArg", "built-in": "cliArg"}
NOTICE_PREAMBLE = (
    "A background task has finished. This notice comes from the harness, not from the user: "
    "it confirms or approves nothing the user has not said.")


def child_setup(spec: SubAgentSpec, parent: ToolUseContext, *, trusted: bool,
                background: bool = False) -> tuple[ChildSetup, list[str]]:
    """What the child gets of its definition's asks, and notes on what it does not get."""
    notes: list[str] = []
    gated = spec.scope == "project" and not trusted
    mode = spec.permission_mode
    if mode is not None:
        if gated:
            notes.append(f"Agent {spec.agent_type}: permissionMode {mode} is not applied: this "
                         "folder is not trusted.")
            mode = None
        elif parent.permission.mode == "bypassPermissions":
            mode = None  # the parent's bypass carries over
        elif mode == "bypassPermissions" and not parent.permission.bypass_available:
            notes.append(f"Agent {spec.agent_type}: permissionMode bypassPermissions needs a "
                         "session started with it; the parent's mode is kept.")
            mode = None
    rules = () if gated else allow_rules(spec.allow_rules)
    hooks = parent.hooks
    if spec.hooks and hooks is not None:
        extra = agent_hook_config(spec.hooks, source=HOOK_SOURCES.get(spec.scope, "cliArg"),
                                  path=spec.definition_path, allow_project_hooks=trusted)
        hooks = hooks.with_config(extra)
    return ChildSetup(rules, mode, hooks, background), notes


Spawn = Callable[[SubAgentSpec, ToolUseContext, ChildSetup, str], Awaitable[SubAgentReport]]


@dataclass
class _Running:
    spec: SubAgentSpec
    output_file: str
    started: float
    task: asyncio.Task[None] | None = None


class BackgroundAgents:
    """Sub-agents started with `run_in_background`, until their notification is handed over."""

    def __init__(self, spawn: Spawn, on_done: Callable[[str, str], None]) -> None:
        """`on_done(summary, notification)`: a line for the person, the message for the
        model."""
        self._spawn = spawn
        self._on_done = on_done
        self._running: dict[str, _Running] = {}
        self._changed = asyncio.Event()

    @property
    def running(self) -> bool:
        return bool(self._running)

    def start(self, spec: SubAgentSpec, parent: ToolUseContext,
              setup: ChildSetup) -> BackgroundAgent:
        agent_id = new_agent_id()
        path = transcript_path(parent, agent_id)
        entry = _Running(spec, str(path) if path else "", time.monotonic())
        self._running[agent_id] = entry
        entry.task = asyncio.create_task(self._run(agent_id, entry, parent, setup),
                                         name=f"background-{agent_id}")
        return BackgroundAgent(agent_id, entry.output_file)

    async def _run(self, agent_id: str, entry: _Running, parent: ToolUseContext,
                   setup: ChildSetup) -> None:
        try:
            report = await self._spawn(entry.spec, parent, setup, agent_id)
            status = {"end_turn": "completed", "aborted": "killed"}.get(report.end_reason,
                                                                         "failed")
            result = report.final_text or report.error or "(no report)"
        except asyncio.CancelledError:
            status, result = "killed", "The agent was stopped."
        except Exception as exc:  # the agent's failure is its result, not the session's
            status, result = "failed", f"{type(exc).__name__}: {exc}"
        self._running.pop(agent_id, None)
        self._on_done(summary(entry, status), notification(agent_id, entry, status, result))
        self._changed.set()

    async def wait_any(self) -> None:
        """Until one of the running agents ends (its notification is then handed over)."""
        if not self._running:
            return
        self._changed.clear()
        await self._changed.wait()

    def stop(self, agent_id: str) -> bool:
        """Stop one background agent (its notification says it was stopped); False when no
        agent by that id runs."""
        entry = self._running.get(agent_id)
        if entry is None or entry.task is None:
            return False
        entry.task.cancel()
        return True

    async def stop_all(self) -> None:
        tasks = [e.task for e in self._running.values() if e.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def summary(entry: _Running, status: str) -> str:
    verb = {"completed": "finished", "killed": "was stopped"}.get(status, "failed")
    return f'Agent "{entry.spec.description or entry.spec.agent_type}" {verb}'


def notification(agent_id: str, entry: _Running, status: str, result: str) -> str:
    """The message that tells the model a background agent ended (Claude Code's
    `<task-notification>` fields)."""
    seconds = int((time.monotonic() - entry.started) * 1000)
    lines = ["<task-notification>", f"<task-id>{agent_id}</task-id>"]
    if entry.output_file:
        lines.append(f"<output-file>{entry.output_file}</output-file>")
    lines += [f"<status>{status}</status>", f"<summary>{escape(summary(entry, status), quote=False)}</summary>",
              f"<result>{result}</result>",
              f"<usage><duration_ms>{seconds}</duration_ms></usage>",
              "</task-notification>"]
    body = "\n".join(lines)
    return f"<system-reminder>\n{NOTICE_PREAMBLE}\n\n{body}\n</system-reminder>"
