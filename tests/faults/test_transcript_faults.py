"""The transcript under real disk faults: a full tmpfs, a read-only remount, a crash mid-line.

Each test causes the fault for real (a tmpfs of 256 KiB filled to the last byte, a `mount -o
remount,ro`), then checks what a user would find: the session went on, the failure was reported
once, the file holds only whole JSON lines, and once the disk is back every entry is there, in
order, and the session resumes.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path
from typing import Any

from claude_harness.agent.messages import user_text
from claude_harness.session.store.transcript import Transcript, TranscriptFailure, load_messages
from tests.faults.conftest import TinyFs


def _assistant(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def _texts(path: Path) -> list[str]:
    return [m["content"][0]["text"] for m in load_messages(path)]


def _whole_lines(path: Path) -> list[dict[str, Any]]:
    """Every line of the file parsed; fails on a half-written line."""
    data = path.read_bytes()
    assert data == b"" or data.endswith(b"\n"), "the file ends in the middle of a line"
    return [json.loads(line) for line in data.splitlines()]


def _watch(transcript: Transcript) -> tuple[list[TranscriptFailure], list[bool]]:
    failures: list[TranscriptFailure] = []
    recoveries: list[bool] = []
    transcript.on_failure = failures.append
    transcript.on_recovered = lambda: recoveries.append(True)
    return failures, recoveries


def test_a_full_disk_keeps_the_session_in_memory_and_writes_it_when_space_returns(
    tiny_fs: TinyFs,
) -> None:
    transcript = Transcript.create(tiny_fs.root / "data", tiny_fs.root)
    failures, recoveries = _watch(transcript)
    transcript.append_message(user_text("before the disk filled"))
    tiny_fs.leave_free(6000)  # room for part of the next big line: a partial write
    big = "x" * 9000
    transcript.append_message(_assistant(big))
    for i in range(5):
        transcript.append_message(user_text(f"while full {i}"))
    transcript.sync()

    assert len(failures) == 1 and failures[0].errno == errno.ENOSPC
    assert transcript.failure is not None and transcript.failure.pending_lines == 6
    assert "No space left on device" in transcript.failure.message()
    assert [e["message"]["content"][0]["text"] for e in _whole_lines(transcript.path)] == [
        "before the disk filled"
    ]

    tiny_fs.free()
    transcript.sync()
    assert transcript.failure is None and recoveries == [True]
    assert _texts(transcript.path) == [
        "before the disk filled", big, *(f"while full {i}" for i in range(5))
    ]
    entries = _whole_lines(transcript.path)
    assert [e["parentUuid"] for e in entries[1:]] == [e["uuid"] for e in entries[:-1]]
    assert transcript.first_failure is not None  # what `-p` reports at the end


def test_a_read_only_remount_is_survived_and_retried(tiny_fs: TinyFs) -> None:
    transcript = Transcript.create(tiny_fs.root / "data", tiny_fs.root)
    failures, _ = _watch(transcript)
    transcript.append_message(user_text("one"))
    transcript.close()  # a fresh descriptor after the remount, as after a restart
    tiny_fs.remount("ro")
    try:
        transcript.append_message(_assistant("two"))
        transcript.sync()
        assert [f.errno for f in failures] == [errno.EROFS]
    finally:
        tiny_fs.remount("rw")
    transcript.sync()
    assert transcript.failure is None
    assert _texts(transcript.path) == ["one", "two"]


def test_start_up_on_a_full_disk_works_and_catches_up_later(tiny_fs: TinyFs) -> None:
    tiny_fs.fill()
    tiny_fs.exhaust_inodes()  # not even the session folder can be made
    transcript = Transcript.create(tiny_fs.root / "data", tiny_fs.root)
    assert transcript.failure is not None and transcript.failure.errno == errno.ENOSPC
    transcript.append_message(user_text("hello"))
    transcript.append_message(_assistant("hi"))
    transcript.sync()
    assert not transcript.path.exists()

    tiny_fs.free()
    transcript.sync()
    assert transcript.failure is None
    assert _texts(transcript.path) == ["hello", "hi"]


def test_a_line_cut_by_a_crash_is_removed_when_the_session_is_reopened(tmp_path: Path) -> None:
    first = Transcript.create(tmp_path, tmp_path)
    first.append_message(user_text("one"))
    first.close()
    with first.path.open("a") as fh:  # kill -9 in the middle of a write
        fh.write('{"type":"assistant","message":{"role":"assist')

    resumed = Transcript.create(tmp_path, tmp_path, first.session_id)
    resumed.append_message(_assistant("two"))
    resumed.close()
    entries = _whole_lines(resumed.path)  # the fragment is gone, not just skipped
    assert len(entries) == 2 and entries[1]["parentUuid"] == entries[0]["uuid"]
    assert _texts(resumed.path) == ["one", "two"]


def test_the_real_binary_does_its_work_on_a_full_disk(
    tiny_fs: TinyFs, project: Path, api: Any, monkeypatch: Any
) -> None:
    from tests.e2e.support import run_cli

    monkeypatch.setenv("CLAUDE_HARNESS_DATA_DIR", str(tiny_fs.root / "data"))
    tiny_fs.fill()
    tiny_fs.exhaust_inodes()
    api([
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "echo from-bash"}}]},
        {"content": [{"type": "text", "text": "finished despite the disk"}]},
    ])
    proc = run_cli(["-p", "go", "--allowedTools", "Bash", "--output-format", "json"], project)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["result"] == "finished despite the disk"
    assert "Traceback" not in proc.stderr, proc.stderr
