"""The scripted server speaks the Messages API well enough for the real SDK to be fooled.

Every test drives it with the real `anthropic.AsyncAnthropic` (or raw HTTP where the wire
format itself is the point), never a mock of either side.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import subprocess
import sys
import time
from pathlib import Path

import anthropic
import httpx2
import pytest

from claude_harness.testing import MockApiServer, ScriptError, load_script
from tests.testing.mock_api_helpers import USER_HI

ROOT = Path(__file__).resolve().parents[2]


def raw_post(server: MockApiServer, body: dict, headers: dict | None = None):
    """POST with the stdlib client and return (response, raw body bytes)."""
    conn = http.client.HTTPConnection(server.host, server.port, timeout=10)
    conn.request("POST", "/v1/messages", json.dumps(body),
                 {"content-type": "application/json", **(headers or {})})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response, data


def parse_sse(data: bytes) -> list[tuple[str, dict]]:
    frames = []
    for frame in data.decode().split("\n\n"):
        if not frame.strip():
            continue
        lines = frame.split("\n")
        assert lines[0].startswith("event: ") and lines[1].startswith("data: "), frame
        frames.append((lines[0][7:], json.loads(lines[1][6:])))
    return frames


# -- streaming ------------------------------------------------------------------------------


async def test_streamed_text_arrives_in_several_deltas_and_assembles(serve, connect):
    text = "The quick brown fox jumps over the lazy dog, twice over."
    server = serve({"turns": [{"content": [{"type": "text", "text": text}]}]})
    deltas = []
    async with connect(server).messages.stream(model="claude-test-1", max_tokens=50,
                                           messages=USER_HI) as stream:
        async for chunk in stream.text_stream:
            deltas.append(chunk)
        message = await stream.get_final_message()
    assert len(deltas) >= 3
    assert "".join(deltas) == text
    assert message.content[0].text == text
    assert message.model == "claude-test-1"
    assert message.stop_reason == "end_turn"
    assert message.usage.output_tokens > 0 and message.usage.input_tokens > 0


def test_wire_format_matches_the_api_event_grammar(serve):
    server = serve({"turns": [{"content": ["Hello, world", {"type": "tool_use", "name": "Bash",
                                                            "input": {"command": "ls -la"}}]}]})
    response, data = raw_post(server, {"model": "m", "max_tokens": 9, "stream": True,
                                       "messages": USER_HI})
    assert response.status == 200
    assert response.getheader("content-type").startswith("text/event-stream")
    assert response.getheader("request-id", "").startswith("req_")
    frames = parse_sse(data)
    names = [name for name, _ in frames]
    assert all(name == payload["type"] for name, payload in frames)
    assert names[:3] == ["message_start", "content_block_start", "ping"]
    assert names.count("ping") == 1
    assert names[-2:] == ["message_delta", "message_stop"]
    start = frames[0][1]["message"]
    assert start["content"] == [] and start["stop_reason"] is None and start["role"] == "assistant"
    assert {"input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"} <= set(start["usage"])
    starts = [p["content_block"] for n, p in frames if n == "content_block_start"]
    assert starts[1] == {"type": "tool_use", "id": "toolu_0_1", "name": "Bash", "input": {}}
    assert names.count("content_block_stop") == 2
    assert frames[-2][1]["delta"]["stop_reason"] == "tool_use"


async def test_tool_input_split_over_several_json_deltas_parses_via_sdk(serve, connect):
    tool_input = {"file_path": "/tmp/some/long/path.py", "offset": 10, "limit": 200,
                  "nested": {"a": [1, 2, 3]}}
    server = serve({"turns": [{"content": [{"type": "tool_use", "name": "Read",
                                            "input": tool_input}]}]})
    json_chunks = []
    async with connect(server).messages.stream(model="m", max_tokens=50, messages=USER_HI) as stream:
        async for event in stream:
            if event.type == "content_block_delta" and event.delta.type == "input_json_delta":
                json_chunks.append(event.delta.partial_json)
        message = await stream.get_final_message()
    assert len([c for c in json_chunks if c]) >= 3
    assert json.loads("".join(json_chunks)) == tool_input
    block = message.content[0]
    assert block.type == "tool_use" and block.name == "Read" and block.input == tool_input
    assert block.id == "toolu_0_0"
    assert message.stop_reason == "tool_use"


async def test_raw_input_is_streamed_verbatim_even_when_invalid(serve, connect):
    raw = '{"command": "echo hi", "timeout": '
    server = serve([{"content": [{"type": "tool_use", "name": "Bash", "raw_input": raw,
                                  "id": "toolu_custom"}]}])
    stream = await connect(server).messages.create(model="m", max_tokens=5, messages=USER_HI,
                                               stream=True)
    pieces, ids = [], []
    async for event in stream:
        if event.type == "content_block_start":
            ids.append(event.content_block.id)
        if event.type == "content_block_delta":
            pieces.append(event.delta.partial_json)
    assert "".join(pieces) == raw
    assert ids == ["toolu_custom"]


async def test_thinking_and_signature_round_trip_is_accepted(serve, connect):
    server = serve({"turns": [
        {"content": [{"type": "thinking", "thinking": "I should list the files first."},
                     {"type": "tool_use", "name": "Bash", "input": {"command": "ls"}}]},
        {"content": ["Done."]},
    ]})
    client = connect(server)
    thinking = {"type": "enabled", "budget_tokens": 1024}
    tools = [{"name": "Bash", "input_schema": {"type": "object", "properties": {}}}]
    async with client.messages.stream(model="m", max_tokens=2000, messages=USER_HI,
                                      thinking=thinking, tools=tools) as stream:
        first = await stream.get_final_message()
    think, tool = first.content
    assert think.type == "thinking" and think.thinking == "I should list the files first."
    assert think.signature
    history = [*USER_HI,
               {"role": "assistant", "content": [b.model_dump(exclude_none=True,
                                                             include={"type", "thinking", "signature", "id", "name", "input"})
                                                 for b in first.content]},
               {"role": "user", "content": [{"type": "tool_result", "tool_use_id": tool.id,
                                             "content": "a.txt"}]}]
    second = await client.messages.create(model="m", max_tokens=2000, messages=history,
                                          thinking=thinking, tools=tools)
    assert second.content[0].text == "Done."


async def test_non_streaming_request_gets_a_whole_message(serve, connect):
    server = serve({"turns": [{"content": ["Hi there", {"type": "tool_use", "name": "Glob",
                                                        "input": {"pattern": "*.py"}}],
                               "usage": {"output_tokens": 42}}]})
    message = await connect(server).messages.create(model="claude-x", max_tokens=10, messages=USER_HI)
    assert message.model == "claude-x"
    assert message.content[0].text == "Hi there"
    assert message.content[1].input == {"pattern": "*.py"}
    assert message.stop_reason == "tool_use"
    assert message.usage.output_tokens == 42


# -- faults ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("status", "exc_class", "error_type"), [
    (429, anthropic.RateLimitError, "rate_limit_error"),
    (500, anthropic.InternalServerError, "api_error"),
    (529, anthropic.OverloadedError, "overloaded_error"),
    (401, anthropic.AuthenticationError, "authentication_error"),
    (403, anthropic.PermissionDeniedError, "permission_error"),
])
async def test_status_faults_raise_the_sdk_exception_and_consume_the_turn(
        serve, connect, status, exc_class, error_type):
    server = serve({"turns": [{"fault": {"status": status, "message": "scripted trouble"}},
                              "recovered"]})
    client = connect(server)
    with pytest.raises(exc_class) as info:
        await client.messages.create(model="m", max_tokens=5, messages=USER_HI)
    assert info.value.status_code == status
    assert info.value.body["error"] == {"type": error_type, "message": "scripted trouble"}
    assert info.value.body["type"] == "error"
    message = await client.messages.create(model="m", max_tokens=5, messages=USER_HI)
    assert message.content[0].text == "recovered"


async def test_rate_limit_fault_sends_retry_after_header(serve, connect):
    server = serve({"turns": [{"fault": {"status": 429, "retry_after": 7}}]})
    with pytest.raises(anthropic.RateLimitError) as info:
        async with connect(server).messages.stream(model="m", max_tokens=5, messages=USER_HI) as s:
            await s.get_final_message()
    assert info.value.response.headers["retry-after"] == "7"


async def test_dropped_stream_raises_after_partial_events(serve, connect):
    server = serve({"turns": [{"content": ["a fairly long answer that will be cut"],
                               "fault": {"drop_after_events": 4}}]})
    seen = []
    with pytest.raises((httpx2.HTTPError, anthropic.APIConnectionError)):
        async with connect(server).messages.stream(model="m", max_tokens=5, messages=USER_HI) as s:
            async for event in s:
                seen.append(event.type)
    assert "message_start" in seen and "message_stop" not in seen
    assert server.log[-1]["event"] == "response_end" and server.log[-1]["dropped"] is True


async def test_sse_error_event_raises_mid_stream(serve, connect):
    server = serve({"turns": [{"content": ["partial answer here"],
                               "fault": {"sse_error": {"type": "overloaded_error",
                                                       "message": "Overloaded"},
                                         "after_events": 3}}]})
    seen = []
    with pytest.raises(anthropic.APIStatusError) as info:
        async with connect(server).messages.stream(model="m", max_tokens=5, messages=USER_HI) as s:
            async for event in s:
                seen.append(event.type)
    assert info.value.body == {"type": "error",
                               "error": {"type": "overloaded_error", "message": "Overloaded"}}
    assert seen[0] == "message_start" and "message_stop" not in seen


async def test_exhausted_script_answers_500_with_clear_message(serve, connect):
    server = serve(["only one"])
    client = connect(server)
    await client.messages.create(model="m", max_tokens=5, messages=USER_HI)
    with pytest.raises(anthropic.InternalServerError) as info:
        await client.messages.create(model="m", max_tokens=5, messages=USER_HI)
    assert "mock_api: script exhausted (1 turns)" in str(info.value)


async def test_api_key_is_enforced_when_configured(serve, connect):
    server = serve(["welcome", "bearer ok"], api_key="sekrit")
    with pytest.raises(anthropic.AuthenticationError):
        await connect(server, api_key="wrong").messages.create(model="m", max_tokens=5,
                                                           messages=USER_HI)
    assert server.remaining_turns == 2
    ok = await connect(server, api_key="sekrit").messages.create(model="m", max_tokens=5,
                                                             messages=USER_HI)
    assert ok.content[0].text == "welcome"
    response, data = raw_post(server, {"model": "m", "max_tokens": 5, "messages": USER_HI},
                              {"authorization": "Bearer sekrit"})
    assert response.status == 200 and json.loads(data)["content"][0]["text"] == "bearer ok"


async def test_delay_is_applied_between_events(serve, connect):
    server = serve([{"content": ["abcdefghi"], "delay": 0.03}])
    started = time.monotonic()
    async with connect(server).messages.stream(model="m", max_tokens=5, messages=USER_HI) as s:
        await s.get_final_message()
    # message_start, block start, ping, 3 deltas, block stop, message_delta, message_stop
    assert time.monotonic() - started >= 9 * 0.03


async def test_client_abandoning_a_stream_leaves_the_server_serving(serve, connect):
    server = serve([{"content": ["x" * 200], "delay": 0.02}, "still here"])
    client = connect(server)
    async with client.messages.stream(model="m", max_tokens=5, messages=USER_HI) as s:
        async for _ in s:
            break
    message = await client.messages.create(model="m", max_tokens=5, messages=USER_HI)
    assert message.content[0].text == "still here"


# -- log ------------------------------------------------------------------------------------


async def test_log_records_bodies_redacted_headers_and_response_end_times(serve, connect, tmp_path):
    log_path = tmp_path / "api.jsonl"
    server = serve(["one", "two"], log_path=log_path)
    client = connect(server, api_key="very-secret-key")
    await client.messages.create(model="m", max_tokens=5, messages=USER_HI)
    with pytest.raises(anthropic.BadRequestError):
        await client.messages.create(model="m", max_tokens=5,
                                     messages=[{"role": "user", "content": " "}])
    second = [*USER_HI, {"role": "assistant", "content": "one"},
              {"role": "user", "content": "again"}]
    async with client.messages.stream(model="m", max_tokens=5, messages=second) as s:
        await s.get_final_message()
    entries = [json.loads(line) for line in log_path.read_text().splitlines()]
    assert entries == server.log
    kinds = [(e["event"], e["index"], e.get("status")) for e in entries]
    assert kinds == [("request", 0, None), ("response_end", 0, 200),
                     ("request", 1, None), ("response_end", 1, 400),
                     ("request", 2, None), ("response_end", 2, 200)]
    assert [e.get("turn") for e in entries if e["event"] == "response_end"] == [0, None, 1]
    assert entries[4]["body"]["messages"] == second
    assert entries[4]["body"]["stream"] is True
    assert [r["messages"] for r in server.requests] == [USER_HI, [{"role": "user", "content": " "}],
                                                         second]
    assert "very-secret-key" not in log_path.read_text()
    sent_key = entries[0]["headers"].get("x-api-key") or entries[0]["headers"]["authorization"]
    assert sent_key == "[redacted]"
    times = [e["t"] for e in entries]
    assert times == sorted(times)
    overhead = entries[4]["t"] - entries[3]["t"]
    assert overhead >= 0


def test_script_errors_are_reported_at_load_time(tmp_path):
    with pytest.raises(ScriptError, match=r"turns\[0\]\.content\[0\]: unknown block type"):
        load_script([{"content": [{"type": "image"}]}])
    with pytest.raises(ScriptError, match="fault needs"):
        load_script([{"fault": {"oops": 1}}])
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(ScriptError, match="not valid JSON"):
        load_script(bad)


# -- CLI ------------------------------------------------------------------------------------


def test_cli_prints_listening_line_and_serves_a_request(tmp_path):
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": [{"content": [{"type": "text", "text": "from cli"}]}]}))
    log_path = tmp_path / "log.jsonl"
    proc = subprocess.Popen(
        [sys.executable, "-m", "claude_harness.testing.mock_api", "--script", str(script),
         "--port", "0", "--log", str(log_path)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("listening on http://127.0.0.1:")
        port = int(line.rsplit(":", 1)[1])
        assert port > 0
        with anthropic.Anthropic(base_url=f"http://127.0.0.1:{port}", api_key="k",
                                 max_retries=0) as client:
            with client.messages.stream(model="m", max_tokens=5, messages=USER_HI) as stream:
                text = stream.get_final_text()
        assert text == "from cli"
        events = [json.loads(x)["event"] for x in log_path.read_text().splitlines()]
        assert events == ["request", "response_end"]
    finally:
        proc.terminate()
        proc.communicate(timeout=10)


def test_cli_rejects_a_broken_script_with_exit_code_2(tmp_path):
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"turns": [{"content": [{"type": "tool_result"}]}]}))
    done = subprocess.run(
        [sys.executable, "-m", "claude_harness.testing.mock_api", "--script", str(script)],
        cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 2
    assert "unknown block type" in done.stderr
    assert done.stdout == ""


async def test_concurrent_streams_each_get_their_own_turn(serve, connect):
    server = serve([{"content": ["first answer"], "delay": 0.01},
                    {"content": ["second answer"], "delay": 0.01}])
    client = connect(server)

    async def ask() -> str:
        async with client.messages.stream(model="m", max_tokens=5, messages=USER_HI) as s:
            return await s.get_final_text()

    answers = await asyncio.gather(ask(), ask())
    assert sorted(answers) == ["first answer", "second answer"]
    assert server.remaining_turns == 0


async def test_closed_server_refuses_further_requests_on_kept_alive_connections(serve, connect):
    server = serve(["one", "two"])
    client = connect(server)
    await client.messages.create(model="m", max_tokens=5, messages=USER_HI)
    server.close()
    with pytest.raises(anthropic.APIConnectionError):
        await client.messages.create(model="m", max_tokens=5, messages=USER_HI)
    assert server.remaining_turns == 1
