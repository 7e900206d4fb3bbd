"""HookRunner: run the hooks of one event in parallel and report their combined outcome.

The caller (tool pipeline, agent loop, app) makes one call per control point:

    outcome = await runner.run("PreToolUse", {"tool_name": ..., "tool_input": ..., "tool_use_id": ...})

and applies the outcome itself; the runner never changes permissions or state. Each hook gets
the common fields (session_id, transcript_path, cwd, permission_mode, hook_event_name) plus the
payload as JSON on stdin, `CLAUDE_PROJECT_DIR` in its environment and the project directory as
its working directory.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from claude_harness.hooks.combine import combine
from claude_harness.hooks.config import HookConfig, HookEntry, HookLine
from claude_harness.hooks.events import EVENT_SPECS
from claude_harness.hooks.outcome import HookOutcome, HookResult
from claude_harness.hooks.output import MAX_TEXT, Verdict, interpret
from claude_harness.hooks.process import ProcessResult, Waitable, run_process


class HookRunner:
    """Runs configured command hooks; one instance per session."""

    def __init__(
        self,
        config: HookConfig,
        *,
        project_dir: Path,
        session_id: str,
        transcript_path: str,
        get_permission_mode: Callable[[], str],
    ) -> None:
        self.config = config
        self.project_dir = Path(project_dir)
        self.session_id = session_id
        self.transcript_path = transcript_path
        self.get_permission_mode = get_permission_mode

    def has_hooks(self, event: str) -> bool:
        return self.config.has_hooks(event)

    def describe(self) -> list[HookLine]:
        return self.config.describe()

    async def run(
        self,
        event: str,
        payload: Mapping[str, Any],
        *,
        matcher_value: str | None = None,
        abort: Waitable | None = None,
    ) -> HookOutcome:
        """Run every matching hook for `event` concurrently; never raises for a hook's behaviour.

        `matcher_value` defaults to the payload field the event matches on (tool_name, source,
        trigger, notification_type, reason). Unknown event names are a programming error.
        """
        spec = EVENT_SPECS.get(event)
        if spec is None:
            raise ValueError(f"unknown hook event {event!r}")
        if matcher_value is None and spec.matcher != "none":
            value = payload.get(spec.matcher)
            matcher_value = value if isinstance(value, str) else None
        entries = self.config.matching(event, matcher_value)
        if not entries:
            return HookOutcome(event=event)
        stdin = self._stdin(event, payload)
        env = {**os.environ, "CLAUDE_PROJECT_DIR": str(self.project_dir)}
        runs = await asyncio.gather(*(self._run_one(event, e, stdin, env, abort) for e in entries))
        return combine(event, runs)

    def _stdin(self, event: str, payload: Mapping[str, Any]) -> bytes:
        data: dict[str, Any] = {
            "session_id": self.session_id,
            "transcript_path": self.transcript_path,
            "cwd": str(self.project_dir),
            "permission_mode": self.get_permission_mode(),
            **payload,
            "hook_event_name": event,
        }
        return json.dumps(data, default=str).encode()

    async def _run_one(
        self,
        event: str,
        entry: HookEntry,
        stdin: bytes,
        env: Mapping[str, str],
        abort: Waitable | None,
    ) -> tuple[HookResult, Verdict]:
        proc = await run_process(
            entry.command,
            stdin,
            cwd=self.project_dir,
            env=env,
            timeout_s=entry.timeout,
            abort=abort,
        )
        return _to_result(event, entry, proc)


def _label(entry: HookEntry) -> str:
    command = entry.command if len(entry.command) <= 120 else entry.command[:117] + "..."
    return f"`{command}` ({entry.origin})"


def _decode(data: bytes, total: int) -> tuple[str, str, bool]:
    """(full kept text for parsing, display text bounded to MAX_TEXT, truncated?)."""
    text = data.decode("utf-8", errors="replace")
    truncated = total > len(data) or len(text) > MAX_TEXT
    shown = text[:MAX_TEXT]
    if truncated:
        shown += f"\n... [output truncated: {total} bytes written, {len(shown)} characters kept]"
    return text, shown, truncated


def _to_result(event: str, entry: HookEntry, proc: ProcessResult) -> tuple[HookResult, Verdict]:
    label = _label(entry)
    stdout, shown_out, out_cut = _decode(proc.stdout, proc.stdout_total)
    stderr, shown_err, err_cut = _decode(proc.stderr, proc.stderr_total)
    result = HookResult(
        command=entry.command,
        source=entry.origin,
        exit_code=proc.exit_code,
        duration_s=proc.duration_s,
        stdout=shown_out,
        stderr=shown_err,
        stdout_truncated=out_cut,
        stderr_truncated=err_cut,
        timed_out=proc.timed_out,
        aborted=proc.aborted,
    )
    if proc.spawn_error is not None:
        result.error = f"{event} hook {label} could not start: {proc.spawn_error}"
        return result, Verdict()
    if proc.timed_out:
        result.error = (
            f"{event} hook {label} timed out after {entry.timeout:g}s and was killed; "
            "it made no decision"
        )
        return result, Verdict()
    if proc.aborted or proc.exit_code is None:
        result.error = f"{event} hook {label} was cancelled; it made no decision"
        return result, Verdict()
    return result, interpret(event, label, proc.exit_code, stdout, stderr)
