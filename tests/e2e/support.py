"""Helpers shared by the end-to-end tests."""

from __future__ import annotations

import json
import os
import subprocess
import sys
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
    """An Engine wired like bootstrap does, pointed at `server`, without reading settings."""
    from claude_harness.api.client import ApiSettings
    from claude_harness.permissions.rules import parse_rule
    from claude_harness.permissions.types import PermissionContext, PermissionRule
    from claude_harness.session.core import Engine, EngineConfig
    from claude_harness.tools.registry import assemble_tool_pool

    rules = tuple(PermissionRule("cliArg", "allow", parse_rule(r)) for r in allow) + tuple(
        PermissionRule("cliArg", "deny", parse_rule(r)) for r in deny)
    perm = PermissionContext(mode=mode, rules=rules, cwd=proj, interactive=interactive)  # type: ignore[arg-type]
    pool = assemble_tool_pool(perm, only=tools)
    engine_config = EngineConfig(
        cwd=proj, model="claude-sonnet-5-5", permission=perm, tools=pool,
        system_prompt="You are a test assistant.",
        api=ApiSettings(api_key="test-key", auth_token=None, base_url=server.url,
                        retry_base_delay=0.05, max_retries=3),
        data_dir=data_dir or proj.parent / "data", max_turns=max_turns, persist=persist,
        hooks=hooks, **config,
    )
    return Engine(engine_config)


async def run_prompt(engine: Any, prompt: str) -> list[Any]:
    """Submit a prompt and collect every event."""
    return [event async for event in engine.submit(prompt)]
