"""/mcp and /agents as panels in the app (Textual pilot), with real MCP servers over stdio
(the `mcp` SDK's demo server) and real agent files: what the panel shows, and what its
actions change in the running servers and on disk (Claude Code's files)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from textual.widgets import Input, TextArea

from claude_harness.frontends.tui.panels.agents import AgentsPanel
from claude_harness.frontends.tui.panels.mcp import McpPanel
from claude_harness.frontends.tui.widgets.notice import NoticeView
from claude_harness.mcp.config import McpServerConfig, user_config_file
from tests.mcp.support import demo
from tests.tui.helpers import choose, panel_text, screen_text, send, type_text, wait_for
from tests.tui.test_mcp_in_app import mcp_app


def broken() -> McpServerConfig:
    return McpServerConfig(name="broken", command=sys.executable,
                           args=("-c", "import sys; sys.exit(3)"), scope="local")


async def test_mcp_panel_lists_status_and_toggles_a_server_as_claude_code_saves_it(
        api: Any, project: Path) -> None:
    server = api(["ok"])
    app = mcp_app(server, project, [demo("srv", scope="local"), broken()])
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await wait_for(pilot, lambda: app.link.session.config.mcp.get("srv").state == "connected",
                       what="srv connected")
        await send(pilot, "/mcp")
        panel = await wait_for(pilot, lambda: next(iter(app.query(McpPanel)), None)
                               or (app.screen if isinstance(app.screen, McpPanel) else None),
                               what="the panel")
        await wait_for(pilot, lambda: "✔ srv   13 tools" in panel_text(panel)
                       and "✘ broken   failed" in panel_text(panel), what="both servers")
        assert "Local MCPs" in panel_text(panel)
        await choose(pilot, panel, "broken")
        await wait_for(pilot, lambda: "Error:" in panel_text(panel), what="the failure reason")
        await pilot.press("escape")
        await choose(pilot, panel, "srv")
        await wait_for(pilot, lambda: "Capabilities:     13 tools · resources"
                       in panel_text(panel), what="the server's details")
        await choose(pilot, panel, "View tools")
        await wait_for(pilot, lambda: "mcp__" not in panel_text(panel)
                       and "echo" in panel_text(panel), what="its tools")
        await pilot.press("escape")
        await choose(pilot, panel, "Disable in this project")
        await wait_for(pilot, lambda: app.link.session.config.mcp.get("srv").state == "disabled",
                       what="srv stopped")
        doc = json.loads(user_config_file().read_text())
        assert doc["projects"][str(project)]["disabledMcpServers"] == ["srv"]
        await wait_for(pilot, lambda: "◯ disabled" in panel_text(panel), what="shown disabled")
        await choose(pilot, panel, "Enable")
        await wait_for(pilot, lambda: app.link.session.config.mcp.get("srv").state == "connected",
                       what="srv back")
        doc = json.loads(user_config_file().read_text())
        assert doc["projects"][str(project)]["disabledMcpServers"] == []
        await pilot.press("escape")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, McpPanel), what="closed")
        await app.link.session.config.mcp.wait_ready(5)
        await pilot.pause(1.5)  # an answer to the panel's last question lands after it closed
        assert not [n for n in app.query(NoticeView) if not n.text.strip()]
        assert "Disabled srv in this project." in screen_text(app)


async def test_a_server_disabled_in_claude_codes_list_does_not_start(
        api: Any, project: Path) -> None:
    user_config_file().parent.mkdir(parents=True, exist_ok=True)
    user_config_file().write_text(json.dumps(
        {"projects": {str(project): {"disabledMcpServers": ["srv"]}}}))
    server = api(["ok"])
    app = mcp_app(server, project, [demo("srv", scope="local")])
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        assert app.link.session.config.mcp.get("srv").state == "disabled"
        await send(pilot, "/mcp")
        panel = await wait_for(pilot, lambda: app.screen if isinstance(app.screen, McpPanel)
                               else None, what="the panel")
        await wait_for(pilot, lambda: "◯ srv   disabled" in panel_text(panel), what="disabled")


async def test_agents_panel_lists_views_creates_and_deletes(make_app: Any, api: Any,
                                                            project: Path, home: Path) -> None:
    agents = project / ".claude" / "agents"
    agents.mkdir(parents=True)
    (agents / "reviewer.md").write_text(
        "---\nname: reviewer\ndescription: Reviews diffs\ntools: Read, Grep\nmodel: haiku\n"
        "---\n\nYou review diffs carefully.\n")
    app = make_app(api(["ok"]))
    async with app.run_test(size=(120, 45)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "/agents")
        panel = await wait_for(pilot, lambda: app.screen if isinstance(app.screen, AgentsPanel)
                               else None, what="the panel")
        await wait_for(pilot, lambda: "reviewer · Read, Grep · haiku" in panel_text(panel),
                       what="the project agent")
        text = panel_text(panel)
        assert "Project agents (.claude/agents/)" in text and "Built-in agents" in text
        assert "general-purpose" in text
        await choose(pilot, panel, "reviewer")
        await wait_for(pilot, lambda: "You review diffs carefully." in panel_text(panel),
                       what="its prompt")
        await pilot.press("escape")
        await choose(pilot, panel, "Create new agent")
        await choose(pilot, panel, "Personal (~/.claude/agents/)")
        assert panel.query_one("#agent-name", Input).has_focus
        await type_text(pilot, "test-writer")
        await pilot.press("enter")
        await type_text(pilot, "Writes tests")
        await pilot.press("tab")
        await type_text(pilot, "Read, Write")
        await pilot.press("tab", "tab")
        assert panel.query_one("#agent-prompt", TextArea).has_focus
        await type_text(pilot, "You write tests.")
        await pilot.press("ctrl+s")
        written = Path(os.environ["CLAUDE_CONFIG_DIR"]) / "agents" / "test-writer.md"
        await wait_for(pilot, written.exists, what="the new file")
        assert written.read_text() == ("---\nname: test-writer\ndescription: Writes tests\n"
                                       "tools: Read, Write\n---\n\nYou write tests.\n")
        await wait_for(pilot, lambda: "test-writer · Read, Write · inherit"
                       in panel_text(panel), what="listed")
        await choose(pilot, panel, "reviewer")
        await choose(pilot, panel, "Delete agent")
        await choose(pilot, panel, "Yes, delete")
        await wait_for(pilot, lambda: not (agents / "reviewer.md").exists(), what="deleted")
        await wait_for(pilot, lambda: "reviewer ·" not in panel_text(panel), what="unlisted")


async def test_a_project_server_pending_approval_is_approved_from_the_panel(
        api: Any, project: Path) -> None:
    (project / ".mcp.json").write_text("{}")
    server = api(["ok"])
    proj = demo("team", scope="project", source=str(project / ".mcp.json"))
    app = mcp_app(server, project, [proj])
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: app.ready, what="engine ready")
        await send(pilot, "/mcp")
        panel = await wait_for(pilot, lambda: app.screen if isinstance(app.screen, McpPanel)
                               else None, what="the panel")
        await wait_for(pilot, lambda: "? team   pending approval" in panel_text(panel)
                       and "Project MCPs (.mcp.json)" in panel_text(panel), what="pending")
        await choose(pilot, panel, "team")
        await choose(pilot, panel, "Approve")
        await wait_for(pilot, lambda: "Status:           ✔ connected" in panel_text(panel),
                       what="approved and connected")
        doc = json.loads(user_config_file().read_text())
        assert doc["projects"][str(project)]["enabledMcpjsonServers"] == ["team"]
