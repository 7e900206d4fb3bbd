"""HookRunner: run the hooks of one event in parallel and report their combined outcome.

The caller (tool pipeline, agent loop, app) makes one call per control point:

    outcome = await runner.run("PreToolUse", {"tool_name": ..., "tool_input": ..., "tool_use_id": ...})

and applies the outcome itself; the runner never changes permissions or state. Each hook gets
the common fields (session_id, transcript_path, cwd, permission_mode, hook_event_name) plus the
payload as JSON on stdin; a command hook runs in the project directory with `CLAUDECODE=1`,
`CLAUDE_PROJECT_DIR`, `CLAUDE_PLUGIN_ROOT` (plugin hooks) and, for SessionStart and Setup,
`CLAUDE_ENV_FILE` (what it exports there reaches later Bash commands: see env_file.py).

A hook whose `if` rule does not match the tool call is not run. `http` hooks POST the same JSON;
`prompt` and `agent` hooks ask the model through the callbacks the session gives (see
kinds.py). `callback` hooks (a program's, registered over the Agent SDK pipe) get the same JSON
through `callback_caller`, and their answer counts as that hook's JSON output. `async` command hooks run in the background: `take_async_outcomes()` hands their
answers to the session for the next turn.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from claude_harness.hooks.combine import combine
from claude_harness.hooks.conditions import condition_matches
from claude_harness.hooks.config import HookConfig, HookEntry, HookLine
from claude_harness.hooks.config_watch import ConfigWatch
from claude_harness.hooks.env_file import env_file_path
from claude_harness.hooks.events import ENV_FILE_EVENTS, EVENT_SPECS
from claude_harness.hooks.file_watch import FileWatch
from claude_harness.hooks.kinds import ModelEvaluator, run_http, run_model_hook
from claude_harness.hooks.mcp_hook import McpToolCaller, run_mcp_tool_hook
from claude_harness.hooks.outcome import HookOutcome, HookResult
from claude_harness.hooks.output import MAX_TEXT, Verdict, interpret
from claude_harness.hooks.process import ProcessResult, Waitable, run_process
from claude_harness.protocol.debug_log import debug

# (callback_id, the hook's input, tool_use_id) -> the hook's JSON output
CallbackCaller = Callable[[str, dict[str, Any], str | None], Awaitable[dict[str, Any] | None]]


class HookRunner:
    """Runs configured command hooks (and registered callback hooks); one per session."""

    def __init__(
        self,
        config: HookConfig,
        *,
        project_dir: Path,
        session_id: str,
        transcript_path: str,
        get_permission_mode: Callable[[], str],
        env_dir: Path | None = None,
        prompt_evaluator: ModelEvaluator | None = None,
        agent_evaluator: ModelEvaluator | None = None,
    ) -> None:
        self.config = config
        self.project_dir = Path(project_dir)
        self.session_id = session_id
        self.transcript_path = transcript_path
        self.get_permission_mode = get_permission_mode
        self.env_dir = env_dir  # where SessionStart/Setup hooks write CLAUDE_ENV_FILE files
        self.prompt_evaluator = prompt_evaluator  # the small model, for `prompt` hooks
        self.agent_evaluator = agent_evaluator  # a read-only sub-agent, for `agent` hooks
        self._ran_once: set[tuple[str, str, str]] = set()
        self._background: set[asyncio.Task[HookOutcome]] = set()
        self._async_done: list[HookOutcome] = []
        self._env_files = 0
        self.callback_caller: CallbackCaller | None = None
        self.mcp_caller: McpToolCaller | None = None  # `mcp_tool` hooks (set by the session)
        self.config_watch: ConfigWatch | None = None  # ConfigChange (set by the session)
        self.file_watch: FileWatch | None = None  # FileChanged (set by the session)

    def add_callbacks(self, entries: Iterable[HookEntry], caller: CallbackCaller) -> None:
        """Register callback hooks (see `hooks.config.callback_entry`), asked through `caller`."""
        self.config = self.config.with_entries(entries)
        self.callback_caller = caller

    def config_changes(self) -> list[tuple[str, Path]]:
        """Settings files changed since the last look (none without a watch)."""
        return self.config_watch.changes() if self.config_watch is not None else []

    def file_changes(self) -> list[tuple[Path, str]]:
        """Watched files changed since the last look, with add/change/unlink."""
        return self.file_watch.changes() if self.file_watch is not None else []

    async def run_file_changed(self, cwd: Path) -> list[HookOutcome]:
        """FileChanged for each watched file that changed (the matcher sees its name)."""
        return [await self.run("FileChanged", {"file_path": str(path), "event": event,
                                               "cwd": str(cwd)}, matcher_value=path.name)
                for path, event in self.file_changes()]

    def has_hooks(self, event: str) -> bool:
        return self.config.has_hooks(event)

    def with_config(self, extra: HookConfig) -> HookRunner:
        """This runner with more hooks active (a sub-agent's own, while it runs); `once`,
        background hooks and their outcomes stay shared with this one."""
        if not (extra.entries or extra.skipped):
            return self
        child = copy.copy(self)
        child.config = self.config.merged(extra)
        return child

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
        entries = [e for e in self.config.matching(event, matcher_value)
                   if (e.condition is None or condition_matches(e.condition, payload,
                                                                self.project_dir))
                   and not (e.once and e.identity in self._ran_once)]
        if not entries:
            return HookOutcome(event=event)
        self._ran_once.update(e.identity for e in entries if e.once)
        stdin = self._stdin(event, payload)
        background = [e for e in entries if e.is_async]
        for entry in background:
            self._start_background(event, entry, stdin)
        waited = [e for e in entries if not e.is_async]
        debug("hooks", f"{event}: running {len(entries)} hook(s) "
              f"({', '.join(_label(e) for e in entries)})")
        runs = await asyncio.gather(*(self._run_one(event, e, stdin, abort) for e in waited))
        outcome = combine(event, runs)
        debug("hooks", f"{event}: done (blocked={outcome.blocked})")
        if outcome.watch_paths and self.file_watch is not None:
            self.file_watch.add(Path(self.project_dir, p) for p in outcome.watch_paths)
        return outcome

    # -- async hooks -----------------------------------------------------------------------

    def _start_background(self, event: str, entry: HookEntry, stdin: bytes) -> None:
        async def run() -> HookOutcome:
            outcome = combine(event, [await self._run_one(event, entry, stdin, None)])
            self._async_done.append(outcome)
            return outcome

        task = asyncio.ensure_future(run())
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def take_async_outcomes(self) -> list[HookOutcome]:
        """Answers of background hooks that finished since the last call (their context and
        messages go to the model and the person on the next turn; they cannot block)."""
        done, self._async_done = self._async_done, []
        return done

    async def wait_async(self, timeout: float | None = None) -> None:
        """Wait for background hooks (at shutdown, or in tests)."""
        if self._background:
            await asyncio.wait(set(self._background), timeout=timeout)

    def _environment(self, event: str, entry: HookEntry) -> dict[str, str]:
        env = {**os.environ, "CLAUDECODE": "1", "CLAUDE_PROJECT_DIR": str(self.project_dir)}
        if entry.plugin_root is not None:
            env["CLAUDE_PLUGIN_ROOT"] = str(entry.plugin_root)
        if event in ENV_FILE_EVENTS and self.env_dir is not None:
            path = env_file_path(self.env_dir, event, self._env_files)
            self._env_files += 1
            env["CLAUDE_ENV_FILE"] = str(path)
        return env

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

    async def _run_callback(self, event: str, entry: HookEntry,
                            stdin: bytes) -> tuple[HookResult, Verdict]:
        """Ask the program that registered the callback (it reads what a command hook reads);
        a failure or a timeout is a visible error and no decision, as for a command hook."""
        assert entry.callback_id is not None and self.callback_caller is not None
        data = json.loads(stdin)
        started = time.monotonic()
        result = HookResult(command=entry.command, source=entry.origin, exit_code=None,
                            duration_s=0.0, stdout="", stderr="")
        label = f"`{entry.command}`"
        try:
            output = await asyncio.wait_for(
                self.callback_caller(entry.callback_id, data, data.get("tool_use_id")),
                entry.timeout)
        except TimeoutError:
            result.timed_out = True
            result.error = (f"{event} hook {label} timed out after {entry.timeout:g}s; "
                            "it made no decision")
            return result, Verdict()
        except Exception as exc:  # noqa: BLE001 - the program's failure is its hook's failure
            result.error = f"{event} hook {label} failed: {exc}; it made no decision"
            return result, Verdict()
        finally:
            result.duration_s = time.monotonic() - started
        text = json.dumps(output or {})
        result.exit_code, result.stdout = 0, text[:MAX_TEXT]
        return result, interpret(event, label, 0, text, "")

    async def _run_one(
        self,
        event: str,
        entry: HookEntry,
        stdin: bytes,
        abort: Waitable | None,
    ) -> tuple[HookResult, Verdict]:
        if entry.kind == "http":
            return await run_http(event, entry, stdin, _label(entry), self.config.http_policy)
        if entry.kind == "callback":
            return await self._run_callback(event, entry, stdin)
        if entry.kind == "mcp_tool":
            return await run_mcp_tool_hook(event, entry, stdin, _label(entry), self.mcp_caller)
        if entry.kind in ("prompt", "agent"):
            evaluator = self.prompt_evaluator if entry.kind == "prompt" else self.agent_evaluator
            return await run_model_hook(event, entry, stdin, _label(entry), evaluator)
        proc = await run_process(
            entry.command,
            stdin,
            cwd=self.project_dir,
            env=self._environment(event, entry),
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
