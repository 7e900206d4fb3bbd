"""A second process never deletes a live session: transcript cleanup (`cleanupPeriodDays`)
skips sessions whose lock a live process holds, and a clock jump cannot make fresh sessions
look old. Real lock-holding processes, real files, the real binary in tmux."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from claude_harness.config.cleanup import DAY_S, MARGIN_S, remove_old_transcripts
from claude_harness.config.paths import transcripts_root
from claude_harness.session.store.lock import claim_session
from claude_harness.session.store.transcript import sessions_dir
from tests.faults.binary_pane import BinaryPane

BINARY = Path(sys.executable).with_name("claude-harness")
HOLD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from claude_harness.session.store.lock import SessionLock
    lock = SessionLock.acquire(Path(sys.argv[1]))
    assert isinstance(lock, SessionLock), lock
    print("held", flush=True)
    time.sleep(600)
""")


def session_file(store: Path, name: str, age_s: float) -> Path:
    """A transcript whose files were last touched `age_s` seconds ago."""
    path = store / "projects" / "-proj" / f"{name}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('{"type": "user"}\n')
    backdate(path, age_s)
    return path


def backdate(path: Path, age_s: float) -> None:
    stamp = time.time() - age_s
    os.utime(path, (stamp, stamp))


def hold_lock(transcript: Path) -> subprocess.Popen[str]:
    """Another process holding the session's lock, as a running harness does."""
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(transcript)],
                              stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[2])
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    return holder


def test_a_session_held_by_a_live_process_survives_and_goes_once_it_dies(
        tmp_path: Path) -> None:
    store = tmp_path / "data"
    fresh = session_file(store, "fresh", 0)
    open_for_days = session_file(store, "open", 40 * DAY_S)
    ended = session_file(store, "ended", 40 * DAY_S)
    holder = hold_lock(open_for_days)
    try:
        backdate(open_for_days.with_suffix(".lock"), 40 * DAY_S)  # it started 40 days ago
        assert remove_old_transcripts(store, 30, claim=claim_session) == [ended]
        assert open_for_days.exists() and fresh.exists()
    finally:
        holder.kill()
        holder.wait()
    # Its writer died (kill -9 leaves the lock file behind): now it is old and free.
    assert remove_old_transcripts(store, 30, claim=claim_session) == [open_for_days]
    assert not open_for_days.with_suffix(".lock").exists() and fresh.exists()


def test_a_clock_jump_ahead_does_not_make_fresh_sessions_look_old(tmp_path: Path) -> None:
    store = tmp_path / "data"
    recent = [session_file(store, f"s{i}", i * 60) for i in range(3)]
    really_old = session_file(store, "old", 45 * DAY_S)
    jumped = time.time() + 40 * DAY_S  # the wall clock now says 40 days later
    assert remove_old_transcripts(store, 30, claim=claim_session, now=jumped) == [really_old]
    assert all(p.exists() for p in recent)


def test_activity_is_the_newest_of_transcript_lock_and_session_folder(tmp_path: Path) -> None:
    store = tmp_path / "data"
    session_file(store, "fresh", 0)
    by_folder = session_file(store, "by-folder", 40 * DAY_S)
    (by_folder.with_suffix("") / "tool-results").mkdir(parents=True)  # written to just now
    gone = session_file(store, "gone", 40 * DAY_S)
    assert remove_old_transcripts(store, 30, claim=claim_session) == [gone]
    assert by_folder.exists()


def test_zero_days_keeps_what_was_active_within_the_margin(tmp_path: Path) -> None:
    store = tmp_path / "data"
    newest = session_file(store, "newest", 0)
    just_ended = session_file(store, "just-ended", MARGIN_S / 4)
    hours_ago = session_file(store, "hours-ago", MARGIN_S * 3)
    assert remove_old_transcripts(store, 0, claim=claim_session) == [hours_ago]
    assert newest.exists() and just_ended.exists()


def transcript_of(data: Path, folder: Path) -> Path:
    """The folder's newest transcript."""
    found = sorted(sessions_dir(data, folder.resolve()).glob("*.jsonl"),
                   key=lambda p: p.stat().st_mtime_ns)
    assert found, "no transcript"
    return found[-1]


def run_print(folder: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(BINARY), *args], cwd=folder, env=env, capture_output=True,
                          text=True, timeout=60)


@pytest.mark.skipif(shutil.which("tmux") is None or not BINARY.exists(),
                    reason="needs tmux and the installed claude-harness")
def test_cleanup_in_another_folder_spares_the_running_app(
        tmp_path: Path, home: Path, api: Any) -> None:
    """The app runs in A (its session left open for days); `-p` with cleanupPeriodDays 0 runs
    in B; A's transcript survives, an ended session of the same age does not (a recent one in
    C makes both look old), and `-c` in A continues A's conversation."""
    text = {"content": [{"type": "text", "text": "done"}]}
    server = api([text] * 6)
    env = {k: os.environ[k] for k in ("HOME", "CLAUDE_CONFIG_DIR", "CLAUDE_HARNESS_DATA_DIR",
                                      "CLAUDE_HARNESS_NO_DAEMON",  # no warm process left behind
                                      "CLAUDE_HARNESS_MANAGED_SETTINGS", "ANTHROPIC_BASE_URL",
                                      "ANTHROPIC_API_KEY")}
    env["PATH"] = os.environ["PATH"]
    data = transcripts_root()  # where the app writes its transcripts (Claude Code's folder)
    folder_a, folder_b, folder_c = (tmp_path / n for n in ("a", "b", "c"))
    for folder in (folder_a, folder_b, folder_c):
        folder.mkdir()
    assert run_print(folder_c, env, "-p", "an ended session").returncode == 0
    ended = transcript_of(data, folder_c)
    assert run_print(folder_c, env, "-p", "a recent session").returncode == 0
    pane = BinaryPane(folder_a, env, [str(BINARY), "--trust-workspace"], tmp_path)
    try:
        pane.wait("/help for commands")
        pane.type("remember the word kiwi")
        pane.keys("Enter")
        pane.wait("done")
        live = transcript_of(data, folder_a)
        assert live.with_suffix(".lock").exists()
        for path in (live, live.with_suffix(".lock"), ended, ended.with_suffix("")):
            if path.exists():
                backdate(path, 3 * DAY_S)  # both look three days old
        done = run_print(folder_b, env, "-p", "hi", "--settings",
                         json.dumps({"cleanupPeriodDays": 0}))
        assert done.returncode == 0, done.stderr
        assert not ended.exists(), "the cleanup did not run: the test proves nothing"
        assert live.exists()
        pane.type("/exit")
        pane.keys("Enter")
        pane.wait("[exited")
    finally:
        pane.close()
    again = run_print(folder_a, env, "-p", "-c", "what was the word?")
    assert again.returncode == 0, again.stderr
    sent = json.dumps(server.requests[-1]["messages"])
    assert "remember the word kiwi" in sent and "what was the word?" in sent
