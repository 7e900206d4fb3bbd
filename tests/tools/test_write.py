"""Write against real files: creating, read-before-overwrite, staleness, style and mode kept."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import ToolError
from claude_harness.tools.edit import TOOL as EDIT
from claude_harness.tools.edit import EditInput
from claude_harness.tools.read import TOOL as READ
from claude_harness.tools.read import ReadInput
from claude_harness.tools.write import TOOL, WriteInput


async def read(ctx: ToolUseContext, path: Path) -> str:
    return (await READ.call(ReadInput(file_path=str(path)), ctx, lambda _: None)).data


async def write(ctx: ToolUseContext, path: Path | str, content: str) -> str:
    inp = WriteInput(file_path=str(path), content=content)
    return (await asyncio.wait_for(TOOL.call(inp, ctx, lambda _: None), timeout=10)).data


async def write_error(ctx: ToolUseContext, path: Path | str, content: str) -> str:
    with pytest.raises(ToolError) as info:
        await write(ctx, path, content)
    return info.value.message


def bump_mtime(path: Path) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))


def umask_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


async def test_creates_a_new_file_and_its_folders(ctx, tmp_path: Path) -> None:
    f = tmp_path / "a" / "b" / "new.py"
    out = await write(ctx, f, "print(1)\nprint(2)\n")
    assert out == f"Created new file {f} (2 line(s))."
    assert "\n" not in out
    assert f.read_text() == "print(1)\nprint(2)\n"
    assert stat.S_IMODE(f.stat().st_mode) == umask_mode()


async def test_overwriting_an_unread_file_is_refused(ctx, tmp_path: Path) -> None:
    f = tmp_path / "keep.txt"
    f.write_text("precious\n")
    assert "not been read" in await write_error(ctx, f, "gone\n")
    assert f.read_text() == "precious\n"


async def test_overwrite_after_read_then_edit_without_another_read(ctx, tmp_path) -> None:
    f = tmp_path / "cfg.ini"
    f.write_text("[a]\nx=1\n")
    await read(ctx, f)
    out = await write(ctx, f, "[b]\ny=2\n")
    assert out.startswith(f"Updated {f}") and "\n" not in out
    assert f.read_text() == "[b]\ny=2\n"
    state = ctx.read_file_state.get(str(f))
    assert state.content == "[b]\ny=2\n" and state.mtime_ns == f.stat().st_mtime_ns
    inp = EditInput(file_path=str(f), old_string="y=2", new_string="y=3")
    await EDIT.call(inp, ctx, lambda _: None)
    assert f.read_text() == "[b]\ny=3\n"


async def test_file_changed_since_read_is_refused(ctx, tmp_path: Path) -> None:
    f = tmp_path / "s.txt"
    f.write_text("v1\n")
    await read(ctx, f)
    f.write_text("v2 from the user\n")
    bump_mtime(f)
    assert "changed on disk" in await write_error(ctx, f, "mine\n")
    assert f.read_text() == "v2 from the user\n"


async def test_touched_but_unchanged_file_may_be_overwritten(ctx, tmp_path: Path) -> None:
    f = tmp_path / "t.txt"
    f.write_text("same\n")
    await read(ctx, f)
    bump_mtime(f)
    await write(ctx, f, "different\n")
    assert f.read_text() == "different\n"


async def test_write_is_atomic_and_keeps_the_mode(ctx, tmp_path: Path) -> None:
    f = tmp_path / "tool.sh"
    f.write_text("#!/bin/sh\n")
    f.chmod(0o750)
    before = f.stat().st_ino
    await read(ctx, f)
    await write(ctx, f, "#!/bin/sh\necho new\n")
    assert stat.S_IMODE(f.stat().st_mode) == 0o750
    assert f.stat().st_ino != before  # replaced by rename, not rewritten in place
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tool.sh"]


async def test_crlf_and_bom_of_the_old_file_are_kept(ctx, tmp_path: Path) -> None:
    f = tmp_path / "win.txt"
    f.write_bytes(b"\xef\xbb\xbfold\r\nlines\r\n")
    await read(ctx, f)
    await write(ctx, f, "new\ntext\n")
    assert f.read_bytes() == b"\xef\xbb\xbfnew\r\ntext\r\n"
    u16 = tmp_path / "u16.txt"
    u16.write_bytes("\ufeffalt\n".encode("utf-16-le"))
    await read(ctx, u16)
    await write(ctx, u16, "neu \u2192 ok\n")
    assert u16.read_bytes() == "\ufeffneu \u2192 ok\n".encode("utf-16-le")


async def test_content_the_old_encoding_cannot_hold_is_written_as_utf8(ctx, tmp_path) -> None:
    f = tmp_path / "l1.txt"
    f.write_bytes("caf\xe9\n".encode("latin-1"))
    await read(ctx, f)
    out = await write(ctx, f, "caf\xe9 \U0001f600\n")
    assert "utf-8" in out
    assert f.read_bytes() == "caf\xe9 \U0001f600\n".encode()


async def test_writing_through_a_symlink_keeps_the_link(ctx, tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_text("old\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    await read(ctx, link)
    await write(ctx, link, "new\n")
    assert link.is_symlink() and real.read_text() == "new\n"


async def test_empty_content_makes_an_empty_file(ctx, tmp_path: Path) -> None:
    f = tmp_path / "empty.txt"
    assert "(0 line(s))" in await write(ctx, f, "")
    assert f.read_bytes() == b""
    assert "empty" in await read(ctx, f)


async def test_bad_targets_are_clear_errors_that_change_nothing(ctx, tmp_path) -> None:
    assert "absolute" in await write_error(ctx, "rel.txt", "x")
    assert not (tmp_path / "rel.txt").exists()
    verdict = await TOOL.validate_input(WriteInput(file_path="rel.txt", content="x"), ctx)
    assert not verdict.ok and "absolute" in verdict.message
    (tmp_path / "folder").mkdir()
    assert "directory" in await write_error(ctx, tmp_path / "folder", "x")
    assert "character device" in await write_error(ctx, "/dev/null", "x")
    blocker = tmp_path / "plain.txt"
    blocker.write_text("i am a file\n")
    message = await write_error(ctx, blocker / "sub" / "x.txt", "x")
    assert "is a file, not a folder" in message
    assert blocker.read_text() == "i am a file\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "plain.txt"]


async def test_read_only_file(ctx, tmp_path: Path) -> None:
    f = tmp_path / "ro.txt"
    f.write_text("locked\n")
    await read(ctx, f)
    f.chmod(0o444)
    try:
        if os.access(f, os.W_OK):  # root writes regardless; the mode must survive the rewrite
            await write(ctx, f, "opened\n")
            assert f.read_text() == "opened\n"
            assert stat.S_IMODE(f.stat().st_mode) == 0o444
        else:
            assert "Permission denied" in await write_error(ctx, f, "opened\n")
            assert f.read_text() == "locked\n"
    finally:
        f.chmod(0o644)


async def test_a_read_notebook_may_be_rewritten(ctx, tmp_path: Path) -> None:
    nb = tmp_path / "n.ipynb"
    nb.write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    assert "not been read" in await write_error(ctx, nb, "{}")
    await read(ctx, nb)
    await write(ctx, nb, '{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}')
    assert '"nbformat_minor": 4' in nb.read_text()


async def test_an_unreadable_binary_file_is_not_overwritten(ctx, tmp_path: Path) -> None:
    blob = tmp_path / "data.bin"
    blob.write_bytes(b"\x00\x01\x02")
    message = await write_error(ctx, blob, "text\n")
    assert "binary" in message and "Bash" in message
    assert blob.read_bytes() == b"\x00\x01\x02"


def test_tool_traits(ctx, tmp_path: Path) -> None:
    inp = WriteInput(file_path="/w/x.txt", content="c")
    assert TOOL.name == "Write"
    assert not TOOL.is_read_only(inp) and not TOOL.is_concurrency_safe(inp)
    assert TOOL.is_destructive(inp) is False
    assert TOOL.permission_subject(inp) == "/w/x.txt" and TOOL.key_argument(inp) == "/w/x.txt"
    assert TOOL.backfill_input(WriteInput(file_path="~/x", content=""), ctx) == {
        "file_path": os.path.expanduser("~/x")
    }
    assert set(TOOL.input_schema()["required"]) == {"file_path", "content"}
