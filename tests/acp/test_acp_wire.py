"""The wire itself, written by hand as a broken client would: garbage, a JSON array, an
unknown method, a prompt for a session nobody made. Each gets a JSON-RPC error and the
process answers the next valid request."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.acp.acp_client import our_cli


async def _exchange(lines: list[str], expected: int) -> tuple[list[dict[str, Any]], Any]:
    proc = await asyncio.create_subprocess_exec(
        our_cli(), "--acp", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    answers: list[dict[str, Any]] = []
    for line in lines:
        proc.stdin.write(line.encode() + b"\n")
    await proc.stdin.drain()
    while len(answers) < expected:
        raw = await asyncio.wait_for(proc.stdout.readline(), 30)
        assert raw, f"the agent closed its stdout; answers so far: {answers}"
        answers.append(json.loads(raw))
    return answers, proc


async def test_malformed_requests_are_answered_and_the_session_lives_on(
        project: Path, api: Any) -> None:
    api(["fine"])
    lines = [
        "this is not json",
        "[1, 2, 3]",
        '{"jsonrpc": "2.0", "id": 1, "method": 42}',
        '{"jsonrpc": "2.0", "id": 2, "method": "no/such/method", "params": {}}',
        '{"jsonrpc": "2.0", "id": 3, "method": "session/prompt", "params": {"sessionId": '
        '"not-a-session", "prompt": [{"type": "text", "text": "hi"}]}}',
        '{"jsonrpc": "2.0", "id": 4, "method": "session/new", "params": {"mcpServers": 7}}',
        '{"jsonrpc": "2.0", "id": 5, "method": "initialize", "params": {"protocolVersion": 1}}',
        json.dumps({"jsonrpc": "2.0", "id": 6, "method": "session/new",
                    "params": {"cwd": str(project), "mcpServers": []}}),
    ]
    answers, proc = await _exchange(lines, 8)
    try:
        errors = {a.get("id"): a["error"] for a in answers if "error" in a}
        nulls = [a["error"]["code"] for a in answers if a.get("id") is None]
        assert sorted(nulls) == [-32700, -32600]
        assert errors[1]["code"] == -32600
        assert errors[2]["code"] == -32601
        assert errors[3]["code"] == -32602 and "Unknown session" in errors[3]["message"]
        assert errors[4]["code"] == -32602
        results = {a["id"]: a["result"] for a in answers if "result" in a}
        assert results[5]["agentCapabilities"]["loadSession"] is True
        session_id = results[6]["sessionId"]
        prompt = {"jsonrpc": "2.0", "id": 7, "method": "session/prompt", "params": {
            "sessionId": session_id, "prompt": [{"type": "text", "text": "still there?"}]}}
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps(prompt).encode() + b"\n")
        await proc.stdin.drain()
        while True:
            answer = json.loads(await asyncio.wait_for(proc.stdout.readline(), 30))
            if answer.get("id") == 7:
                break
        assert answer["result"]["stopReason"] == "end_turn"
        assert proc.returncode is None
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        await asyncio.wait_for(proc.wait(), 20)
