"""Edit against real files: read-before-edit, staleness, matching, style and encoding kept."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import ToolError
from claude_harness.tools.edit import TOOL, EditInput
from claude_harness.tools.read import TOOL as READ
from claude_harness.tools.read import ReadInput


async def read(ctx: ToolUseContext, path: Path, **kw: object) -> str:
    return (await READ.call(ReadInput(file_path=str(path), **kw), ctx, lambda _: None)).data


async def edit(ctx: ToolUseContext, path: Path | str, old: str, new: str, **kw: object) -> str:
    inp = EditInput(file_path=str(path), old_string=old, new_string=new, **kw)
    result = await asyncio.wait_for(TOOL.call(inp, ctx, lambda _: None), timeout=10)
    return result.data


async def edit_error(ctx: ToolUseContext, path: Path | str, old: str, new: str, **kw) -> str:
    with pytest.raises(ToolError) as info:
        await edit(ctx, path, old, new, **kw)
    return info.value.message


def bump_mtime(path: Path) -> None:
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))


# --- the basic edit --------------------------------------------------------------------------


async def test_unique_replacement_with_snippet_and_updated_state(ctx, tmp_path: Path) -> None:
    f = tmp_path / "app.py"
    f.write_text("".join(f"line {i}\n" for i in range(1, 21)))
    await read(ctx, f)
    out = await edit(ctx, f, "line 10\n", "line ten\nline ten and a half\n")
    first, *rest = out.split("\n")
    assert str(f) in first and "edited" in first
    assert "7\tline 7" in out and "10\tline ten" in out and "11\tline ten and a half" in out
    assert "14\tline 13" in out and "15\tline 14" not in out
    text = f.read_text()
    assert "line 10\n" not in text and "line ten\nline ten and a half\nline 11\n" in text
    state = ctx.read_file_state.get(str(f))
    assert state.content == text and state.mtime_ns == f.stat().st_mtime_ns
    # the recorded state lets a second edit go ahead without another Read
    await edit(ctx, f, "line 20", "line twenty")
    assert f.read_text().endswith("line twenty\n")


async def test_deleting_text_with_an_empty_new_string(ctx, tmp_path: Path) -> None:
    f = tmp_path / "d.txt"
    f.write_text("keep\ndrop me\nkeep too\n")
    await read(ctx, f)
    await edit(ctx, f, "drop me\n", "")
    assert f.read_text() == "keep\nkeep too\n"


async def test_edit_without_reading_first_is_refused(ctx, tmp_path: Path) -> None:
    f = tmp_path / "unread.txt"
    f.write_text("alpha\n")
    message = await edit_error(ctx, f, "alpha", "beta")
    assert "not been read" in message
    assert f.read_text() == "alpha\n"


async def test_file_changed_since_read_is_refused_and_untouched(ctx, tmp_path: Path) -> None:
    f = tmp_path / "s.txt"
    f.write_text("original\n")
    await read(ctx, f)
    f.write_text("changed by the user\noriginal\n")
    bump_mtime(f)
    message = await edit_error(ctx, f, "original", "mine")
    assert "changed on disk since it was last read" in message and "Read it again" in message
    assert f.read_text() == "changed by the user\noriginal\n"
    await read(ctx, f)
    await edit(ctx, f, "original", "mine")
    assert f.read_text() == "changed by the user\nmine\n"


async def test_touched_but_identical_file_may_still_be_edited(ctx, tmp_path: Path) -> None:
    f = tmp_path / "t.txt"
    f.write_text("same\n")
    await read(ctx, f)
    bump_mtime(f)
    await edit(ctx, f, "same", "new")
    assert f.read_text() == "new\n"


async def test_touched_file_seen_only_partially_must_be_read_again(ctx, tmp_path) -> None:
    f = tmp_path / "p.txt"
    f.write_text("a\nb\nc\n")
    await read(ctx, f, offset=2, limit=1)
    await edit(ctx, f, "b", "B")  # a partial read is enough while the file is unchanged
    assert f.read_text() == "a\nB\nc\n"
    await read(ctx, f, offset=1, limit=1)  # whole-file state from the edit is kept
    bump_mtime(f)
    await edit(ctx, f, "a", "A")  # the state recorded by the edit was complete
    assert f.read_text() == "A\nB\nc\n"
    other = tmp_path / "q.txt"
    other.write_text("x\ny\nz\n")
    await read(ctx, other, offset=2, limit=1)
    bump_mtime(other)
    assert "changed on disk" in await edit_error(ctx, other, "y", "Y")
    assert other.read_text() == "x\ny\nz\n"


# --- how old_string must match -----------------------------------------------------------------


async def test_non_unique_old_string_is_refused_with_the_count(ctx, tmp_path: Path) -> None:
    f = tmp_path / "dup.py"
    f.write_text("x = 1\nx = 1\nx = 1\n")
    await read(ctx, f)
    message = await edit_error(ctx, f, "x = 1", "x = 2")
    assert "matches 3 places" in message and "replace_all" in message
    assert f.read_text() == "x = 1\nx = 1\nx = 1\n"


async def test_replace_all_changes_every_occurrence(ctx, tmp_path: Path) -> None:
    f = tmp_path / "ren.py"
    f.write_text("def f(cnt):\n    cnt += 1\n    return cnt\n")
    await read(ctx, f)
    out = await edit(ctx, f, "cnt", "count", replace_all=True)
    assert "3 occurrences" in out
    assert f.read_text() == "def f(count):\n    count += 1\n    return count\n"


async def test_missing_old_string_is_a_clear_error(ctx, tmp_path: Path) -> None:
    f = tmp_path / "m.txt"
    f.write_text("hello world\n")
    await read(ctx, f)
    assert "was not found" in await edit_error(ctx, f, "goodbye", "hi")
    hint = await edit_error(ctx, f, "1\thello world", "1\thi")
    assert "line-number prefixes" in hint
    assert f.read_text() == "hello world\n"


async def test_identical_strings_fail_validation_and_call(ctx, tmp_path: Path) -> None:
    f = tmp_path / "same.txt"
    f.write_text("abc\n")
    await read(ctx, f)
    verdict = await TOOL.validate_input(
        EditInput(file_path=str(f), old_string="abc", new_string="abc"), ctx
    )
    assert not verdict.ok and "identical" in verdict.message
    assert "identical" in await edit_error(ctx, f, "abc", "abc")
    assert f.read_text() == "abc\n"


async def test_straight_quotes_match_curly_ones_and_new_text_stays_curly(ctx, tmp_path) -> None:
    f = tmp_path / "q.md"
    f.write_text("She said \u201chello there\u201d and it\u2019s fine.\n")
    await read(ctx, f)
    out = await edit(ctx, f, 'said "hello there" and it\'s', 'said "good morning" and it\'s not')
    assert "quote/white-space" in out
    assert f.read_text() == "She said \u201cgood morning\u201d and it\u2019s not fine.\n"


async def test_trailing_spaces_in_the_file_do_not_defeat_the_match(ctx, tmp_path) -> None:
    f = tmp_path / "ws.py"
    f.write_text("a = 1   \nb = 2\t\nc = 3\n")
    await read(ctx, f)
    await edit(ctx, f, "a = 1\nb = 2\n", "a = 10\nb = 20\n")
    assert f.read_text() == "a = 10\nb = 20\nc = 3\n"


async def test_spaces_typed_for_tabs_keep_the_files_tabs(ctx, tmp_path: Path) -> None:
    f = tmp_path / "Makefile"
    f.write_text("build:\n\tgo build\n\tgo vet\n")
    await read(ctx, f)
    await edit(ctx, f, "build:\n    go build\n", "build:\n    go build ./...\n    go test\n")
    assert f.read_text() == "build:\n\tgo build ./...\n\tgo test\n\tgo vet\n"


async def test_tolerant_replace_all_fits_each_place(ctx, tmp_path: Path) -> None:
    f = tmp_path / "msgs.txt"
    f.write_text("say(\u2018hi\u2019)\nsay(\u2018hi\u2019)  \n")
    await read(ctx, f)
    out = await edit(ctx, f, "say('hi')", "shout('hi')", replace_all=True)
    assert "2 occurrences" in out
    assert f.read_text() == "shout(\u2018hi\u2019)\nshout(\u2018hi\u2019)  \n"


async def test_tolerant_match_in_a_crlf_file_keeps_crlf_and_tabs(ctx, tmp_path) -> None:
    f = tmp_path / "w.c"
    f.write_bytes(b"int f() {\r\n\treturn 1;  \r\n}\r\n")
    await read(ctx, f)
    await edit(ctx, f, "{\n    return 1;\n}", "{\n    int x = 1;\n    return x;\n}")
    assert f.read_bytes() == b"int f() {\r\n\tint x = 1;\r\n\treturn x;\r\n}\r\n"


# --- encodings, line endings, mode, links ------------------------------------------------------


async def test_crlf_file_stays_crlf(ctx, tmp_path: Path) -> None:
    f = tmp_path / "win.txt"
    f.write_bytes(b"one\r\ntwo\r\nthree\r\n")
    await read(ctx, f)
    await edit(ctx, f, "two\nthree", "2\n2.5\n3")
    assert f.read_bytes() == b"one\r\n2\r\n2.5\r\n3\r\n"


@pytest.mark.parametrize(
    ("codec", "bom"),
    [("utf-8", b"\xef\xbb\xbf"), ("utf-16-le", b"\xff\xfe"), ("utf-16-be", b"\xfe\xff")],
)
async def test_encoding_and_bom_are_kept(ctx, tmp_path: Path, codec: str, bom: bytes) -> None:
    f = tmp_path / f"{codec}.txt"
    f.write_bytes(bom + "größe = 1\nname = 'x'\n".encode(codec))
    await read(ctx, f)
    await edit(ctx, f, "größe = 1", "größe = 2 \u2192 ok")
    assert f.read_bytes() == bom + "größe = 2 \u2192 ok\nname = 'x'\n".encode(codec)


async def test_latin1_file_stays_latin1_and_unstorable_text_is_refused(ctx, tmp_path) -> None:
    f = tmp_path / "l1.txt"
    f.write_bytes("caf\xe9 = 1\n".encode("latin-1"))
    await read(ctx, f)
    await edit(ctx, f, "= 1", "= 2")
    assert f.read_bytes() == "caf\xe9 = 2\n".encode("latin-1")
    message = await edit_error(ctx, f, "= 2", "= \U0001f600")
    assert "encoding" in message
    assert f.read_bytes() == "caf\xe9 = 2\n".encode("latin-1")


async def test_mode_is_kept_and_no_temp_files_are_left(ctx, tmp_path: Path) -> None:
    f = tmp_path / "run.sh"
    f.write_text("#!/bin/sh\necho hi\n")
    f.chmod(0o754)
    await read(ctx, f)
    await edit(ctx, f, "echo hi", "echo bye")
    assert stat.S_IMODE(f.stat().st_mode) == 0o754
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run.sh"]


async def test_editing_through_a_symlink_changes_the_target_and_keeps_the_link(
    ctx, tmp_path: Path
) -> None:
    real = tmp_path / "real.cfg"
    real.write_text("k = 1\n")
    link = tmp_path / "link.cfg"
    link.symlink_to(real)
    await read(ctx, link)
    await edit(ctx, link, "k = 1", "k = 2")
    assert link.is_symlink() and real.read_text() == "k = 2\n"


# --- creating, and bad inputs ------------------------------------------------------------------


async def test_empty_old_string_on_a_missing_file_creates_it(ctx, tmp_path: Path) -> None:
    f = tmp_path / "new" / "dir" / "hello.py"
    out = await edit(ctx, f, "", "print('hi')\n")
    assert f.read_text() == "print('hi')\n" and str(f) in out
    await edit(ctx, f, "'hi'", "'hello'")  # recorded as read: a follow-up edit works
    assert f.read_text() == "print('hello')\n"


async def test_empty_old_string_on_a_file_with_content_is_refused(ctx, tmp_path) -> None:
    f = tmp_path / "full.txt"
    f.write_text("content\n")
    await read(ctx, f)
    assert "already has content" in await edit_error(ctx, f, "", "other")
    assert f.read_text() == "content\n"
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    await read(ctx, empty)
    await edit(ctx, empty, "", "filled\n")
    assert empty.read_text() == "filled\n"


async def test_bad_paths_are_clear_errors(ctx, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("x\n")
    assert "absolute" in await edit_error(ctx, "notes.txt", "x", "y")
    verdict = await TOOL.validate_input(
        EditInput(file_path="notes.txt", old_string="x", new_string="y"), ctx
    )
    assert not verdict.ok
    missing = await edit_error(ctx, tmp_path / "note.txt", "x", "y")
    assert "does not exist" in missing and "notes.txt" in missing
    assert "directory" in await edit_error(ctx, tmp_path, "x", "y")
    assert "character device" in await edit_error(ctx, "/dev/null", "x", "y")
    assert (tmp_path / "notes.txt").read_text() == "x\n"


async def test_binary_and_notebook_files_are_refused(ctx, tmp_path: Path) -> None:
    blob = tmp_path / "data.txt"
    blob.write_bytes(b"abc\x00def")
    assert "binary" in await edit_error(ctx, blob, "abc", "xyz")
    nb = tmp_path / "n.ipynb"
    nb.write_text('{"cells": []}')
    assert "NotebookEdit" in await edit_error(ctx, nb, "cells", "x")
    assert blob.read_bytes() == b"abc\x00def"


async def test_read_only_file(ctx, tmp_path: Path) -> None:
    f = tmp_path / "ro.txt"
    f.write_text("locked\n")
    await read(ctx, f)
    f.chmod(0o444)
    try:
        if os.access(f, os.W_OK):  # root may write anything: the edit goes through, mode kept
            await edit(ctx, f, "locked", "opened")
            assert f.read_text() == "opened\n"
            assert stat.S_IMODE(f.stat().st_mode) == 0o444
        else:
            assert "Permission denied" in await edit_error(ctx, f, "locked", "opened")
            assert f.read_text() == "locked\n"
    finally:
        f.chmod(0o644)


def test_tool_traits(ctx, tmp_path: Path) -> None:
    inp = EditInput(file_path="/p/q.txt", old_string="a", new_string="b")
    assert TOOL.name == "Edit"
    assert not TOOL.is_read_only(inp) and not TOOL.is_concurrency_safe(inp)
    assert TOOL.is_destructive(inp) is False
    assert TOOL.permission_subject(inp) == "/p/q.txt" and TOOL.key_argument(inp) == "/p/q.txt"
    rel = EditInput(file_path="src/../a.py", old_string="a", new_string="b")
    assert TOOL.backfill_input(rel, ctx) == {"file_path": str(tmp_path / "a.py")}
    schema = TOOL.input_schema()
    assert set(schema["required"]) == {"file_path", "old_string", "new_string"}
    assert schema["properties"]["replace_all"]["default"] is False
