"""`claude-harness mcp serve` on the wire, byte for byte: what a client that is not the Python
SDK sends (garbage, a probe of the stateless protocol era, an old protocol version) gets the
JSON-RPC answer the protocol prescribes, and the server keeps serving."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

BINARY = Path(sys.executable).with_name("claude-harness")


def exchange(project: Path, lines: list[str]) -> list[dict[str, Any]]:
    """Send `lines`, close stdin, and read every answer until the server exits."""
    done = subprocess.run([str(BINARY), "mcp", "serve"], cwd=project, env=dict(os.environ),
                          input="".join(line + "\n" for line in lines), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


LIST_CHANGED = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}


def exchange_until(project: Path, line: str, last: dict[str, Any]) -> list[dict[str, Any]]:
    """Send `line` and read answers, stdin kept open, until `last` arrives (60 s at most)."""
    proc = subprocess.Popen([str(BINARY), "mcp", "serve"], cwd=project, env=dict(os.environ),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proc.stdin is not None and proc.stdout is not None
    answers: list[dict[str, Any]] = []
    timer = threading.Timer(60, proc.kill)
    timer.start()
    try:
        proc.stdin.write(line + "\n")
        proc.stdin.flush()
        for raw in proc.stdout:
            answers.append(json.loads(raw))
            if answers[-1] == last:
                break
    finally:
        timer.cancel()
        proc.stdin.close()
        proc.wait(30)
    return answers


def request(rid: int | str, method: str, params: dict[str, Any] | None = None) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params or {}})


def test_answers_follow_the_protocol_and_bad_lines_do_not_end_the_server(project: Path) -> None:
    answers = exchange(project, [
        "this is not json",
        request("probe", "server/discover"),
        request(1, "initialize", {"protocolVersion": "2025-03-26", "capabilities": {},
                                  "clientInfo": {"name": "raw", "version": "0"}}),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        request(2, "ping"),
        request(3, "tools/list"),
        request(4, "tools/call", {"name": "Read",
                                  "arguments": {"file_path": str(project / "README.md")}}),
        request(5, "tools/call", {"name": "Agent", "arguments": {}}),
        request(6, "resources/list"),
    ])
    by_id = {a.get("id"): a for a in answers}
    assert by_id[None]["error"]["code"] == -32700
    assert by_id["probe"]["error"]["code"] == -32601  # a handshake-era server: use initialize
    init = by_id[1]["result"]
    assert init["protocolVersion"] == "2025-03-26" and "tools" in init["capabilities"]
    assert init["serverInfo"]["name"] == "claude-harness"
    assert by_id[2]["result"] == {}
    tools = {t["name"]: t for t in by_id[3]["result"]["tools"]}
    assert "Read" in tools and tools["Read"]["inputSchema"]["type"] == "object"
    assert "Agent" not in tools
    read = by_id[4]["result"]
    assert read["isError"] is False and "# demo project" in read["content"][0]["text"]
    assert by_id[5]["result"]["isError"] is True  # not offered here
    assert by_id[6]["error"]["code"] == -32601
    assert len(answers) == 8  # nine lines; the notification got no answer


def test_an_unknown_protocol_version_gets_our_latest(project: Path) -> None:
    (answer,) = exchange(project, [request(1, "initialize", {"protocolVersion": "1999-01-01"})])
    assert answer["result"]["protocolVersion"] == "2025-11-25"


def test_the_listed_tools_follow_the_settings(project: Path, home: Path) -> None:
    """The list is answered before the rest of the session is built, from the same settings:
    a tool the user's settings deny outright is not offered."""
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps(
        {"permissions": {"deny": ["WebSearch", "NotebookEdit"]}}))
    (answer,) = exchange(project, [request(1, "tools/list")])
    names = {t["name"] for t in answer["result"]["tools"]}
    assert "Read" in names and not {"WebSearch", "NotebookEdit"} & names


def test_the_next_start_answers_with_the_last_list_and_corrects_it(project: Path,
                                                                    home: Path) -> None:
    """The second start answers tools/list from the first one's list at once; the settings
    changed in between, so it then tells the client to list again, and the third start
    answers with the new list."""
    names = lambda answers: {t["name"] for a in answers if "result" in a  # noqa: E731
                             for t in a["result"].get("tools", [])}
    assert "Grep" in names(exchange(project, [request(1, "tools/list")]))
    (home / ".claude").mkdir(exist_ok=True)
    (home / ".claude" / "settings.json").write_text(json.dumps(
        {"permissions": {"deny": ["Grep"]}}))
    second = exchange_until(project, request(1, "tools/list"), LIST_CHANGED)
    assert "Grep" in names(second)  # last time's list, answered before the settings are read
    assert second[-1] == LIST_CHANGED
    assert "Grep" not in names(exchange(project, [request(1, "tools/list")]))
