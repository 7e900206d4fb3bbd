"""Two sessions in one folder: `-c` skips a session another live process is writing, a dead
writer's lock is taken over, and a transcript written by two processes resumes along the chain
that ends at its latest entry."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from claude_harness.agent.messages import user_text
from claude_harness.session.store.lock import SessionLock, lock_holder
from claude_harness.session.store.transcript import (
    Transcript,
    latest_session,
    load_messages,
    load_session,
)
from tests.e2e.support import ndjson, run_cli

WRITER = """
import sys, time
from pathlib import Path
from claude_harness.agent.messages import user_text
from claude_harness.session.store.transcript import Transcript
t = Transcript.create(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None)
for word in sys.stdin.readline().split():
    t.append_message(user_text(word))
print(t.path, flush=True)
time.sleep(60)
"""


def _start_writer(data: Path, cwd: Path, words: str, session_id: str | None = None
                  ) -> tuple[subprocess.Popen[str], Path]:
    """A separate process holding a session open (as a running harness does)."""
    args = [sys.executable, "-c", WRITER, str(data), str(cwd)]
    proc = subprocess.Popen([*args, *([session_id] if session_id else [])], text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(Path.cwd())})
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(words + "\n")
    proc.stdin.flush()
    return proc, Path(proc.stdout.readline().strip())


def _texts(messages: list[dict[str, Any]]) -> list[str]:
    return [m["content"][0]["text"] for m in messages]


def _age(path: Path, seconds: float) -> None:
    old = time.time() - seconds
    os.utime(path, (old, old))


def test_continue_skips_a_session_a_live_process_is_writing(tmp_path: Path) -> None:
    older = Transcript.create(tmp_path, tmp_path)
    older.append_message(user_text("finished earlier"))
    older.close()
    _age(older.path, 100)
    writer, live = _start_writer(tmp_path, tmp_path, "still running")
    try:
        assert lock_holder(live) == writer.pid
        assert latest_session(tmp_path, tmp_path) == older.path
    finally:
        writer.kill()  # kill -9: the lock file stays behind, its flock dies with the process
        writer.wait()
    assert lock_holder(live) is None
    assert latest_session(tmp_path, tmp_path) == live


def test_a_dead_writers_lock_is_taken_over(tmp_path: Path) -> None:
    writer, live = _start_writer(tmp_path, tmp_path, "one two")
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    assert live.with_suffix(".lock").read_text().strip() == str(writer.pid)  # stale pid left

    resumed = Transcript.create(tmp_path, tmp_path, live.stem)
    assert resumed.shared_with_pid is None and lock_holder(live) == os.getpid()
    resumed.append_message(user_text("three"))
    resumed.close()
    assert not live.with_suffix(".lock").exists()  # released on close
    assert _texts(load_messages(live)) == ["one", "two", "three"]


def test_a_session_already_held_is_written_as_shared(tmp_path: Path) -> None:
    writer, live = _start_writer(tmp_path, tmp_path, "a")
    try:
        second = Transcript.create(tmp_path, tmp_path, live.stem)
        assert second.shared_with_pid == writer.pid
        assert isinstance(SessionLock.acquire(live), int)
    finally:
        writer.kill()
        writer.wait()


def test_two_processes_writing_one_transcript_resume_along_the_latest_chain(
    tmp_path: Path,
) -> None:
    first = Transcript.create(tmp_path, tmp_path)
    first.append_message(user_text("shared start"))
    first.append_message({"role": "assistant", "content": [{"type": "text", "text": "ok"}]})
    # A second process resumes the same session while the first goes on writing: their
    # entries interleave in the file, each chained to its own branch.
    second = Transcript(first.path, first.session_id, tmp_path, last_uuid=first.last_uuid)
    first.append_message(user_text("first branch 1"))
    second.append_message(user_text("second branch 1"))
    first.append_message({"role": "assistant", "content": [{"type": "text", "text": "f2"}]})
    second.append_message({"role": "assistant", "content": [{"type": "text", "text": "s2"}]})
    first.close()
    second.close()

    file_order = [json.loads(line)["message"]["content"][0]["text"]
                  for line in first.path.read_text().splitlines()]
    assert file_order == ["shared start", "ok", "first branch 1", "second branch 1", "f2", "s2"]
    resumed = load_session(first.path)
    assert _texts(resumed.messages) == ["shared start", "ok", "second branch 1", "s2"]
    assert len(resumed.warnings) == 1 and "two processes" in resumed.warnings[0]
    assert "2 entries" in resumed.warnings[0]


def test_resume_without_branches_has_no_warning_and_continues_the_chain(tmp_path: Path) -> None:
    t = Transcript.create(tmp_path, tmp_path)
    t.append_message(user_text("a"))
    t.close()
    again = Transcript.create(tmp_path, tmp_path, t.session_id)
    again.append_message(user_text("b"))
    again.close()
    resumed = load_session(t.path)
    assert _texts(resumed.messages) == ["a", "b"] and resumed.warnings == []


def test_the_real_binary_continues_the_finished_session_not_the_running_one(
    project: Path, api: Any, home: Path,
) -> None:
    api([{"content": [{"type": "text", "text": "first answer"}]}])
    done = run_cli(["-p", "remember the word apple", "--output-format", "json"], project)
    assert done.returncode == 0, done.stderr
    finished_id = json.loads(done.stdout)["session_id"]
    data = home / ".claude"  # the transcripts live where Claude Code keeps its own
    [finished_path] = data.glob(f"projects/*/{finished_id}.jsonl")
    _age(finished_path, 100)

    # A second harness is mid-turn (its Bash call sleeps) in the same folder.
    busy_server = api([
        {"content": [{"type": "tool_use", "name": "Bash", "input": {"command": "sleep 30"}}]},
        {"content": [{"type": "text", "text": "never reached"}]},
    ])
    busy = subprocess.Popen([sys.executable, "-m", "claude_harness", "-p", "busy",
                             "--allowedTools", "Bash"], cwd=project, env=dict(os.environ),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while len(busy_server.requests) < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # its first entries are on disk and its lock is held
        running = [p for p in data.glob("projects/*/*.jsonl") if p != finished_path]
        assert running and lock_holder(running[0]) == busy.pid

        resumed_server = api([{"content": [{"type": "text", "text": "you said apple"}]}])
        cont = run_cli(["-c", "-p", "what word?", "--output-format", "stream-json",
                        "--verbose"], project)
        assert cont.returncode == 0, cont.stderr
        assert ndjson(cont.stdout)[0]["session_id"] == finished_id
        sent = resumed_server.requests[0]["messages"]
        assert "remember the word apple" in json.dumps(sent) and "busy" not in json.dumps(sent)
    finally:
        busy.kill()
        busy.wait()
