"""/mcp, /agents and `@server:uri` in the installed app, in a real terminal (tmux), with the
real demo MCP server (the `mcp` SDK) configured as Claude Code keeps a local server
(`~/.claude.json`, this project's entry): what the panels show, what their keys change on disk,
and what the scripted server receives."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.tui.test_terminal import BINARY, app_env, terminal  # noqa: F401 - the fixture

pytestmark = pytest.mark.skipif(not BINARY.exists(),
                                reason="claude-harness is not installed in this venv")
DEMO = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"


def local_server(project: Path) -> Path:
    """`srv`, the demo server, in the local scope of the user config (no approval needed)."""
    config = Path(os.environ["CLAUDE_CONFIG_DIR"]) / ".claude.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"projects": {str(project.resolve()): {"mcpServers": {"srv": {
        "type": "stdio", "command": sys.executable, "args": [str(DEMO), "srv"]}}}}}))
    return config


def open_panel(term: Any, command: str, title: str) -> str:
    """Wait for the agent (/usage answers once it is up; before, a command says it is still
    starting), then send `command` once and wait for the panel titled `title`: a command sent
    again while the panel opens would land in the panel as keys."""
    deadline = time.monotonic() + 30
    while True:
        term.keys("/usage", literal=True)
        term.keys("Enter")
        try:
            term.wait("Output tokens:", timeout=1.0)
            break
        except AssertionError:
            if time.monotonic() > deadline:
                raise
    term.keys(command, literal=True)
    term.keys("Enter")
    return term.wait(title, timeout=20.0)


def test_mcp_panel_shows_the_server_and_disables_it_in_claude_codes_file(
        api: Any, terminal: Any, project: Path) -> None:  # noqa: F811
    api(["unused"])
    config = local_server(project)
    term = terminal(app_env())
    term.wait("default mode")
    open_panel(term, "/mcp", "MCP servers")
    screen = term.wait("✔ srv   13 tools", timeout=40)
    assert "Local MCPs" in screen and "Enter to view · Esc to close" in screen
    term.keys("Enter")
    screen = term.wait("Capabilities:     13 tools · resources")
    assert "Status:           ✔ connected" in screen and "View tools" in screen
    term.keys("Down", "Down")
    term.keys("Enter")  # Disable in this project
    term.wait("Status:           ◯ disabled")
    saved = json.loads(config.read_text())["projects"][str(project.resolve())]
    assert saved["disabledMcpServers"] == ["srv"] and "srv" in saved["mcpServers"]
    term.keys("Escape")
    term.wait("◯ srv   disabled")
    term.keys("Escape")
    deadline = time.monotonic() + 10
    while "MCP servers" in term.screen():
        assert time.monotonic() < deadline, term.screen()
        time.sleep(0.1)
    assert "Disabled srv in this project." in term.screen()


def test_agents_panel_creates_an_agent_file(api: Any, terminal: Any,  # noqa: F811
                                            project: Path) -> None:
    api(["unused"])
    term = terminal(app_env())
    term.wait("default mode")
    screen = open_panel(term, "/agents", "Create new agent")
    assert "Built-in agents" in screen and "general-purpose" in screen
    term.keys("Enter")
    term.wait("Personal (~/.claude/agents/)")
    term.keys("Enter")  # Project (.claude/agents/)
    term.wait("New agent in Project (.claude/agents/)")
    for text, then in (("api-doc", "Enter"), ("Documents the public API", "Tab"),
                       ("Read, Grep", "Tab"), ("haiku", "Tab"), ("You write API docs.", "C-s")):
        term.keys(text, literal=True)  # field by field, as a person types
        term.wait(text)
        term.keys(then)
        time.sleep(0.3)
    term.wait("api-doc · Read, Grep · haiku")
    written = project / ".claude" / "agents" / "api-doc.md"
    assert written.read_text() == ("---\nname: api-doc\ndescription: Documents the public API\n"
                                   "tools: Read, Grep\nmodel: haiku\n---\n\n"
                                   "You write API docs.\n")


def test_a_resource_mention_from_the_popup_reaches_the_model(
        api: Any, terminal: Any, project: Path) -> None:  # noqa: F811
    server = api(["The notes say hello."])
    local_server(project)
    term = terminal(app_env())
    term.wait("default mode")
    deadline = time.monotonic() + 40
    while "◇ srv:memo://notes" not in term.screen():  # once srv connected and was listed
        assert time.monotonic() < deadline, term.screen()
        term.keys("C-u")
        term.keys("summarize @srv:", literal=True)
        time.sleep(1.0)
    assert "Team notes" in term.screen()
    term.keys("Tab")
    term.keys("please", literal=True)
    term.keys("Enter")
    screen = term.wait("The notes say hello.")
    assert "Read MCP resource notes from srv" in screen
    sent = server.requests[0]["messages"]
    texts = [b.get("text", "") for m in sent for b in m["content"] if isinstance(b, dict)]
    assert "summarize @srv:memo://notes please" in texts
    assert any(t.startswith("Full contents of resource:\nnotes from srv\n") for t in texts)
