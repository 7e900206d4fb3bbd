"""Every stop reason, through the real binary (`claude-harness -p`) against the scripted server.

The server checks what the real API checks (a paused turn continued without a user message,
thinking and server tool blocks sent back unchanged, model parameters), so a request the harness
gets wrong fails here as it would against the API.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.e2e.support import ndjson, run_cli

OPUS = ["--model", "claude-opus-5-5"]
SEARCH_USE = {"type": "server_tool_use", "name": "web_search", "input": {"query": "paris weather"}}
SEARCH_RESULT = {"type": "web_search_tool_result", "content": [
    {"type": "web_search_result", "title": "Paris weather", "url": "https://weather.example/paris",
     "encrypted_content": "EqQBCioIAhgBIiQ", "page_age": "1 day"}]}


def failed_run(project: Path, prompt: str, stop_reason: str) -> tuple[Any, dict[str, Any]]:
    """Run `prompt` expecting an error result with this stop_reason (exit code 1)."""
    proc = run_cli(["-p", prompt, "--output-format", "json", *OPUS], project)
    result = json.loads(proc.stdout)
    assert proc.returncode == 1, proc.stderr
    assert result["is_error"] and result["stop_reason"] == stop_reason
    return proc, result


def result_of(proc: Any) -> dict[str, Any]:
    lines = ndjson(proc.stdout)
    assert lines, proc.stderr
    return lines[-1]


def texts(message: dict[str, Any]) -> list[str]:
    content = message["content"]
    return [content] if isinstance(content, str) else [b.get("text", "") for b in content]


def test_a_cut_text_answer_is_continued_and_joined(project: Path, api: Any) -> None:
    server = api([{"content": ["The first half,"], "stop_reason": "max_tokens"},
                  {"content": [" and the rest."]}])
    proc = run_cli(["-p", "write a long answer", "--output-format", "json", *OPUS], project)
    result = json.loads(proc.stdout)
    assert proc.returncode == 0, proc.stderr
    assert result["result"] == "The first half, and the rest."
    assert result["stop_reason"] == "end_turn" and not result["is_error"]
    second = server.requests[1]["messages"]
    assert second[-2]["role"] == "assistant" and texts(second[-2]) == ["The first half,"]
    assert "cut off by the output token limit" in texts(second[-1])[0]


def test_continuation_gives_up_after_three_with_a_notice(project: Path, api: Any) -> None:
    cut = {"content": ["more"], "stop_reason": "max_tokens"}
    server = api([cut, cut, cut, cut])
    proc, result = failed_run(project, "write forever", "max_tokens")
    assert "CLAUDE_CODE_MAX_OUTPUT_TOKENS" in result["result"]
    assert "cut off by the output token limit 3 times" in proc.stderr
    assert len(server.requests) == 4 and server.remaining_turns == 0


def test_a_tool_call_cut_mid_input_is_never_run(project: Path, api: Any) -> None:
    target = project / "half.txt"
    cut_input = json.dumps({"file_path": str(target), "content": "abc"})[:-8]
    server = api([
        {"content": ["Writing it.", {"type": "tool_use", "name": "Write", "raw_input": cut_input}],
         "stop_reason": "max_tokens"},
        {"content": ["I will write it in smaller steps."]}])
    proc = run_cli(["-p", "write the file", "--output-format", "json", "--permission-mode",
                    "acceptEdits", *OPUS], project)
    assert proc.returncode == 0, proc.stderr
    assert not target.exists()
    (answer,) = server.requests[1]["messages"][-1]["content"]
    assert answer["type"] == "tool_result" and answer["is_error"]
    assert "was not run" in answer["content"] and "output token limit" in answer["content"]


def test_refusal_ends_the_run_with_an_error_result(project: Path, api: Any) -> None:
    api([{"content": ["I can't help with that."], "stop_reason": "refusal"}])
    proc, result = failed_run(project, "do something bad", "refusal")
    assert "declined" in result["result"]
    assert "declined" in proc.stderr


def test_refusal_in_streamed_input_ends_with_an_error_result(project: Path, api: Any) -> None:
    """stream-json in and out is the Agent SDK's streaming mode: the prompts that arrive while
    the first turn runs go out together as the next turn (as Claude Code does), and a refusal
    ends that turn with an error result and exit code 1."""
    server = api([{"content": ["Sure."]},
                  {"content": ["I can't help with that."], "stop_reason": "refusal"}])
    prompts = "".join(json.dumps({"type": "user", "message": {"role": "user", "content": p}})
                      + "\n" for p in ("first", "second", "third", "fourth"))
    proc = run_cli(["-p", "--input-format", "stream-json", "--output-format", "stream-json",
                    *OPUS], project, stdin=prompts)
    results = [line for line in ndjson(proc.stdout) if line["type"] == "result"]
    assert proc.returncode == 1
    assert [r["is_error"] for r in results] == [False, True]
    assert results[-1]["stop_reason"] == "refusal" and "declined" in results[-1]["result"]
    assert len(server.requests) == 2
    assert "second\nthird\nfourth" in texts(server.requests[1]["messages"][-1])[0]


def test_pause_turn_resends_the_server_tool_blocks_unchanged(project: Path, api: Any) -> None:
    server = api([{"content": [SEARCH_USE, SEARCH_RESULT, "Paris is"], "stop_reason": "pause_turn"},
                  {"content": [" sunny today."]},
                  {"content": ["Noted."]}])
    proc = run_cli(["-p", "weather in paris?", "--output-format", "stream-json", *OPUS], project)
    assert proc.returncode == 0, proc.stderr
    result = result_of(proc)
    assert result["result"] == "Paris is sunny today." and result["stop_reason"] == "end_turn"
    resent = server.requests[1]["messages"][-1]
    assert resent["role"] == "assistant"
    kinds = [b["type"] for b in resent["content"]]
    assert kinds == ["server_tool_use", "web_search_tool_result", "text"]
    assert resent["content"][1]["content"] == SEARCH_RESULT["content"]
    # Kept verbatim in the transcript and never answered with a tool_result on the next turn.
    session = result["session_id"]
    follow = run_cli(["-p", "thanks", "-r", session, "--output-format", "json", *OPUS], project)
    assert follow.returncode == 0, follow.stderr
    history = server.requests[2]["messages"]
    assistant = next(m for m in history if m["role"] == "assistant")
    assert [b["type"] for b in assistant["content"]][:2] == ["server_tool_use",
                                                             "web_search_tool_result"]
    assert not any(b.get("type") == "tool_result" for m in history
                   for b in (m["content"] if isinstance(m["content"], list) else []))


def test_pause_turn_is_capped_with_a_clear_error(project: Path, api: Any) -> None:
    paused = {"content": ["still working"], "stop_reason": "pause_turn"}
    server = api([paused] * 9)
    proc = run_cli(["-p", "go", "--output-format", "json", *OPUS], project)
    result = json.loads(proc.stdout)
    assert proc.returncode == 1 and result["is_error"]
    assert "paused this turn 8 times" in result["result"]
    assert len(server.requests) == 9


def test_unknown_block_types_round_trip_verbatim(project: Path, api: Any) -> None:
    future = {"type": "future_block", "payload": {"nested": [1, 2]}, "note": "kept"}
    code_use = {"type": "server_tool_use", "name": "code_execution",
                "input": {"code": "print(6 * 7)"}}
    code_result = {"type": "code_execution_tool_result",
                   "content": {"type": "code_execution_result", "stdout": "42\n", "stderr": "",
                               "return_code": 0}}
    server = api([{"content": [code_use, code_result, future, "It prints 42."]},
                  {"content": ["ok"]}])
    first = run_cli(["-p", "run it", "--output-format", "json", *OPUS], project)
    assert first.returncode == 0, first.stderr
    session = json.loads(first.stdout)["session_id"]
    second = run_cli(["-p", "again", "-r", session, "--output-format", "json", *OPUS], project)
    assert second.returncode == 0, second.stderr
    assistant = next(m for m in server.requests[1]["messages"] if m["role"] == "assistant")
    sent = [{k: v for k, v in b.items() if k != "cache_control"} for b in assistant["content"]]
    assert sent[2] == future
    assert sent[1]["content"] == code_result["content"]
