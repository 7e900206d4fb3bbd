"""A conversation that no longer fits: one reactive compaction, then the retry; through the real
binary against a scripted server whose context window is small (it answers HTTP 400 "prompt is
too long: X tokens > N maximum" to a request its estimate puts over N, as the API does)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from claude_harness.api.token_estimate import estimate_tokens
from claude_harness.session.store.transcript import Transcript
from tests.e2e.support import run_cli

OPUS = ["--model", "claude-opus-5-5", "--tools", "Bash"]  # a stable prompt size: one tool
WINDOW = 7_000
SUMMARY = {"content": ["SUMMARY: the user is exploring outputs."]}
TOO_LONG = {"fault": {"status": 400,
                      "message": "prompt is too long: 215000 tokens > 200000 maximum"}}


def printer(n: int) -> dict[str, Any]:
    """A Bash call that prints about 2,000 tokens."""
    return {"content": [{"type": "tool_use", "name": "Bash",
                         "input": {"command": f"seq {n} {n + 1650}"}}]}


def test_prompt_too_long_compacts_with_a_request_that_fits(project: Path, api: Any) -> None:
    server = api({"turns": [printer(1), printer(2), printer(3), SUMMARY,
                            {"content": ["Done after compacting."]}], "context_window": WINDOW})
    proc = run_cli(["-p", "print things", "--output-format", "json", "--permission-mode",
                    "bypassPermissions", *OPUS], project, timeout=120)
    result = json.loads(proc.stdout)
    assert proc.returncode == 0, proc.stderr
    assert result["result"] == "Done after compacting."
    accepted = [r for r, e in zip(server.requests, _statuses(server), strict=True) if e == 200]
    rejected = [r for r, e in zip(server.requests, _statuses(server), strict=True) if e == 400]
    assert len(rejected) == 1 and estimate_tokens(rejected[0]) > WINDOW
    summary_request = accepted[3]
    assert "summary" in json.dumps(summary_request["messages"][-1]).lower()
    assert estimate_tokens(summary_request) <= WINDOW
    assert "tool result omitted from the summary request" in json.dumps(summary_request)
    retried = accepted[4]["messages"]
    assert "SUMMARY: the user is exploring outputs." in json.dumps(retried[0])
    assert "print things" in json.dumps(retried[0])


def test_oldest_turns_are_summarised_first_when_nothing_else_fits(project: Path, api: Any,
                                                                  home: Path) -> None:
    """No tool results to stub: the oldest turns are summarised on their own first, and that
    summary is carried into the request that summarises the rest."""
    transcript = Transcript.create(home / "data", project.resolve(), None)
    for n in range(6):
        transcript.append_message({"role": "user", "content": [
            {"type": "text", "text": f"Question {n}: " + "tell me more " * 180}]})
        transcript.append_message({"role": "assistant", "content": [
            {"type": "text", "text": f"Answer {n}: " + "here is more " * 180}]})
    transcript.close()
    server = api({"turns": [{"content": ["PART SUMMARY of the oldest turns"]},
                            {"content": ["FINAL SUMMARY"]}, {"content": ["Continuing."]}],
                  "context_window": WINDOW})
    proc = run_cli(["-p", "go on", "-r", transcript.session_id, "--output-format", "json",
                    *OPUS], project, timeout=120)
    result = json.loads(proc.stdout)
    assert proc.returncode == 0, proc.stderr
    assert result["result"] == "Continuing."
    rejected, part, final, retried = server.requests
    assert _statuses(server) == [400, 200, 200, 200]
    assert estimate_tokens(rejected) > WINDOW
    assert all(estimate_tokens(r) <= WINDOW for r in (part, final, retried))
    part_text, final_text = json.dumps(part["messages"]), json.dumps(final["messages"])
    assert "early part of a long conversation" in part_text
    assert "Question 0" in part_text and "Question 5" not in part_text
    assert "PART SUMMARY of the oldest turns" in final_text
    assert "Question 0" not in final_text and "Question 5" in final_text
    assert "FINAL SUMMARY" in json.dumps(retried["messages"][0])


def test_still_too_long_after_compaction_names_compact_and_clear(project: Path,
                                                                 api: Any) -> None:
    server = api([TOO_LONG, SUMMARY, TOO_LONG])
    proc = run_cli(["-p", "hello", "--output-format", "json", *OPUS], project)
    result = json.loads(proc.stdout)
    assert proc.returncode == 1 and result["is_error"]
    assert "/compact" in result["result"] and "/clear" in result["result"]
    assert len(server.requests) == 3 and server.remaining_turns == 0


def test_413_and_context_window_exceeded_compact_once_and_carry_on(project: Path,
                                                                   api: Any) -> None:
    server = api([{"content": ["Partial answ"], "stop_reason": "model_context_window_exceeded"},
                  SUMMARY,
                  {"fault": {"status": 413, "message": "request too large"}},
                  {"content": ["Complete answer."]}])
    proc = run_cli(["-p", "long task", "--output-format", "json", *OPUS], project)
    result = json.loads(proc.stdout)
    # The window was exceeded once (compacted) and then the request was too large (413): the
    # reactive compaction is spent, so the second overflow is the clear error.
    assert proc.returncode == 1 and "/compact" in result["result"]
    assert len(server.requests) == 3
    second = api([{"fault": {"status": 413, "message": "request too large"}}, SUMMARY,
                  {"content": ["Fits now."]}])
    proc = run_cli(["-p", "again", "--output-format", "json", *OPUS], project)
    assert json.loads(proc.stdout)["result"] == "Fits now.", proc.stderr
    assert len(second.requests) == 3


def _statuses(server: Any) -> list[int]:
    ends = {e["index"]: e["status"] for e in server.log if e["event"] == "response_end"}
    return [ends.get(i, 0) for i in range(len(server.requests))]
