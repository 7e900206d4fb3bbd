"""Claude Code 2.1.332 as a client of `claude-harness mcp serve`: its model is offered our tools
as `mcp__<server>__<tool>`, and a call it makes runs through our permission pipeline and its
result comes back in Claude Code's next request.

Claude Code in `-p` may send its first request before its MCP servers have connected, with
whatever has connected by then. Our serve answers the handshake and `tools/list` quickly (its
tool list is cached), but under a CPU hog on each core the tools were once missing from that
request: a race in Claude Code's start-up, not what these tests check. So Claude Code is told
to wait for its servers (`MCP_CONNECTION_NONBLOCKING=false`, its own switch)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from claude_harness.testing.mock_api import MockApiServer
from tests.cc_reference import needs_claude_code, run_claude_code

BINARY = Path(sys.executable).with_name("claude-harness")


def add_our_server(project: Path) -> None:
    """`claude mcp add ch -- claude-harness mcp serve` and `claude mcp list`, the way a user
    wires it up (the list starts our server once, which keeps its tool list for the next
    start: mcp_serve_cache.py)."""
    done = run_claude_code(["mcp", "add", "ch", "--", str(BINARY), "mcp", "serve"], project)
    assert done.returncode == 0, done.stderr
    listed = run_claude_code(["mcp", "list"], project).stdout
    assert f"ch: {BINARY} mcp serve - ✔ Connected" in listed


def run_print(project: Path, turns: list[Any], **env: str) -> MockApiServer:
    server = MockApiServer({"turns": turns, "side": ["side"] * 4})
    try:
        done = run_claude_code(["-p", "go", "--dangerously-skip-permissions"], project,
                               base_url=server.url,
                               extra_env={"MCP_CONNECTION_NONBLOCKING": "false", **env})
        assert done.returncode == 0, done.stderr
    finally:
        server.close()
    return server


def tool_results(request: dict[str, Any]) -> list[dict[str, Any]]:
    last = request["messages"][-1]
    return [b for b in last["content"] if isinstance(b, dict) and b.get("type") == "tool_result"]


def result_text(block: dict[str, Any]) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [])


@needs_claude_code
def test_claude_code_offers_our_tools_and_calls_run_through_our_pipeline(
        project: Path, home: Path) -> None:
    add_our_server(project)
    server = run_print(project, [
        {"content": [{"type": "tool_use", "name": "mcp__ch__Read",
                      "input": {"file_path": str(project / "README.md")}}]},
        {"content": [{"type": "tool_use", "name": "mcp__ch__Write",
                      "input": {"file_path": str(project / "made.txt"), "content": "x"}}]},
        "done"])
    first, after_read, after_write = (r for r in server.requests if isinstance(r, dict)
                                      and r.get("tools"))
    offered = json.dumps(first)  # the deferred-tools list names each MCP tool
    assert all(f"mcp__ch__{name}" in offered for name in ("Read", "Write", "Bash", "Grep"))
    assert "mcp__ch__Agent" not in offered  # it needs our model: not offered
    (read,) = tool_results(after_read)
    assert not read.get("is_error") and "# demo project" in result_text(read)
    (write,) = tool_results(after_write)  # nobody can answer our permission question
    assert write.get("is_error") and "not granted" in result_text(write)
    assert not (project / "made.txt").exists()


@needs_claude_code
def test_without_tool_search_our_schemas_are_in_the_tools_list(project: Path,
                                                               home: Path) -> None:
    add_our_server(project)
    server = run_print(project, ["done"], ENABLE_TOOL_SEARCH="false")
    (first,) = (r for r in server.requests if isinstance(r, dict) and r.get("tools"))
    tools = {t["name"]: t for t in first["tools"]}
    assert {"mcp__ch__Read", "mcp__ch__Edit", "mcp__ch__Glob"} <= set(tools)
    schema = tools["mcp__ch__Read"]["input_schema"]
    assert "file_path" in schema["properties"] and "file_path" in schema["required"]
