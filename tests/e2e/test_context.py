"""Context economy over the scripted server's request log: a stable cache prefix, deferred
tools, large results persisted, compaction."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from claude_harness.protocol.events import Compaction, SessionStarted, ToolResultEvent, TurnEnd
from claude_harness.protocol.ops import Compact, SetMode
from claude_harness.protocol.view import SessionView
from claude_harness.session.store.transcript import load_messages
from claude_harness.testing.cache import segments
from claude_harness.testing.scenarios import TEXT, thirty_turn_session
from tests.e2e.support import history, make_engine, run_op, run_prompt


def cached_prefix(body: dict[str, Any]) -> list[str]:
    """The serialised segments up to the request's last cache breakpoint."""
    segs = segments(body)
    last = max(i for i, (_s, bp) in enumerate(segs) if bp)
    return [s for s, _bp in segs[: last + 1]]


def assert_prefix_chain(requests: list[dict[str, Any]]) -> None:
    for i in range(1, len(requests)):
        previous = cached_prefix(requests[i - 1])
        current = [s for s, _bp in segments(requests[i])]
        assert current[: len(previous)] == previous, f"request {i} broke the cached prefix"
        assert len(cached_prefix(requests[i])) >= len(previous)


def body_parts(raw: bytes) -> tuple[bytes, list[bytes], bytes]:
    """A request's bytes: before its messages, each message, after them."""
    text = raw.decode("ascii")  # the harness escapes every non-ASCII character
    start = pos = text.index('"messages":[') + len('"messages":[')
    decoder = json.JSONDecoder()
    spans = []
    while text[pos] != "]":
        _message, end = decoder.raw_decode(text, pos)
        spans.append(raw[pos:end])
        pos = end + (text[end] == ",")
    return raw[:start], spans, raw[pos:]


def assert_bytes_chain(raws: list[bytes]) -> None:
    """Byte for byte: every request repeats the one before it (its last message without the
    cache breakpoint), then adds; nothing sent is ever encoded differently."""
    for i in range(1, len(raws)):
        head, sent, tail = body_parts(raws[i - 1])
        head_now, sent_now, tail_now = body_parts(raws[i])
        assert (head_now, tail_now) == (head, tail), f"request {i} changed model/system/tools"
        assert sent_now[:len(sent) - 1] == sent[:-1], f"request {i} re-encoded a sent message"
        assert len(sent_now) > len(sent)


def with_thinking(turns: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each scripted answer starts with a signed thinking block (the tool turns' thinking must
    come back unchanged, and the cached prefix must not move because of it)."""
    return [{**turn, "content": [{"type": "thinking", "thinking": f"Step {n}: plan the calls."},
                                 *turn["content"]]} for n, turn in enumerate(turns)]


@pytest.mark.parametrize("thinking", [False, True], ids=["plain", "thinking"])
async def test_cache_prefix_is_stable_over_thirty_turns(project: Path, api: Any,
                                                        thinking: bool) -> None:
    prompts = thirty_turn_session(project)
    turns = [turn for group in prompts for turn in group]
    server = api(with_thinking(turns) if thinking else turns)
    engine = make_engine(server, project, mode="acceptEdits")
    assert "NotebookEdit" in [t.name for t in engine.config.tools if t.should_defer]
    view = SessionView()
    for n, _ in enumerate(prompts):
        if n == 1:  # a mode change travels as a message, not a prefix change
            await run_op(engine, SetMode("plan"))
        if n == 2:
            await run_op(engine, SetMode("acceptEdits"))
        events = await run_prompt(engine, f"prompt {n}")
        for event in events:
            view.apply(event)
        assert [e for e in events if isinstance(e, TurnEnd)][0].reason == "end_turn"
    requests = server.requests
    assert len(requests) == 30
    assert_prefix_chain(requests)
    assert_bytes_chain(server.raw_requests)
    notebook = json.loads((project / "nb.ipynb").read_text())
    assert notebook["cells"][0]["source"] in ("x = 2", ["x = 2"])
    tools = requests[0]["tools"]
    assert [t["name"] for t in tools] == [t["name"] for t in requests[-1]["tools"]]
    assert any(t.get("defer_loading") for t in tools)
    total = view.totals
    read_share = total.cache_read_tokens / (total.cache_read_tokens + total.cache_write_tokens
                                            + total.input_tokens)
    assert read_share > 0.8
    assert all(r["thinking"]["type"] == "adaptive" for r in requests)
    assert all(r["context_management"] == {"edits": [{"type": "clear_thinking_20251015",
                                                      "keep": "all"}]} for r in requests)
    if thinking:  # every thinking block went back, in every later request
        last = requests[-1]["messages"]
        sent = [b for m in last if m["role"] == "assistant" for b in m["content"]
                if b["type"] == "thinking"]
        assert len(sent) == 29 and sent[0]["thinking"] == "Step 0: plan the calls."


async def test_a_deferred_tool_called_directly_runs(project: Path, api: Any) -> None:
    """Announced by name only (deferred), NotebookEdit still runs when called before ToolSearch,
    as a deferred MCP tool does."""
    nb = project / "x.ipynb"
    nb.write_text(json.dumps({"cells": [{"cell_type": "code", "id": "a", "metadata": {},
                                         "source": "x", "outputs": [], "execution_count": None}],
                              "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    server = api([{"content": [{"type": "tool_use", "name": "Read",
                                "input": {"file_path": str(nb)}}]},
                  {"content": [{"type": "tool_use", "name": "NotebookEdit",
                                "input": {"notebook_path": str(nb), "cell_id": "a",
                                          "new_source": "y"}}]}, TEXT])
    engine = make_engine(server, project, mode="acceptEdits")
    events = await run_prompt(engine, "edit")
    result = [e for e in events if isinstance(e, ToolResultEvent)][-1]
    assert not result.is_error, result.content
    assert "".join(json.loads(nb.read_text())["cells"][0]["source"]) == "y"
    first_user = server.requests[0]["messages"][0]["content"]
    assert any("NotebookEdit" in b["text"] and "deferred" in b["text"] for b in first_user)


async def test_a_five_megabyte_result_is_persisted_and_readable(project: Path, api: Any) -> None:
    big = project / "big.txt"
    big.write_text("".join(f"match line {i:07d} {'x' * 40}\n" for i in range(100_000)))
    size = big.stat().st_size
    assert size > 5_000_000
    server = api([
        {"content": [{"type": "tool_use", "name": "Grep",
                      "input": {"pattern": "match", "output_mode": "content", "head_limit": 0,
                                "-n": False, "path": str(big)}}]},
        TEXT])
    engine = make_engine(server, project)
    events = await run_prompt(engine, "grep everything")
    result = next(e for e in events if isinstance(e, ToolResultEvent))
    assert not result.is_error
    assert result.content.startswith("<persisted-output>") and len(result.content) < 10_000
    path = Path(result.content.split("saved to: ", 1)[1].split("\n", 1)[0])
    persisted = path.read_text()
    assert len(persisted) >= size - 100 and "match line 0099999" in persisted
    sent = server.requests[1]["messages"][-1]["content"][0]["content"]
    assert "<persisted-output>" in sent and len(sent) < 10_000
    # Read can open the persisted file (it limits itself at the source).
    server2 = api([{"content": [{"type": "tool_use", "name": "Read",
                                 "input": {"file_path": str(path), "offset": 99_990,
                                           "limit": 5}}]}, TEXT])
    reader = make_engine(server2, project, data_dir=engine.config.data_dir,
                         session_id=engine.session_id)  # the session reads its own output
    events = await run_prompt(reader, "read it")
    read = next(e for e in events if isinstance(e, ToolResultEvent))
    assert not read.is_error and "match line 0099990" in read.content


async def test_compaction_keeps_the_last_request_and_shrinks_the_context(project: Path,
                                                                         api: Any) -> None:
    """The request about to be sent is measured: the big Read result pushes it past the
    threshold, so the history is compacted before it goes (not after the API saw it)."""
    (project / "big.py").write_text("# filler\n" * 4000)
    big = str(project / "big.py")
    small = str(project / "src" / "util.py")
    server = api([
        {"content": [{"type": "tool_use", "name": "Read", "input": {"file_path": big}}]},
        {"content": [{"type": "text", "text": "SUMMARY: the user wants util explained."}]},
        {"content": [{"type": "tool_use", "name": "Read", "input": {"file_path": small}}]},
        {"content": [{"type": "text", "text": "util.helper returns 42."}]},
    ])
    engine = make_engine(server, project, compact_threshold_tokens=10_000)
    events = await run_prompt(engine, "Explain util.helper, please.")
    assert [e for e in events if isinstance(e, TurnEnd)][0].reason == "end_turn"
    compactions = [e for e in events if isinstance(e, Compaction)]
    assert len(compactions) == 1 and compactions[0].trigger == "auto"
    summary_request, after = server.requests[1], server.requests[2]
    assert "summary" in summary_request["messages"][-1]["content"][-1]["text"].lower()
    assert summary_request["system"] == server.requests[0]["system"]
    (only,) = after["messages"][:1]
    text = only["content"][0]["text"]
    assert "SUMMARY: the user wants util explained." in text
    assert "Explain util.helper, please." in text
    assert len(json.dumps(after)) // 4 < 10_000 < len(json.dumps(summary_request)) // 4
    # A resumed session continues from the summary.
    started = next(e for e in events if isinstance(e, SessionStarted))
    resumed = load_messages(Path(started.transcript_path))
    assert resumed[0]["content"][0]["text"] == text


async def test_manual_compact_with_instructions(project: Path, api: Any) -> None:
    server = api([TEXT, {"content": [{"type": "text", "text": "SUMMARY: short."}]}])
    engine = make_engine(server, project)
    await run_prompt(engine, "hello")
    events = await run_op(engine, Compact("focus on tests"))
    assert any(isinstance(e, Compaction) and e.trigger == "manual" for e in events)
    assert "focus on tests" in server.requests[1]["messages"][-1]["content"][-1]["text"]
    assert "SUMMARY: short." in history(events)[0]["content"][0]["text"]
