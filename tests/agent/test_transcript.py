"""Session transcripts: appended as it happens, resumed after a crash without the broken line."""

from __future__ import annotations

import json
from pathlib import Path

from claude_harness.agent.messages import user_text
from claude_harness.session.store.transcript import (
    Transcript,
    latest_session,
    load_messages,
    read_entries,
)


def test_each_message_is_on_disk_as_soon_as_it_is_appended(tmp_path: Path) -> None:
    t = Transcript.create(tmp_path, Path("/some/project"))
    t.append_message(user_text("hello"))
    lines = t.path.read_text().splitlines()  # no close/sync: flushed per line
    entry = json.loads(lines[0])
    assert entry["type"] == "user" and entry["sessionId"] == t.session_id
    assert entry["message"] == user_text("hello") and entry["parentUuid"] is None
    t.append_message({"role": "assistant", "content": [{"type": "text", "text": "hi"}]})
    second = json.loads(t.path.read_text().splitlines()[1])
    assert second["parentUuid"] == entry["uuid"]
    assert "-some-project" in str(t.path)


def test_a_line_cut_by_a_crash_is_skipped_and_writing_goes_on(tmp_path: Path) -> None:
    t = Transcript.create(tmp_path, tmp_path)
    t.append_message(user_text("one"))
    t.append_message({"role": "assistant", "content": [{"type": "text", "text": "two"}]})
    t.close()
    with t.path.open("a") as fh:  # kill -9 in the middle of a write
        fh.write('{"type": "user", "message": {"role": "us')
    assert [m["content"][0]["text"] for m in load_messages(t.path)] == ["one", "two"]
    resumed = Transcript(t.path, t.session_id, tmp_path)
    resumed.append_message(user_text("three"))
    resumed.close()
    assert [m["content"][0]["text"] for m in load_messages(t.path)] == ["one", "two", "three"]
    assert len(read_entries(t.path)) == 3


def test_an_unanswered_tool_use_is_answered_on_resume(tmp_path: Path) -> None:
    t = Transcript.create(tmp_path, tmp_path)
    t.append_message(user_text("go"))
    t.append_message({"role": "assistant", "content": [
        {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "sleep 9"}}]})
    t.close()
    messages = load_messages(t.path)
    assert messages[-1]["role"] == "user"
    result = messages[-1]["content"][0]
    assert result["tool_use_id"] == "toolu_1" and result["is_error"] is True


def test_latest_session_is_the_newest_in_this_folder(tmp_path: Path) -> None:
    import os
    import time

    a = Transcript.create(tmp_path, tmp_path)
    a.append_message(user_text("a"))
    a.close()
    b = Transcript.create(tmp_path, tmp_path)
    b.append_message(user_text("b"))
    b.close()
    old = time.time() - 100
    os.utime(a.path, (old, old))
    assert latest_session(tmp_path, tmp_path) == b.path
