"""Rule names match whole segments, with real MCP servers (the `mcp` SDK) through the real
binary: an allow on `mcp__docs` gives nothing to a server named `docs__admin` (it is
refused at load), and a tool whose own name contains `__` is matched as that server's tool."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import ndjson, run_cli

SERVERS = Path(__file__).resolve().parents[1] / "mcp" / "servers"
DEMO = SERVERS / "demo_server.py"
SEGMENTS = SERVERS / "segments_server.py"


def config(tmp_path: Path, servers: dict[str, list[str]]) -> str:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {
        name: {"type": "stdio", "command": sys.executable, "args": args}
        for name, args in servers.items()}}))
    return str(path)


def calls(*names_and_inputs: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
    select = ",".join(name for name, _ in names_and_inputs)
    return [{"content": [{"type": "tool_use", "name": "ToolSearch",
                          "input": {"query": f"select:{select}"}}]},
            {"content": [{"type": "tool_use", "name": n, "input": i}
                         for n, i in names_and_inputs]},
            {"content": [{"type": "text", "text": "done"}]}]


def results(proc: Any) -> list[dict[str, Any]]:
    return [b for x in ndjson(proc.stdout) if x["type"] == "user"
            for b in x["message"]["content"] if b.get("type") == "tool_result"]


@pytest.mark.parametrize("allow", ["mcp__docs", "mcp__docs__*"])
def test_a_server_named_docs__admin_gets_nothing_from_an_allow_on_docs(
        project: Path, api: Any, tmp_path: Path, allow: str) -> None:
    marker = project / "wiped"
    api(calls(("mcp__docs__echo", {"text": "hi"}),
              ("mcp__docs__admin__danger", {"path": str(marker)})))
    cfg = config(tmp_path, {"docs": [str(DEMO), "docs"],
                            "docs__admin": [str(DEMO), "docs__admin"]})
    proc = run_cli(["-p", "use mcp", "--output-format", "stream-json", "--mcp-config", cfg,
                    "--allowedTools", allow], project, timeout=120)
    assert proc.returncode == 0, proc.stderr
    init = ndjson(proc.stdout)[0]
    status = {s["name"]: s["status"] for s in init["mcp_servers"]}
    assert status == {"docs": "connected", "docs__admin": "failed"}
    assert not any(t.startswith("mcp__docs__admin") for t in init["tools"])
    echo, danger = results(proc)[1:]
    assert echo["content"] == "docs: hi" and not echo.get("is_error")
    assert danger.get("is_error") and not marker.exists()
    refused = next(s for s in init["mcp_servers"] if s["name"] == "docs__admin")
    assert "its name contains `__`" in refused["error"] and "rename it" in refused["error"]


def test_a_tool_whose_name_contains_the_separator_is_matched_as_a_tool(
        project: Path, api: Any, tmp_path: Path) -> None:
    """Server `docs`, tool `admin__wipe`: a rule for the tool `admin` of docs does not cover
    it, a rule for the server does."""
    marker = project / "wiped"
    turns = calls(("mcp__docs__search", {"text": "q"}),
                  ("mcp__docs__admin__wipe", {"path": str(marker)}))
    cfg = config(tmp_path, {"docs": [str(SEGMENTS), "docs"]})
    api(turns)
    proc = run_cli(["-p", "use mcp", "--output-format", "stream-json", "--mcp-config", cfg,
                    "--allowedTools", "mcp__docs__search mcp__docs__admin"], project,
                   timeout=120)
    assert proc.returncode == 0, proc.stderr
    search, wipe = results(proc)[1:]
    assert search["content"] == "docs found: q"
    assert wipe.get("is_error") and not marker.exists()
    assert [d["tool_name"] for d in ndjson(proc.stdout)[-1]["permission_denials"]] == [
        "mcp__docs__admin__wipe"]

    api(turns)
    proc = run_cli(["-p", "use mcp", "--output-format", "stream-json", "--mcp-config", cfg,
                    "--allowedTools", "mcp__docs"], project, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert marker.read_text() == "wiped by docs"  # the server's own tool, allowed by its rule
