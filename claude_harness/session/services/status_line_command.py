"""The status line command: settings' `statusLine: {"type": "command", "command": "...",
"padding": N}` runs a script with Claude Code's JSON on stdin and shows what it prints.

The JSON has Claude Code's shape (observed from 2.1.332): session_id, transcript_path, cwd,
model {id, display_name}, workspace {current_dir, project_dir, added_dirs}, version,
output_style {name}, cost {...}, context_window {...}, exceeds_200k_tokens, so the scripts people
already wrote for Claude Code work unchanged.

The runner never blocks its caller: `request(payload)` only records the latest state; a
background task waits DEBOUNCE seconds (a burst of changes runs the script once), runs it under
the process guardian with a timeout (its whole process group is killed past it), and reports
the output. A failing or slow script keeps the last good line; an empty output from a
successful run clears it. Colours (ANSI escapes) are kept: `StatusLineOutput.rich_line()`
turns the first line into styled text.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.text import Text

DEBOUNCE_SECONDS = 0.3
TIMEOUT_SECONDS = 5.0
MAX_LINES = 5
MAX_OUTPUT_BYTES = 64 * 1024


@dataclass(frozen=True)
class StatusLineConfig:
    command: str
    padding: int = 0

    @classmethod
    def from_settings(cls, value: Any) -> StatusLineConfig | None:
        """The merged settings' `statusLine` value, or None when it is absent or not a command."""
        if not isinstance(value, dict) or value.get("type") != "command":
            return None
        command = value.get("command")
        if not isinstance(command, str) or not command.strip():
            return None
        padding = value.get("padding", 0)
        return cls(command, padding if isinstance(padding, int) and padding >= 0 else 0)


def display_name(model: str) -> str:
    """"claude-sonnet-5-5" -> "Sonnet 5.5", as Claude Code names models in the status line."""
    parts = model.removeprefix("claude-").split("-")
    family = [p for p in parts if not p.isdigit()]
    version = [p for p in parts if p.isdigit() and len(p) < 3]  # leave dates (20250514) out
    if not family:
        return model
    name = " ".join(p.capitalize() for p in family)
    return f"{name} {'.'.join(version)}".strip()


@dataclass(frozen=True)
class SessionState:
    """What the status line script is told about the session."""

    session_id: str
    transcript_path: str
    cwd: Path
    project_dir: Path
    model: str
    version: str
    output_style: str = "default"
    added_dirs: tuple[Path, ...] = ()
    cost_usd: float = 0.0
    duration_ms: int = 0
    api_duration_ms: int = 0
    lines_added: int = 0
    lines_removed: int = 0
    input_tokens: int = 0  # the whole session's
    output_tokens: int = 0
    context_window: int = 200_000
    last_usage: dict[str, int] = field(default_factory=dict)  # the latest request's usage

    def payload(self) -> dict[str, Any]:
        usage = self.last_usage
        current = (usage.get("input_tokens", 0) + usage.get("cache_creation_input_tokens", 0)
                   + usage.get("cache_read_input_tokens", 0))
        used = round(100 * current / self.context_window) if self.context_window else 0
        return {
            "session_id": self.session_id,
            "transcript_path": self.transcript_path,
            "cwd": str(self.cwd),
            "model": {"id": self.model, "display_name": display_name(self.model)},
            "workspace": {"current_dir": str(self.cwd), "project_dir": str(self.project_dir),
                          "added_dirs": [str(d) for d in self.added_dirs]},
            "version": self.version,
            "output_style": {"name": self.output_style},
            "cost": {"total_cost_usd": round(self.cost_usd, 6),
                     "total_duration_ms": self.duration_ms,
                     "total_api_duration_ms": self.api_duration_ms,
                     "total_lines_added": self.lines_added,
                     "total_lines_removed": self.lines_removed},
            "context_window": {
                "total_input_tokens": self.input_tokens,
                "total_output_tokens": self.output_tokens,
                "context_window_size": self.context_window,
                "current_usage": {k: usage.get(k, 0) for k in (
                    "input_tokens", "output_tokens", "cache_creation_input_tokens",
                    "cache_read_input_tokens")} if usage else None,
                "used_percentage": used,
                "remaining_percentage": 100 - used,
            },
            "exceeds_200k_tokens": current > 200_000,
        }


@dataclass(frozen=True)
class StatusLineOutput:
    lines: tuple[str, ...] = ()  # as printed, ANSI escapes kept

    @property
    def first_line(self) -> str:
        return self.lines[0] if self.lines else ""

    def rich_line(self) -> Text:
        """The first line with its colours, for a Textual or Rich renderer."""
        return Text.from_ansi(self.first_line)


def parse_output(raw: bytes) -> StatusLineOutput:
    text = raw[:MAX_OUTPUT_BYTES].decode("utf-8", "replace")
    lines = [line.rstrip("\r") for line in text.split("\n")]
    while lines and not lines[-1].strip():
        lines.pop()
    return StatusLineOutput(tuple(lines[:MAX_LINES]))


class StatusLineRunner:
    """Runs the status line command in the background; `on_update` hears each new output."""

    def __init__(self, config: StatusLineConfig, cwd: Path,
                 on_update: Callable[[StatusLineOutput], None], *,
                 debounce: float = DEBOUNCE_SECONDS, timeout: float = TIMEOUT_SECONDS) -> None:
        self.config = config
        self.cwd = cwd
        self.on_update = on_update
        self.debounce = debounce
        self.timeout = timeout
        self.current: StatusLineOutput | None = None  # the last good output
        self.last_error = ""
        self.runs = 0
        self._pending: dict[str, Any] | None = None
        self._task: asyncio.Task[None] | None = None

    def request(self, payload: dict[str, Any]) -> None:
        """Note the new state; the script runs soon (debounced). Returns at once."""
        self._pending = payload
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._drain())

    async def _drain(self) -> None:
        while self._pending is not None:
            await asyncio.sleep(self.debounce)
            payload, self._pending = self._pending, None
            if payload is not None:
                await self._run(payload)

    async def _run(self, payload: dict[str, Any]) -> None:
        """Run the command once under the process guardian (hooks/process.py: it dies with
        the harness, even after a `kill -9`; past the timeout its whole group is killed)."""
        from claude_harness.hooks.process import run_process

        self.runs += 1
        done = await run_process(self.config.command, json.dumps(payload).encode(),
                                 cwd=self.cwd, env=os.environ.copy(), timeout_s=self.timeout,
                                 capture_limit=MAX_OUTPUT_BYTES)
        if done.spawn_error is not None:
            self.last_error = f"could not start the status line command: {done.spawn_error}"
            return
        if done.timed_out:
            self.last_error = f"the status line command took longer than {self.timeout:g} s"
            return
        if done.exit_code != 0:
            detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
            self.last_error = (f"the status line command exited with {done.exit_code}"
                               + (f": {detail[-1]}" if detail else ""))
            return
        self.last_error = ""
        self.current = parse_output(done.stdout)
        self.on_update(self.current)

    async def aclose(self) -> None:
        """Stop any run in progress (the app is closing)."""
        self._pending = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

