"""Transcript trouble is shown, never fatal: on a real full tmpfs each front end says once that
the transcript cannot be written (and says so again when space returns), `-p` reports it in
its result; a session shared with another live process is announced at start-up, resume
warnings reach the screen, and the resume pickers mark sessions another process has open."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from claude_harness.agent.messages import user_text
from claude_harness.frontends.plain.resume import pick_session
from claude_harness.session.store.transcript import LIVE_MARK, Transcript
from claude_harness.session.store.transcript_notices import RECOVERED
from tests.e2e.support import run_cli
from tests.faults.conftest import TinyFs
from tests.faults.test_two_sessions import _start_writer

FAILED = "Could not write the session transcript"


def bash_then_answer(command: str) -> list[dict[str, Any]]:
    return [{"content": [{"type": "tool_use", "name": "Bash", "input": {"command": command}}]},
            {"content": [{"type": "text", "text": "finished"}]}]


def freeing(tiny: TinyFs) -> str:
    """A Bash command that gives the tmpfs its space (and inodes) back."""
    return f"rm -rf {tiny.root / 'filler'} {tiny.root / 'inodes'}; echo freed"


@pytest.fixture
def full_disk(tiny_fs: TinyFs, home: Path, monkeypatch: pytest.MonkeyPatch) -> TinyFs:
    """The data directory and the transcripts (moved from `home`) on a tmpfs with no byte and no inode left."""
    monkeypatch.setenv("CLAUDE_HARNESS_DATA_DIR", str(tiny_fs.root / "data"))
    monkeypatch.setenv("CLAUDE_HARNESS_TRANSCRIPTS_DIR", str(tiny_fs.root / "data"))
    tiny_fs.fill()
    tiny_fs.exhaust_inodes()
    return tiny_fs


def test_p_reports_the_failure_in_its_result(full_disk: TinyFs, project: Path,
                                             api: Any) -> None:
    api(bash_then_answer("echo busy"))
    proc = run_cli(["-p", "go", "--allowedTools", "Bash", "--output-format", "json"], project)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["result"] == "finished" and not result["is_error"]
    assert result["transcript_error"].startswith(FAILED)
    assert "No space left on device" in result["transcript_error"]
    assert "written again" not in result["transcript_error"]
    assert proc.stderr.count(FAILED) == 1, proc.stderr


def test_p_says_when_the_transcript_is_written_again(full_disk: TinyFs, project: Path,
                                                     api: Any) -> None:
    api(bash_then_answer(freeing(full_disk)))
    proc = run_cli(["-p", "go", "--permission-mode", "bypassPermissions", "--output-format",
                    "json"], project)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert not result["permission_denials"]
    assert "It was written again later" in result["transcript_error"]
    (path,) = (full_disk.root / "data" / "projects").glob("*/*.jsonl")
    kinds = [json.loads(line)["type"] for line in path.read_text().splitlines()]
    assert kinds == ["user", "assistant", "user", "assistant"]  # nothing lost


def test_the_repl_warns_once_then_notes_the_recovery(full_disk: TinyFs, project: Path,
                                                     api: Any) -> None:
    """The real `--plain` REPL (lines on a pipe): a prompt whose Bash call frees the disk."""
    api(bash_then_answer(freeing(full_disk)) + [{"content": [{"type": "text",
                                                              "text": "second answer"}]}])
    proc = subprocess.run(
        [sys.executable, "-m", "claude_harness", "--plain", "--trust-workspace",
         "--permission-mode", "bypassPermissions"], cwd=project, input="go\nagain\n", capture_output=True,
        text=True, timeout=90, env={**os.environ, "TERM": "dumb"})
    assert proc.returncode == 0, proc.stderr
    screen = proc.stdout + proc.stderr
    assert screen.count(FAILED) == 1, screen
    assert screen.count(RECOVERED) == 1, screen
    assert screen.index(FAILED) < screen.index(RECOVERED) < screen.index("second answer")


async def test_the_app_warns_once_then_notes_the_recovery(full_disk: TinyFs, project: Path,
                                                          api: Any) -> None:
    from claude_harness.frontends.tui.app import HarnessApp
    from claude_harness.frontends.tui.widgets.notice import NoticeView
    from tests.e2e.support import make_engine
    from tests.tui.helpers import send, wait_for

    server = api(bash_then_answer(freeing(full_disk)))
    app = HarnessApp(cwd=project, preload_transport=False, session_factory=lambda: make_engine(
        server, project, mode="bypassPermissions", interactive=True,
        data_dir=full_disk.root / "data"))

    def notices(text: str) -> int:
        return sum(text in str(view.render()) for view in app.query(NoticeView))

    async with app.run_test(size=(110, 40)) as pilot:
        await wait_for(pilot, lambda: notices(FAILED), what="the failure notice")
        await send(pilot, "go")
        await wait_for(pilot, lambda: notices(RECOVERED), what="the recovery notice")
        await wait_for(pilot, lambda: not app.busy, what="turn end")
        assert notices(FAILED) == 1 and notices(RECOVERED) == 1


def test_a_session_shared_with_a_live_process_is_announced(project: Path, api: Any,
                                                           home: Path) -> None:
    writer, path = _start_writer(home / "data", project.resolve(), "first words")
    try:
        api([{"content": [{"type": "text", "text": "resumed"}]}])
        proc = run_cli(["-r", path.stem, "-p", "go on"], project)
        assert proc.returncode == 0, proc.stderr
        assert f"Another claude-harness process (pid {writer.pid}) is writing this session" \
            in proc.stderr
        assert proc.stdout.strip() == "resumed"
    finally:
        writer.kill()
        writer.wait()


def test_resume_warnings_reach_the_screen(project: Path, api: Any, home: Path) -> None:
    """A transcript whose chain has a gap: `-r` resumes it and says so."""
    first = Transcript.create(home / "data", project.resolve())
    first.append_message(user_text("one"))
    first.append_message({"role": "assistant", "content": [{"type": "text", "text": "two"}]})
    first.close()
    lines = first.path.read_text().splitlines()
    orphan = json.loads(lines[1])
    orphan["parentUuid"] = "gone"
    first.path.write_text("\n".join([lines[0], json.dumps(orphan)]) + "\n")
    api([{"content": [{"type": "text", "text": "resumed"}]}])
    proc = run_cli(["-r", first.session_id, "-p", "go on"], project)
    assert proc.returncode == 0, proc.stderr
    assert "names a parent that is missing" in proc.stderr


def test_the_resume_picker_marks_sessions_open_elsewhere(project: Path, home: Path) -> None:
    closed = Transcript.create(home / "data", project.resolve())
    closed.append_message(user_text("finished work"))
    closed.close()
    writer, _path = _start_writer(home / "data", project.resolve(), "running work")
    try:
        out = io.StringIO()
        pick_session(home / "data", project.resolve(), out, lambda: "")
        listed = [line for line in out.getvalue().splitlines() if line.strip()[:1].isdigit()]
        assert any("running" in line and LIVE_MARK in line for line in listed), listed
        assert any("finished work" in line and LIVE_MARK not in line for line in listed)
    finally:
        writer.kill()
        writer.wait()
