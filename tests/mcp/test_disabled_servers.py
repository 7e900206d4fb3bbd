"""`disabledMcpServers`: /mcp's "Disable in this project", kept where Claude Code 2.1.332 keeps
it (the project's entry of `.claude.json`, seen in its own writes), with a real server (the
demo server over stdio): disabling stops it and saves the name, enabling starts it and leaves
`[]`, the rest of the file is kept, and a config file that is not JSON is left untouched with
the reason said."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from claude_harness.commands.registry import invoke
from claude_harness.mcp import McpManager
from claude_harness.mcp.config import user_config_file
from claude_harness.mcp.disabled import disabled_servers
from claude_harness.protocol import ops
from claude_harness.session.services.mcp_panel import server_rows, toggle_server
from tests.mcp.support import demo


def write_config(doc: Any) -> Path:
    path = user_config_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return path


async def test_toggling_saves_the_list_and_keeps_the_rest(tmp_path: Path) -> None:
    key = str(tmp_path.resolve())
    path = write_config({"theme": "dark", "projects": {key: {
        "hasTrustDialogAccepted": True, "disabledMcpServers": ["other"]}}})
    manager = McpManager([demo("srv")], cwd=tmp_path, startup_timeout=30)
    manager.start()
    try:
        assert await manager.wait_ready(40)
        assert server_rows(manager)[0]["actions"] == ["tools", "reconnect", "disable"]
        notice = toggle_server(manager, "srv", False, tmp_path)
        assert notice.text == "Disabled srv in this project."
        doc = json.loads(path.read_text())
        assert doc["theme"] == "dark" and doc["projects"][key]["hasTrustDialogAccepted"]
        assert doc["projects"][key]["disabledMcpServers"] == ["other", "srv"]
        assert disabled_servers(tmp_path) == {"other", "srv"}
        for _ in range(100):
            if manager.get("srv").state == "disabled":
                break
            await asyncio.sleep(0.05)
        assert server_rows(manager)[0]["status"] == "disabled"
        assert toggle_server(manager, "srv", True, tmp_path).text == "Enabled srv."
        assert json.loads(path.read_text())["projects"][key]["disabledMcpServers"] == ["other"]
        assert toggle_server(manager, "nope", True, tmp_path).level == "error"
    finally:
        await manager.close()


async def test_a_listed_server_starts_disabled_and_a_broken_file_is_left_alone(
        tmp_path: Path) -> None:
    write_config({"projects": {str(tmp_path.resolve()): {"disabledMcpServers": ["srv"]}}})
    manager = McpManager([demo("srv")], cwd=tmp_path, startup_timeout=30)
    manager.start()
    try:
        assert manager.get("srv").state == "disabled"
        path = write_config("{not json")
        notice = toggle_server(manager, "srv", True, tmp_path)
        assert notice.level == "warning" and "for this session only" in notice.text
        assert path.read_text() == "{not json"
        assert await manager.wait_ready(40)
        assert manager.get("srv").state == "connected"  # enabled for this session all the same
    finally:
        await manager.close()


def test_the_commands_the_panels_and_the_repl_send() -> None:
    assert invoke("/mcp").ops == (ops.Describe("mcp"),)  # the list (the app: its panel)
    assert invoke("/mcp disable srv").ops == (ops.McpServer("disable", "srv"),)
    assert invoke("/mcp enable srv").ops == (ops.McpServer("enable", "srv"),)
    assert invoke("/mcp reconnect srv").ops == (ops.McpServer("reconnect", "srv"),)
    assert invoke("/agents").ops == (ops.Describe("agents"),)
    assert invoke("/agents view reviewer").ops == (ops.SessionCommand("agent-view", "reviewer"),)
