"""A batch's results reach the transcript as each call ends: a crash while a slow call runs
keeps the real results of the calls that finished, and a resumed session has the same single
results message the live one sent."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from claude_harness.session.store.resume import INTERRUPTED_RESULT
from claude_harness.session.store.transcript import load_messages
from tests.e2e.support import history, make_engine, run_cli, run_prompt
from tests.faults.test_no_orphans import MARK, marked, wait_until


def tool_use(name: str, **inp: Any) -> dict[str, Any]:
    return {"type": "tool_use", "name": name, "input": inp}


def transcript_entries(data: Path) -> list[dict[str, Any]]:
    (path,) = (data / "projects").glob("*/*.jsonl")
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_crash_mid_batch_keeps_the_finished_edit(project: Path, api: Any, home: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """kill -9 of the real harness while the batch's slow Bash runs, after its Edit changed the
    file: on resume the model is told the Edit's real result, and that the Bash was cut off."""
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARK, mark)
    util, started = project / "src" / "util.py", project / "started"
    server = api([
        {"content": [tool_use("Read", file_path=str(util))]},
        {"content": [{"type": "text", "text": "Changing it, then a long check."},
                     tool_use("Edit", file_path=str(util), old_string="return 42",
                              new_string="return 43"),
                     tool_use("Bash", command=f"touch {started}; sleep 60",
                              description="Long check")]},
        {"content": [{"type": "text", "text": "Resumed."}]},
    ])
    harness = subprocess.Popen(
        [sys.executable, "-m", "claude_harness", "-p", "change util",
         "--permission-mode", "bypassPermissions"],
        cwd=project, env=dict(os.environ), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert wait_until(started.exists, 30), (
            harness.stderr.read().decode() if harness.poll() is not None else "no Bash call")
        harness.kill()  # a crash: the harness writes nothing more
        harness.wait(10)
        assert wait_until(lambda: not marked(mark), 2.0), "the slow Bash outlived the harness"
    finally:
        for pid in marked(mark):
            os.kill(pid, 9)
    assert "return 43" in util.read_text()

    resumed = run_cli(["-c", "-p", "go on"], project, timeout=60)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout.strip() == "Resumed."
    sent = server.requests[2]["messages"]
    calls = [b for b in sent[-2]["content"] if b["type"] == "tool_use"]
    answers = [b for b in sent[-1]["content"] if b["type"] == "tool_result"]
    assert [a["tool_use_id"] for a in answers] == [c["id"] for c in calls]
    edit, bash = answers
    assert not edit.get("is_error") and str(util) in str(edit["content"])
    assert bash["is_error"] and bash["content"] == INTERRUPTED_RESULT
    assert any(b.get("text") == "go on" for b in sent[-1]["content"])


async def test_results_are_written_as_they_finish_and_resume_as_one_message(
        project: Path, api: Any) -> None:
    """Two parallel calls finishing in the reverse order: two transcript entries, in the order
    they ended; loaded back, the one results message the API was sent, in call order."""
    server = api([
        {"content": [tool_use("Bash", command="sleep 0.6; echo slow", description="Slow"),
                     tool_use("Bash", command="echo quick", description="Quick")]},
        {"content": [{"type": "text", "text": "Both done."}]},
    ])
    session = make_engine(server, project, mode="bypassPermissions")
    events = await run_prompt(session, "run both")
    live = history(events)
    entries = [e for e in transcript_entries(project.parent / "data") if e["type"] == "user"]
    results = [e["message"]["content"] for e in entries
               if e["message"]["content"][0].get("type") == "tool_result"]
    assert [[b["content"].strip() for b in r] for r in results] == [["quick"], ["slow"]]
    (path,) = (project.parent / "data" / "projects").glob("*/*.jsonl")
    assert load_messages(path) == live
    sent = server.requests[1]["messages"][-1]["content"]
    assert [b["content"].strip() for b in sent if b["type"] == "tool_result"] == ["slow", "quick"]
