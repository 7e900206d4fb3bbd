"""Streams recorded from the real Messages API, played byte for byte by the scripted server to
the real SDK and our loop: every block comes back in the next request exactly as the API sent
it (all its fields, `caller` and nulls included; as JSON, whatever the key order), nothing is
retried, and a tool whose input arrived whole in content_block_start runs with that input.

The recordings (tests/fixtures/recorded_streams/, see the README there) come from other
projects' test fixtures:
  - github.com/pydantic/pydantic-ai @ 4fda3898, tests/models/cassettes/test_anthropic/
    test_anthropic_mcp_servers_stream.yaml (thinking with signature_delta, mcp_tool_use whose
    input arrives as input_json_delta, mcp_tool_result), test_anthropic_model_thinking_part_
    redacted_stream.yaml (redacted_thinking), test_anthropic_web_fetch_tool_stream.yaml
    (server_tool_use web_fetch, web_fetch_tool_result);
  - github.com/vercel/ai @ ed857f50, packages/anthropic/src/__fixtures__/
    anthropic-web-search-tool.1.chunks.txt (server_tool_use web_search with input_json_delta,
    web_search_tool_result, text blocks with citations_delta), anthropic-programmatic-tool-
    calling.1.chunks.txt (a tool_use called from code execution: its input whole in
    content_block_start, a `caller` field), anthropic-compaction.1.chunks.txt (a block type
    this harness does not model, `compaction`, filled by a delta type it does not know).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.events import ApiRetry, ServerToolUse, ToolResultEvent, TurnEnd
from claude_harness.testing.recorded import message_blocks, sse_frames
from tests.e2e.support import conversation, make_engine, run_cli, run_prompt

RECORDED = Path(__file__).parent.parent / "fixtures" / "recorded_streams"


def recorded(name: str) -> str:
    return (RECORDED / name).read_text(encoding="utf-8")


def as_sent(block: dict[str, Any]) -> str:
    """A block as JSON, without the cache breakpoint the harness may add to the last one."""
    return json.dumps({k: v for k, v in block.items() if k != "cache_control"}, sort_keys=True)


def expected_blocks(sse: str) -> list[str]:
    """The recorded blocks, less the whitespace-only text blocks the API puts between cited
    passages: it refuses them in a request ("text content blocks must contain non-whitespace
    text"), so they are the one thing not sent back."""
    return [as_sent(b) for b in message_blocks(sse_frames(sse))[0]
            if b.get("type") != "text" or str(b.get("text", "")).strip()]


def assistant_sent(request: dict[str, Any]) -> list[str]:
    (assistant,) = [m for m in conversation(request) if m["role"] == "assistant"]
    return [as_sent(b) for b in assistant["content"]]


def no_retry(events: list[Any], server: Any) -> None:
    assert not [e for e in events if isinstance(e, ApiRetry)]
    ends = [e for e in events if isinstance(e, TurnEnd)]
    assert [e.reason for e in ends] == ["end_turn"], ends
    assert all(e.get("status") == 200 for e in server.log if e["event"] == "response_end")


@pytest.mark.parametrize("name", [
    "mcp_servers_stream.sse",
    "web_search_tool.sse",
    "web_fetch_tool_stream.sse",
    "redacted_thinking_stream.sse",
    "compaction.sse",
])
async def test_a_recorded_answer_is_kept_and_sent_back_exactly(project: Path, api: Any,
                                                               name: str) -> None:
    sse = recorded(name)
    server = api([{"sse": sse}, "Second answer."])
    engine = make_engine(server, project)
    first = await run_prompt(engine, "first question")
    no_retry(first, server)
    second = await run_prompt(engine, "second question")
    no_retry(second, server)
    assert len(server.requests) == 2, "a recorded answer was retried"
    assert assistant_sent(server.requests[1]) == expected_blocks(sse)


def test_the_recordings_hold_what_this_file_claims() -> None:
    """The shapes the tests above rely on are really in the recordings."""
    kinds = {name: [b["type"] for b in message_blocks(sse_frames(recorded(name)))[0]]
             for name in ("mcp_servers_stream.sse", "web_search_tool.sse",
                          "web_fetch_tool_stream.sse", "redacted_thinking_stream.sse",
                          "compaction.sse", "programmatic_tool_calling.sse")}
    assert kinds["mcp_servers_stream.sse"][:3] == ["thinking", "mcp_tool_use", "mcp_tool_result"]
    assert "web_fetch_tool_result" in kinds["web_fetch_tool_stream.sse"]
    assert kinds["redacted_thinking_stream.sse"][:2] == ["redacted_thinking"] * 2
    assert kinds["compaction.sse"][0] == "compaction"
    raw = {name: recorded(name) for name in kinds}
    assert '"type":"citations_delta"' in raw["web_search_tool.sse"]
    assert '"type":"compaction_delta"' in raw["compaction.sse"]
    assert '"type":"signature_delta"' in raw["mcp_servers_stream.sse"]
    for name in ("mcp_servers_stream.sse", "web_search_tool.sse"):
        assert '"type":"input_json_delta"' in raw[name]
    assert '"input":{"player":"player1"},"caller":' in raw["programmatic_tool_calling.sse"]


async def test_a_tool_input_that_arrives_whole_at_the_start_is_the_one_run(
        project: Path, api: Any) -> None:
    """The recorded programmatic call (`rollDie` with {"player": "player1"}, its input whole in
    content_block_start, a `caller` naming the code execution) with our Read tool and its
    input in place of rollDie's: the only change made to the recording."""
    target = project / "src" / "app.py"
    sse = recorded("programmatic_tool_calling.sse").replace(
        '"name":"rollDie","input":{"player":"player1"}',
        '"name":"Read","input":' + json.dumps({"file_path": str(target)}, separators=(",", ":")))
    assert '"name":"Read"' in sse
    server = api([{"sse": sse}, "Read it."])
    engine = make_engine(server, project)
    events = await run_prompt(engine, "roll")
    no_retry(events, server)
    assert len(server.requests) == 2
    assert assistant_sent(server.requests[1]) == expected_blocks(sse)
    (result,) = [e for e in events if isinstance(e, ToolResultEvent)]
    assert not result.is_error and "def greet" in str(result.content)
    answers = conversation(server.requests[1])[-1]["content"]
    assert answers[0]["type"] == "tool_result" and "def greet" in json.dumps(answers[0])


@pytest.mark.parametrize("name", ["mcp_servers_stream.sse", "web_search_tool.sse",
                                  "compaction.sse"])
def test_a_recorded_answer_survives_the_transcript(project: Path, api: Any, name: str) -> None:
    """The real binary: `-p` records the answer in the transcript, `-p -c` continues from it
    and sends the blocks back exactly as the API sent them."""
    sse = recorded(name)
    server = api([{"sse": sse}, "Second answer."])
    first = run_cli(["-p", "first question", "--output-format", "json"], project)
    assert first.returncode == 0, first.stderr
    second = run_cli(["-p", "second question", "-c", "--output-format", "json"], project)
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["result"] == "Second answer."
    assert len(server.requests) == 2
    assert assistant_sent(server.requests[1]) == expected_blocks(sse)


async def test_an_answer_that_comes_whole_in_message_start_is_kept_and_run(
        project: Path, api: Any) -> None:
    """The API's next answer in the same recording: the code calls the tool again and the
    message comes whole in message_start (its content, stop_reason tool_use), with no
    content_block events. Both calls run (our Read in place of rollDie, as above) and both
    answers go back exactly."""
    target = project / "src" / "app.py"
    read = '"name":"Read","input":' + json.dumps({"file_path": str(target)},
                                                  separators=(",", ":"))
    first = recorded("programmatic_tool_calling.sse").replace(
        '"name":"rollDie","input":{"player":"player1"}', read)
    second = recorded("programmatic_tool_calling_next.sse").replace(
        '"name":"rollDie","input":{"player":"player2"}', read)
    assert '"content_block_start"' not in second and read in second
    server = api([{"sse": first}, {"sse": second}, "Both read."])
    engine = make_engine(server, project)
    events = await run_prompt(engine, "roll twice")
    no_retry(events, server)
    ran = [e for e in events if isinstance(e, ToolResultEvent)]
    assert len(ran) == 2 and all(not r.is_error and "def greet" in str(r.content) for r in ran)
    assistants = [m for m in conversation(server.requests[2]) if m["role"] == "assistant"]
    assert [[as_sent(b) for b in m["content"]] for m in assistants] == [
        expected_blocks(first), expected_blocks(second)]


async def test_the_mcp_connector_call_shows_as_one_line(project: Path, api: Any) -> None:
    """The front ends get one line for a call the API ran over MCP, as for its other tools:
    the tool's name and its first argument, read from the mcp_tool_use whose input was
    streamed."""
    server = api([{"sse": recorded("mcp_servers_stream.sse")}])
    events = await run_prompt(make_engine(server, project), "tell me about pydantic-ai")
    (call,) = [e for e in events if isinstance(e, ServerToolUse)]
    assert call.name == "ask_question" and call.summary == "pydantic/pydantic-ai"
    assert call.tool_use_id == "mcptoolu_01FZmJ5UspaX5BB9uU339UT1" and call.error is None
