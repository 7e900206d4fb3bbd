"""MCP servers through the real binary: configured with --mcp-config, listed, called."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.e2e.support import ndjson, run_cli

DEMO = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"


def config(tmp_path: Path, **servers: list[str]) -> str:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {
        name: {"type": "stdio", "command": sys.executable, "args": args}
        for name, args in servers.items()}}))
    return str(path)


def test_mcp_tool_is_listed_and_called_through_the_pipeline(project: Path, api: Any,
                                                            tmp_path: Path) -> None:
    server = api([
        {"content": [{"type": "tool_use", "name": "ToolSearch",
                      "input": {"query": "select:mcp__srv__echo,mcp__srv__danger"}}]},
        {"content": [{"type": "tool_use", "name": "mcp__srv__echo",
                      "input": {"text": "hi", "times": 2}},
                     {"type": "tool_use", "name": "mcp__srv__danger",
                      "input": {"path": str(project / "marker")}}]},
        {"content": [{"type": "text", "text": "done"}]},
    ])
    cfg = config(tmp_path, srv=[str(DEMO), "srv"], broken=["-c", "import sys; sys.exit(3)"])
    proc = run_cli(["-p", "use mcp", "--output-format", "stream-json", "--mcp-config", cfg,
                    "--allowedTools", "mcp__srv__echo"], project)
    assert proc.returncode == 0, proc.stderr
    lines = ndjson(proc.stdout)
    init = lines[0]
    names = init["tools"]
    mcp = [n for n in names if n.startswith("mcp__")]
    assert names[-len(mcp):] == sorted(mcp)  # MCP tools after every built-in, sorted
    assert {"mcp__srv__echo", "mcp__srv__danger", "Read", "Bash"} <= set(names)
    status = {s["name"]: s["status"] for s in init["mcp_servers"]}
    assert status["srv"] == "connected" and status["broken"] == "failed"
    results = [b for x in lines if x["type"] == "user" for b in x["message"]["content"]]
    loaded, echo, danger = results
    assert [b["tool_name"] for b in loaded["content"]] == ["mcp__srv__echo", "mcp__srv__danger"]
    assert echo["content"] == "srv: hihi" and not echo.get("is_error")
    assert danger["is_error"] and not (project / "marker").exists()  # needs approval in -p
    assert [d["tool_name"] for d in lines[-1]["permission_denials"]] == ["mcp__srv__danger"]
    sent = server.requests[0]["tools"]
    assert [t["name"] for t in sent] == names
    assert all(t.get("defer_loading") for t in sent if t["name"].startswith("mcp__"))  # > 10
