"""MCP wiring through the real binary: `Elicitation` hooks from the settings answer a server's
question, `--add-dir` directories are the servers' roots from the start, and a deferred MCP
tool called before ToolSearch runs."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.e2e.support import ndjson, run_cli
from tests.mcp.npm_servers import FILESYSTEM, require

DEMO = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"


def tool_results(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [b for x in lines if x["type"] == "user" for b in x["message"]["content"]
            if isinstance(b, dict) and b.get("type") == "tool_result"]


def test_an_elicitation_hook_in_the_settings_answers_in_print_mode(
        project: Path, api: Any, home: Path, tmp_path: Path) -> None:
    hook = tmp_path / "answer.sh"
    hook.write_text("#!/bin/sh\ncat > /dev/null\n"
                    "echo '{\"hookSpecificOutput\": {\"hookEventName\": \"Elicitation\", "
                    "\"action\": \"accept\", \"content\": {\"name\": \"Hooked\"}}}'\n")
    hook.chmod(0o755)
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps({"hooks": {"Elicitation": [
        {"matcher": "srv", "hooks": [{"type": "command", "command": str(hook)}]}]}}))
    api([{"content": [{"type": "tool_use", "name": "mcp__srv__ask", "input": {}}]},
         {"content": [{"type": "text", "text": "done"}]}])
    cfg = tmp_path / "mcp.json"
    cfg.write_text(json.dumps({"mcpServers": {"srv": {
        "type": "stdio", "command": sys.executable, "args": [str(DEMO), "srv"]}}}))
    run = run_cli(["-p", "ask me", "--output-format", "stream-json", "--verbose",
                   "--mcp-config", str(cfg), "--allowedTools", "mcp__srv__ask"], project,
                  timeout=60)
    assert run.returncode == 0, run.stderr
    (result,) = tool_results(ndjson(run.stdout))
    assert result["content"] == "accept: Hooked (30)"  # the hook answered; age: its default


def test_add_dir_directories_are_roots_and_a_deferred_tool_runs_when_called(
        project: Path, api: Any, tmp_path: Path) -> None:
    script = require(FILESYSTEM)
    other = tmp_path / "extra"
    other.mkdir()
    (other / "note.txt").write_text("from the extra directory\n")
    server = api([{"content": [{"type": "tool_use", "name": "mcp__fs__read_text_file",
                                "input": {"path": str(other / "note.txt")}}]},
                  {"content": [{"type": "text", "text": "done"}]}])
    cfg = tmp_path / "fs.json"
    cfg.write_text(json.dumps({"mcpServers": {"fs": {
        "type": "stdio", "command": "node", "args": [script]}}}))
    run = run_cli(["-p", "read it", "--output-format", "stream-json", "--verbose",
                   "--mcp-config", str(cfg), "--add-dir", str(other),
                   "--allowedTools", "mcp__fs"], project, timeout=90)
    assert run.returncode == 0, run.stderr
    sent = {t["name"]: t for t in server.requests[0]["tools"]}
    assert sent["mcp__fs__read_text_file"].get("defer_loading")  # not loaded by ToolSearch
    (result,) = tool_results(ndjson(run.stdout))
    assert not result.get("is_error"), result
    assert "from the extra directory" in json.dumps(result["content"])
