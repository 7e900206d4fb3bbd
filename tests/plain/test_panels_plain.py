"""/mcp, /agents and `@server:uri` in the real `claude-harness --plain` under tmux: the text
forms of the app's panels (the status list, `/mcp disable|enable NAME` saved in Claude Code's
`disabledMcpServers`, `/agents` and `/agents view NAME`) and an MCP resource offered by Tab
and attached when sent, with the real demo MCP server (the `mcp` SDK) in the local scope."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]

READY = "shift+tab to cycle"
DEMO = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"


def local_server(home: Path, project: Path) -> Path:
    config = home / ".claude" / ".claude.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"projects": {str(project.resolve()): {"mcpServers": {"srv": {
        "type": "stdio", "command": sys.executable, "args": [str(DEMO), "srv"]}}}}}))
    return config


def command(session: Any, line: str, expect: str, timeout: float = 30) -> str:
    """Send `line` until `expect` shows (the agent and its servers start in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        session.type(line)
        session.send("Enter")
        try:
            return session.wait_for(expect, timeout=2)
        except AssertionError:
            assert time.monotonic() < deadline, session.screen()


def test_mcp_and_agents_as_text(plain_tmux: Any, project: Path, home: Path) -> None:
    config = local_server(home, project)
    agents = project / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "reviewer.md").write_text("---\nname: reviewer\ndescription: Reviews diffs\n"
                                        "tools: Read, Grep\n---\n\nYou review diffs.\n")
    session, _server = plain_tmux([])
    session.wait_for(READY)
    command(session, "/mcp", "srv · ✔ connected · stdio · local · 13 tools")
    command(session, "/mcp disable srv", "Disabled srv in this project.")
    saved = json.loads(config.read_text())["projects"][str(project.resolve())]
    assert saved["disabledMcpServers"] == ["srv"]
    command(session, "/mcp", "srv · ○ disabled")
    command(session, "/mcp enable srv", "Enabled srv.")
    assert json.loads(config.read_text())["projects"][str(project.resolve())][
        "disabledMcpServers"] == []
    screen = command(session, "/agents", "reviewer  [project]")
    assert "general-purpose" in screen
    screen = command(session, "/agents view reviewer", "You review diffs.")
    assert "Tools: Read, Grep" in screen and f"File: {agents / 'reviewer.md'}" in screen


def test_a_resource_is_offered_by_tab_and_attached(plain_tmux: Any, project: Path,
                                                   home: Path) -> None:
    local_server(home, project)
    session, server = plain_tmux(["Noted."])
    session.wait_for(READY)
    command(session, "/mcp", "srv · ✔ connected")
    session.type("read @srv:me")  # the menu opens as it is typed
    screen = session.wait_for("◇ srv:memo://notes")
    assert "Team notes" in screen
    session.send("Tab")
    session.wait_for("read @srv:memo://notes")
    session.send("Enter")  # takes the highlighted row
    time.sleep(0.3)
    session.type("please")
    session.send("Enter")
    session.wait_for("Noted.")
    sent = server.requests[-1]["messages"]
    texts = [b.get("text", "") for m in sent for b in m["content"] if isinstance(b, dict)]
    assert "read @srv:memo://notes please" in texts
    assert any(t.startswith("Full contents of resource:\nnotes from srv\n") for t in texts)
