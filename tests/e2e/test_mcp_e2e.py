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


OAUTH = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "oauth_server.py"


def test_print_mode_reports_a_server_that_needs_a_login(project: Path, api: Any,
                                                        tmp_path: Path) -> None:
    """`-p` never waits for a person: an OAuth-protected server is `needs-auth` in the init
    line, with a one-line reason, and the run goes on with the other servers."""
    import subprocess

    from tests.mcp.support import free_port
    from tests.mcp.test_mcp_http import _wait_for_port

    api([{"content": [{"type": "text", "text": "ok"}]}])
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(OAUTH), str(port), str(tmp_path / "grants")],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        _wait_for_port(port, proc)
        cfg = tmp_path / "remote.json"
        cfg.write_text(json.dumps({"mcpServers": {
            "secure": {"type": "http", "url": f"http://127.0.0.1:{port}/mcp"},
            "srv": {"type": "stdio", "command": sys.executable, "args": [str(DEMO), "srv"]}}}))
        run = run_cli(["-p", "hi", "--output-format", "stream-json", "--verbose",
                       "--mcp-config", str(cfg)], project)
    finally:
        proc.kill()
        proc.wait(5)
    assert run.returncode == 0, run.stderr
    init = ndjson(run.stdout)[0]
    status = {s["name"]: s for s in init["mcp_servers"]}
    assert status["srv"] == {"name": "srv", "status": "connected"}
    assert status["secure"]["status"] == "needs-auth"
    assert "OAuth login" in status["secure"]["error"] and "\n" not in status["secure"]["error"]
    assert not any(t.startswith("mcp__secure__") for t in init["tools"])


def test_print_mode_cancels_a_servers_question(project: Path, api: Any, tmp_path: Path) -> None:
    """Nobody can answer an elicitation in `-p` (no hook, no SDK): it is cancelled at once and
    the tool reports that, instead of the run hanging."""
    api([
        {"content": [{"type": "tool_use", "name": "ToolSearch",
                      "input": {"query": "select:mcp__srv__ask"}}]},
        {"content": [{"type": "tool_use", "name": "mcp__srv__ask", "input": {}}]},
        {"content": [{"type": "text", "text": "done"}]},
    ])
    cfg = config(tmp_path, srv=[str(DEMO), "srv"])
    run = run_cli(["-p", "ask me", "--output-format", "stream-json", "--verbose",
                   "--mcp-config", cfg, "--allowedTools", "mcp__srv__ask"], project, timeout=60)
    assert run.returncode == 0, run.stderr
    results = [b for x in ndjson(run.stdout) if x["type"] == "user"
               for b in x["message"]["content"]]
    assert results[-1]["content"] == "cancel" and not results[-1].get("is_error")
