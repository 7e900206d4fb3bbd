"""The real `claude-harness --plain` in tmux: thinking and effort, an MCP server's question
answered field by field, MCP prompts as commands, hostile output that must not act on the
terminal, and a 1 MB one-line answer."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.faults.test_terminal_safety import HOSTILE

pytestmark = [pytest.mark.timeout(120), pytest.mark.slow]

READY = "shift+tab to cycle"
DEMO = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "demo_server.py"


def demo_config(tmp_path: Path) -> str:
    path = tmp_path / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"srv": {
        "type": "stdio", "command": sys.executable, "args": [str(DEMO), "srv"]}}}))
    return str(path)


def test_thinking_effort_and_a_servers_question(plain_tmux: Any, tmp_path: Path) -> None:
    turns = [
        {"content": [{"type": "thinking", "thinking": "Ask who it is."},
                     {"type": "tool_use", "name": "mcp__srv__ask", "input": {}}]},
        "Hello Grace.",
        "Thinking hard now.",
    ]
    session, server = plain_tmux(turns, "--mcp-config", demo_config(tmp_path),
                                 "--allowedTools", "mcp__srv__ask")
    screen = session.wait_for(READY)
    assert "◐ medium" in screen  # the toolbar: sonnet 5.5's default effort
    session.type("who am i?")
    session.send("Enter")
    session.wait_for("Name *:", timeout=40)
    assert "MCP server srv asks: Who are you?" in session.screen()
    session.type("Grace")
    session.send("Enter")
    session.wait_for("Age [30]:")
    session.send("Enter")  # keeps the default
    screen = session.wait_for("Hello Grace.")
    assert "✻ Thought for" in screen
    results = [b.get("content") for m in server.requests[1]["messages"] for b in m["content"]
               if b.get("type") == "tool_result"]
    assert results == ["accept: Grace (30)"]

    session.type("/effort max")
    session.send("Enter")
    session.wait_for("Effort level set to max")
    session.wait_for("◈ max")
    session.type("/status")
    session.send("Enter")
    session.wait_for("Thinking:     on")
    session.type("go")
    session.send("Enter")
    session.wait_for("Thinking hard now.")
    assert server.requests[-1]["output_config"] == {"effort": "max"}


def test_mcp_prompts_are_commands(plain_tmux: Any, tmp_path: Path) -> None:
    session, server = plain_tmux(["Reviewed it."], "--mcp-config", demo_config(tmp_path))
    session.wait_for(READY)
    deadline = time.monotonic() + 30
    while "/mcp__srv__review <file> [focus]" not in session.screen():
        assert time.monotonic() < deadline, session.screen()
        session.type("/help")  # the server connects in the background
        session.send("Enter")
        time.sleep(1)
    session.type("/mcp__srv__review src/app.py naming")
    session.send("Enter")
    session.wait_for("Reviewed it.")
    sent = [m for m in server.requests[-1]["messages"] if m["role"] == "user"][-1]["content"]
    assert sent[0]["text"] == "Please review src/app.py, focusing on naming."


def test_hostile_answers_and_tool_output_do_not_act_on_the_terminal(
        plain_tmux: Any, project: Path) -> None:
    payload = "".join(HOSTILE.values())
    (project / "evil.txt").write_text(f"file start {payload} file end\n")
    turns = [
        {"content": [f"Answer start {payload} answer end.",
                     {"type": "tool_use", "name": "Bash", "input": {"command": "cat evil.txt"}}],
         "chunk_size": 7},
        f"Second {payload} done.",
    ]
    session, _server = plain_tmux(turns, "--allowedTools", "Bash(cat:*)")
    session.wait_for(READY)
    title_before, _ = session.pane_state()
    session.type("show me")
    session.send("Enter")
    screen = session.wait_for("done.")
    title, alternate = session.pane_state()
    assert title == title_before and "pwned" not in title
    assert alternate == "0"
    assert "Answer start" in screen and "answer end." in screen
    assert "file start" in screen and "file end" in screen  # the tool's output, cleaned
    assert "Second" in screen


def test_a_one_megabyte_line_is_rendered_promptly(plain_tmux: Any, home: Path) -> None:
    """The live view shows the tail of the line; the scrollback gets it whole, once; the
    transcript keeps every character. (The render cost alone is in
    scripts/bench_plain_long_line.py; this also pays the API stream and the terminal.)"""
    answer = ("lorem ipsum " * 90_000)[:1_000_000 - 8] + " THE-END"
    session, _server = plain_tmux([{"content": [answer], "chunk_size": 4096}])
    session.wait_for(READY)
    session.type("a long one")
    started = time.monotonic()
    session.send("Enter")
    session.wait_for(lambda s: "THE-END" in s and READY in s.rpartition("THE-END")[2],
                     timeout=60)
    assert time.monotonic() - started < 15
    transcripts = list((home / ".claude" / "projects").rglob("*.jsonl"))
    texts = [b.get("text", "") for path in transcripts for line in path.read_text().splitlines()
             for b in (json.loads(line).get("message") or {}).get("content") or []
             if isinstance(b, dict)]
    assert answer in texts
