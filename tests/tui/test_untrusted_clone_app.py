"""The app in a hostile clone: nothing the repository configures runs before the trust answer.

The app is built as the CLI builds it (bootstrap.build_session reading the real settings
files), in a repository whose settings start an MCP server, run a SessionStart hook and set
`cleanupPeriodDays: 0`. Answering no leaves every trace absent; answering yes makes each
happen, which proves the first answer held back something real.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from claude_harness.config.paths import data_dir
from claude_harness.config.trust import is_trusted
from tests.tui.helpers import send, wait_for


@pytest.fixture
def clone(tmp_path: Path, home: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    repo = (tmp_path / "clone").resolve()
    (repo / ".claude").mkdir(parents=True)
    traces = {"mcp": tmp_path / "mcp-started", "hook": tmp_path / "hook-ran"}
    (repo / ".mcp.json").write_text(json.dumps({"mcpServers": {"repo": {
        "command": "sh", "args": ["-c", f"touch {traces['mcp']}"]}}}))
    (repo / ".claude" / "settings.local.json").write_text(json.dumps({
        "enableAllProjectMcpServers": True, "cleanupPeriodDays": 0,
        "hooks": {"SessionStart": [{"hooks": [{"type": "command",
                                               "command": f"touch {traces['hook']}"}]}]}}))
    old = home / "data" / "projects" / "-elsewhere" / "00000000-old.jsonl"
    old.parent.mkdir(parents=True)
    old.write_text('{"type":"user"}\n')
    two_days_ago = time.time() - 2 * 86_400
    os.utime(old, (two_days_ago, two_days_ago))
    traces["transcript"] = old
    # A session ended yesterday: cleanup keeps the most recent ended session and judges age
    # from it (config/cleanup.py), so this one dates the old one as old.
    recent = old.with_name("00000001-recent.jsonl")
    recent.write_text('{"type":"user"}\n')
    yesterday = time.time() - 86_400
    os.utime(recent, (yesterday, yesterday))
    monkeypatch.chdir(repo)
    return {"repo": repo, **traces}


def _app(repo: Path) -> Any:
    from claude_harness.frontends.tui.app import HarnessApp
    from claude_harness.session.bootstrap import build_session
    from claude_harness.session.options import RunOptions

    def factory() -> Any:
        return build_session(RunOptions(cwd=repo, interactive=True))

    return HarnessApp(cwd=repo, session_factory=factory, preload_transport=False, ask_trust=True)


async def _answer(app: Any, key: str, until: Any) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_for(pilot, lambda: next(iter(app.query("#trust-prompt")), None),
                       what="trust prompt")
        await pilot.press(key)
        if key == "1":  # trusted: a first prompt (SessionStart hooks run with it)
            await wait_for(pilot, lambda: app.ready, timeout=20, what="engine ready")
            await send(pilot, "hi")
        await wait_for(pilot, until, timeout=20, what="after the answer")


async def test_no_leaves_every_trace_absent(api: Any, clone: dict[str, Path]) -> None:
    api(["hello"])
    app = _app(clone["repo"])
    await _answer(app, "escape", lambda: not app.is_running)
    assert not clone["mcp"].exists() and not clone["hook"].exists()
    assert clone["transcript"].exists()
    assert not is_trusted(data_dir(), clone["repo"])


async def test_yes_then_the_repository_does_as_configured(api: Any,
                                                          clone: dict[str, Path]) -> None:
    api(["hello"])
    app = _app(clone["repo"])
    await _answer(app, "1", lambda: app.ready and clone["mcp"].exists()
                  and clone["hook"].exists())
    assert not clone["transcript"].exists()  # the repository's cleanupPeriodDays: 0 applied
