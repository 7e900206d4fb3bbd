"""The one atomic writer (claude_harness/fsutil), through the tools that use it: a file keeps
its mode and owner across an Edit, a write that fails half-way (a real EFBIG from the kernel's
file-size limit) leaves the original intact and no temp file, a symlink is written through
(the link stays, as Claude Code does), and an approved `sed -i` edit goes through it too."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from claude_harness.fsutil import atomic_write_bytes, exclusive_lock
from claude_harness.protocol.events import ToolResultEvent
from tests.e2e.support import make_engine, run_prompt


def tool(name: str, **inp: Any) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", "name": name, "input": inp}]}


def results(events: list[Any]) -> list[ToolResultEvent]:
    return [e for e in events if isinstance(e, ToolResultEvent)]


async def test_an_edit_keeps_a_private_file_private_and_its_owner(project: Path,
                                                                   api: Any) -> None:
    secret = project / "secret.env"
    secret.write_text("TOKEN=old\n")
    secret.chmod(0o600)
    os.chown(secret, 4321, 4321)  # someone else's file, in a folder we may write
    server = api([tool("Read", file_path=str(secret)),
                  tool("Edit", file_path=str(secret), old_string="old", new_string="new"),
                  {"content": ["Done."]}])
    engine = make_engine(server, project, mode="acceptEdits")
    events = await run_prompt(engine, "rotate the token")
    assert not any(r.is_error for r in results(events)), results(events)
    assert secret.read_text() == "TOKEN=new\n"
    st = secret.stat()
    assert stat.S_IMODE(st.st_mode) == 0o600 and (st.st_uid, st.st_gid) == (4321, 4321)
    assert sorted(p.name for p in project.iterdir() if p.name.startswith(".secret")) == []


async def test_a_write_through_a_symlink_changes_the_target_and_keeps_the_link(
        project: Path, api: Any) -> None:
    real = project / "dotfiles" / "vimrc"
    real.parent.mkdir()
    real.write_text("set nu\n")
    link = project / ".vimrc"
    link.symlink_to(real)
    server = api([tool("Read", file_path=str(link)),
                  tool("Write", file_path=str(link), content="set nu\nset ts=4\n"),
                  {"content": ["Done."]}])
    engine = make_engine(server, project, mode="acceptEdits")
    events = await run_prompt(engine, "add a tab stop")
    assert not any(r.is_error for r in results(events)), results(events)
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text() == "set nu\nset ts=4\n"


async def test_an_approved_sed_edit_goes_through_the_atomic_writer(project: Path,
                                                                   api: Any) -> None:
    """The approved result of `sed -i` on a symlinked, group-readable file someone else owns:
    written through the link with its mode and owner kept (the old applier gave the file to
    whoever ran the harness, and never fsynced it)."""
    real = project / "conf" / "app.ini"
    real.parent.mkdir()
    real.write_text("name = foo\n")
    real.chmod(0o640)
    os.chown(real, 4321, 4321)
    link = project / "app.ini"
    link.symlink_to(real)
    server = api([tool("Bash", command="sed -i 's/foo/bar/' app.ini"),
                  {"content": ["Renamed."]}])
    engine = make_engine(server, project, mode="acceptEdits")
    events = await run_prompt(engine, "rename")
    assert not any(r.is_error for r in results(events)), results(events)
    assert link.is_symlink() and real.read_text() == "name = bar\n"
    st = real.stat()
    assert stat.S_IMODE(st.st_mode) == 0o640 and (st.st_uid, st.st_gid) == (4321, 4321)


def test_a_write_that_fails_half_way_leaves_the_original_intact(tmp_path: Path) -> None:
    """A real failure mid-write: the kernel's file-size limit (RLIMIT_FSIZE) stops the temp
    file at 64 KiB with EFBIG. The original is untouched and no temp file is left."""
    target = tmp_path / "data.bin"
    target.write_bytes(b"original\n")
    script = textwrap.dedent(f"""
        import errno, resource, signal, sys
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536))
        from claude_harness.fsutil import atomic_write_bytes
        try:
            atomic_write_bytes({str(target)!r}, b"x" * 1_000_000)
        except OSError as exc:
            sys.exit(7 if exc.errno == errno.EFBIG else 8)
        sys.exit(0)
    """)
    proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 7, proc.stderr
    assert target.read_bytes() == b"original\n"
    assert [p.name for p in tmp_path.iterdir()] == ["data.bin"]


def test_a_new_file_gets_the_umask_mode_and_a_forced_mode_wins(tmp_path: Path) -> None:
    fresh = tmp_path / "fresh.txt"
    atomic_write_bytes(fresh, b"hi")
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask
    token = tmp_path / "token.json"
    token.write_text("{}")
    token.chmod(0o644)
    atomic_write_bytes(token, b"{\"t\": 1}", mode=0o600)
    assert stat.S_IMODE(token.stat().st_mode) == 0o600 and token.read_bytes() == b"{\"t\": 1}"


def test_the_lock_helper_serialises_two_processes(tmp_path: Path) -> None:
    lock = tmp_path / ".x.lock"
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from claude_harness.fsutil import exclusive_lock
            with exclusive_lock({str(lock)!r}):
                print("held", flush=True)
                time.sleep(1.0)
        """)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        try:
            with exclusive_lock(lock, timeout=0.2):
                raise AssertionError("got a lock another process holds")
        except OSError as exc:
            assert "stayed locked" in str(exc)
        with exclusive_lock(lock, timeout=10):  # released when the holder is done
            pass
    finally:
        holder.wait(timeout=10)
