"""Helpers shared by the end-to-end tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any


def run_cli(args: list[str], cwd: Path, *, stdin: str | None = None,
            timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run the real program (`python -m claude_harness`) with the test's environment."""
    return subprocess.run(
        [sys.executable, "-m", "claude_harness", *args],
        cwd=cwd, input=stdin if stdin is not None else "", capture_output=True, text=True,
        timeout=timeout, env=dict(os.environ),
    )


def ndjson(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def make_engine(server: Any, proj: Path, *, mode: str = "default", allow: tuple[str, ...] = (),
                deny: tuple[str, ...] = (),
                interactive: bool = False, tools: tuple[str, ...] | None = None,
                max_turns: int | None = None, persist: bool = True,
                data_dir: Path | None = None, hooks: Any = None, **config: Any) -> Any:
    """A Session wired like bootstrap does, pointed at `server`, without reading settings."""
    from claude_harness.api.client import ApiSettings
    from claude_harness.permissions.rules import parse_rule
    from claude_harness.protocol.permission_data import PermissionContext, PermissionRule
    from claude_harness.session.core import Session, SessionConfig
    from claude_harness.tools.registry import assemble_tool_pool

    rules = tuple(PermissionRule("cliArg", "allow", parse_rule(r)) for r in allow) + tuple(
        PermissionRule("cliArg", "deny", parse_rule(r)) for r in deny)
    perm = PermissionContext(mode=mode, rules=rules, cwd=proj, interactive=interactive)  # type: ignore[arg-type]
    pool = assemble_tool_pool(perm, only=tools)
    engine_config = SessionConfig(
        cwd=proj, model="claude-sonnet-5-5", permission=perm, tools=pool,
        system_prompt="You are a test assistant.",
        api=ApiSettings(api_key="test-key", auth_token=None, base_url=server.url,
                        retry_base_delay=0.05, max_retries=3),
        data_dir=data_dir or proj.parent / "data", max_turns=max_turns, persist=persist,
        hooks=hooks, **config,
    )
    return Session(engine_config)


async def iter_op(session: Any, op: Any) -> AsyncIterator[Any]:
    """Submit `op` and yield the session's events until what it started has ended (the
    session is idle again, or the op started nothing)."""
    from claude_harness.protocol.events import Busy, OpDone

    op_id = session.submit(op)
    started = False
    async for event in session.events():
        yield event
        if isinstance(event, Busy):
            started = started or event.running
            if not event.running:
                return
        elif isinstance(event, OpDone) and event.op_id == op_id and not started:
            return


async def run_op(session: Any, op: Any, *, answer: Any = None) -> list[Any]:
    """Submit `op` and collect its events, answering permission requests with
    `answer(request)` (an op) if given."""
    from claude_harness.protocol.events import PermissionRequest

    events: list[Any] = []
    async for event in iter_op(session, op):
        events.append(event)
        if isinstance(event, PermissionRequest) and answer is not None:
            session.submit(answer(event))
    return events


def iter_prompt(session: Any, prompt: str) -> AsyncIterator[Any]:
    from claude_harness.protocol.ops import UserPrompt

    return iter_op(session, UserPrompt(prompt))


async def run_prompt(session: Any, prompt: str, **kw: Any) -> list[Any]:
    """Submit a prompt and collect every event until the session is idle again."""
    from claude_harness.protocol.ops import UserPrompt

    return await run_op(session, UserPrompt(prompt), **kw)


def history(events: list[Any]) -> list[dict[str, Any]]:
    """The main conversation as the events built it (what a front end's view holds)."""
    from claude_harness.protocol.view import SessionView

    view = SessionView()
    for event in events:
        view.apply(event)
    return view.messages


def conversation(request: dict[str, Any]) -> list[dict[str, Any]]:
    """A request's messages without the `role: system` listing message (agent types, skills)
    that rides after the first user message (session/prompt/listing.py)."""
    return [m for m in request["messages"] if m["role"] != "system"]
