"""A stream that stalls or sends garbage is retried like a dropped connection, with the retry
shown; retries are bounded; Bedrock and Vertex without their SDK extras fail clearly. Through
the real binary against the scripted server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.support import ndjson, run_cli

OPUS = ["--model", "claude-opus-5-5"]


def retries(proc: Any) -> list[dict[str, Any]]:
    return [e for e in ndjson(proc.stdout) if e.get("subtype") == "api_retry"]


def test_a_stalled_stream_is_retried_after_the_idle_timeout(project: Path, api: Any,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    monkeypatch.setenv("CLAUDE_STREAM_IDLE_TIMEOUT_MS", "2000")
    server = api([{"content": ["never finished"], "fault": {"stall_after_events": 3,
                                                            "stall": 30}},
                  {"content": ["Recovered."]}])
    proc = run_cli(["-p", "hi", "--output-format", "stream-json", *OPUS], project)
    assert proc.returncode == 0, proc.stderr
    assert ndjson(proc.stdout)[-1]["result"] == "Recovered."
    (retry,) = retries(proc)
    assert "stalled" in retry["message"] and "for 2 s" in retry["message"]
    assert len(server.requests) == 2
    # The watchdog ended the attempt: the retry came long before the server's 30 s of silence
    # was over (the server logs the stall as it begins).
    stalled = next(e["t"] for e in server.log if e.get("stalled"))
    retried = next(e["t"] for e in server.log if e["event"] == "request" and e["index"] == 1)
    assert retried - stalled < 15


def test_a_malformed_frame_is_retried_not_fatal(project: Path, api: Any) -> None:
    server = api([{"content": ["broken"], "fault": {"malformed_after_events": 2}},
                  {"content": ["Fine now."]}])
    proc = run_cli(["-p", "hi", "--output-format", "stream-json", *OPUS], project)
    assert proc.returncode == 0, proc.stderr
    assert ndjson(proc.stdout)[-1]["result"] == "Fine now."
    (retry,) = retries(proc)
    assert "Malformed" in retry["message"] or "not JSON" in retry["message"]
    assert len(server.requests) == 2


def test_retries_are_bounded_and_end_with_a_clear_error(project: Path, api: Any,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_STREAM_IDLE_TIMEOUT_MS", "300")
    monkeypatch.setenv("CLAUDE_HARNESS_MAX_RETRIES", "2")
    stall = {"content": ["x"], "fault": {"stall_after_events": 2, "stall": 1}}
    server = api([stall, stall, stall, {"content": ["unreached"]}])
    proc = run_cli(["-p", "hi", "--output-format", "stream-json", *OPUS], project)
    result = ndjson(proc.stdout)[-1]
    assert proc.returncode == 1 and result["is_error"]
    assert "stalled" in result["result"]
    assert len(retries(proc)) == 2 and len(server.requests) == 3
    assert server.remaining_turns == 1


@pytest.mark.parametrize(("variable", "extra"), [("CLAUDE_CODE_USE_BEDROCK", "bedrock"),
                                                 ("CLAUDE_CODE_USE_VERTEX", "vertex")])
def test_cloud_providers_need_their_sdk_extras(project: Path, api: Any,
                                               monkeypatch: pytest.MonkeyPatch, variable: str,
                                               extra: str) -> None:
    import importlib.util

    module = "botocore" if extra == "bedrock" else "google.auth"
    if importlib.util.find_spec(module.split(".")[0]) is not None:
        pytest.skip(f"{module} is installed here")
    monkeypatch.setenv(variable, "1")
    server = api(["unused"])
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)  # the fixture set one: not needed
    proc = run_cli(["-p", "hi", "--output-format", "json", *OPUS], project)
    result = json.loads(proc.stdout)
    assert proc.returncode == 1 and result["is_error"]
    assert variable in result["result"] and f"anthropic[{extra}]" in result["result"]
    assert server.requests == []
