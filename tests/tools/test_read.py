"""Read against real files: text windows, limits, images, PDFs, notebooks, special files."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import math
import os
import socket
import stat
import tracemalloc
from pathlib import Path

import pytest
from PIL import Image

from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.tool import ToolError
from claude_harness.tools.file_common import refuse_special
from claude_harness.tools.read import TOOL, ReadInput

Data = str | list


async def read(ctx: ToolUseContext, **kw: object) -> Data:
    result = await asyncio.wait_for(TOOL.call(ReadInput(**kw), ctx, lambda _: None), timeout=10)
    return result.data


async def read_error(ctx: ToolUseContext, **kw: object) -> str:
    with pytest.raises(ToolError) as info:
        await read(ctx, **kw)
    return info.value.message


# --- text ------------------------------------------------------------------------------------


async def test_lines_are_numbered_from_one_unpadded_with_a_tab(ctx, tmp_path: Path) -> None:
    f = tmp_path / "a.py"
    f.write_text("import os\n\n    indented\nlast")
    out = await read(ctx, file_path=str(f))
    assert out == "1\timport os\n2\t\n3\t    indented\n4\tlast"


async def test_crlf_is_shown_without_carriage_returns(ctx, tmp_path: Path) -> None:
    f = tmp_path / "win.txt"
    f.write_bytes(b"one\r\ntwo\r\n")
    assert await read(ctx, file_path=str(f)) == "1\tone\n2\ttwo"


async def test_offset_and_limit_pick_a_window_and_say_where_to_go_on(ctx, tmp_path) -> None:
    f = tmp_path / "n.txt"
    f.write_text("".join(f"line {i}\n" for i in range(1, 51)))
    out = await read(ctx, file_path=str(f), offset=10, limit=3)
    body, note = out.split("\n\n")
    assert body == "10\tline 10\n11\tline 11\n12\tline 12"
    assert "lines 10-12 of 50" in note and "offset=13" in note


async def test_default_window_is_2000_lines_with_a_note(ctx, tmp_path: Path) -> None:
    f = tmp_path / "long.txt"
    f.write_text("".join(f"{i}\n" for i in range(1, 2501)))
    out = await read(ctx, file_path=str(f))
    lines = out.split("\n\n")[0].split("\n")
    assert len(lines) == 2000 and lines[-1] == "2000\t2000"
    assert "offset=2001" in out and "of 2500" in out
    rest = await read(ctx, file_path=str(f), offset=2001)
    assert rest.startswith("2001\t2001\n") and rest.endswith("2500\t2500")


async def test_lines_over_2000_chars_are_cut_with_a_note(ctx, tmp_path: Path) -> None:
    f = tmp_path / "wide.txt"
    f.write_text("short\n" + "x" * 5000 + "\nafter\n")
    out = await read(ctx, file_path=str(f))
    lines = out.split("\n")
    assert lines[0] == "1\tshort"
    assert lines[1].startswith("2\t" + "x" * 2000) and "x" * 2001 not in lines[1]
    assert lines[2] == "3\tafter"
    assert "longer than 2000 characters" in out


async def test_whole_file_read_over_the_token_budget_is_a_partial_view(ctx, tmp_path) -> None:
    f = tmp_path / "big.txt"
    f.write_text("".join(f"{i:05d} " + "y" * 194 + "\n" for i in range(1, 1801)))  # ~360 KB
    out = await read(ctx, file_path=str(f))
    assert len(out) < 101_000
    assert "Partial view" in out
    last = out.split("\n\n")[0].split("\n")[-1]
    last_no = int(last.split("\t")[0])
    assert 400 < last_no < 600
    assert f"offset={last_no + 1}" in out
    nxt = await read(ctx, file_path=str(f), offset=last_no + 1, limit=2)
    assert nxt.startswith(f"{last_no + 1}\t{last_no + 1:05d} ")
    state = ctx.read_file_state.get(str(f))
    assert state.partial is True


async def test_a_huge_single_line_is_streamed_not_loaded(ctx, tmp_path: Path) -> None:
    f = tmp_path / "oneline.txt"
    with open(f, "wb") as handle:
        chunk = b"z" * (1 << 20)
        for _ in range(40):
            handle.write(chunk)
    tracemalloc.start()
    try:
        out = await read(ctx, file_path=str(f))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out.startswith("1\t" + "z" * 2000)
    assert peak < 4 << 20  # the 40 MB line never sits in memory
    assert len(out) < 3000


async def test_many_lines_of_a_big_file_are_streamed(ctx, tmp_path: Path) -> None:
    f = tmp_path / "many.txt"
    with open(f, "w") as handle:
        for block in range(200):
            handle.write("".join(f"row {block * 1000 + i}\n" for i in range(1000)))
    tracemalloc.start()
    try:
        out = await read(ctx, file_path=str(f), offset=150_001, limit=3)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out.startswith("150001\trow 150000\n150002\trow 150001\n150003\trow 150002\n")
    assert "of 200000" in out and "offset=150004" in out
    assert peak < 4 << 20


async def test_an_explicit_limit_is_still_held_to_the_size_budget(ctx, tmp_path) -> None:
    f = tmp_path / "wide_rows.txt"
    f.write_text("".join("w" * 1500 + "\n" for _ in range(300)))
    out = await read(ctx, file_path=str(f), offset=1, limit=300)
    assert len(out) < 101_000 and "Partial view" in out


async def test_a_crlf_line_of_exactly_2000_chars_is_not_cut(ctx, tmp_path) -> None:
    f = tmp_path / "edge.txt"
    f.write_bytes(b"e" * 2000 + b"\r\nnext\r\n")
    out = await read(ctx, file_path=str(f))
    assert out == "1\t" + "e" * 2000 + "\n2\tnext"


async def test_aborted_context_reads_nothing(ctx, tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text("x\n")
    ctx.abort.abort()
    assert "interrupted" in await read_error(ctx, file_path=str(f))
    assert str(f) not in ctx.read_file_state


async def test_empty_file_gives_a_notice_and_is_recorded(ctx, tmp_path: Path) -> None:
    f = tmp_path / "empty.txt"
    f.write_text("")
    out = await read(ctx, file_path=str(f))
    assert "empty" in out and str(f) in out
    state = ctx.read_file_state.get(str(f))
    assert state is not None and state.content == "" and state.partial is False


async def test_offset_past_the_end_gives_a_notice(ctx, tmp_path: Path) -> None:
    f = tmp_path / "three.txt"
    f.write_text("a\nb\nc\n")
    out = await read(ctx, file_path=str(f), offset=10)
    assert "3 line(s)" in out and "offset 10 is past its end" in out


async def test_utf16_with_bom_and_latin1_files_read_as_text(ctx, tmp_path: Path) -> None:
    u16 = tmp_path / "u16.txt"
    u16.write_bytes("\ufeffgrüße\r\nzwei\r\n".encode("utf-16-le"))
    assert await read(ctx, file_path=str(u16)) == "1\tgrüße\n2\tzwei"
    latin = tmp_path / "latin.txt"
    latin.write_bytes("café crème\n".encode("latin-1"))
    assert await read(ctx, file_path=str(latin)) == "1\tcafé crème"


async def test_successful_read_records_file_state_by_resolved_path(ctx, tmp_path: Path) -> None:
    real = tmp_path / "real.txt"
    real.write_bytes(b"x = 1\r\ny = 2\r\n")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    await read(ctx, file_path=str(link))
    state = ctx.read_file_state.get(str(real))
    assert state is not None
    assert state.content == "x = 1\ny = 2\n"
    assert state.mtime_ns == real.stat().st_mtime_ns
    assert state.partial is False


async def test_window_read_is_partial_but_keeps_an_earlier_full_read(ctx, tmp_path) -> None:
    f = tmp_path / "w.txt"
    f.write_text("a\nb\nc\n")
    await read(ctx, file_path=str(f), offset=2, limit=1)
    assert ctx.read_file_state.get(str(f)).partial is True
    await read(ctx, file_path=str(f))
    await read(ctx, file_path=str(f), offset=2, limit=1)
    state = ctx.read_file_state.get(str(f))
    assert state.partial is False and state.content == "a\nb\nc\n"


# --- paths and refusals ----------------------------------------------------------------------


async def test_relative_path_is_refused_in_validation_and_in_call(ctx, tmp_path) -> None:
    (tmp_path / "rel.txt").write_text("x")
    verdict = await TOOL.validate_input(ReadInput(file_path="rel.txt"), ctx)
    assert not verdict.ok and "absolute" in verdict.message
    assert "absolute" in await read_error(ctx, file_path="rel.txt")


async def test_missing_file_suggests_a_similar_name(ctx, tmp_path: Path) -> None:
    (tmp_path / "config.yaml").write_text("k: v\n")
    message = await read_error(ctx, file_path=str(tmp_path / "config.yml"))
    assert "does not exist" in message and str(tmp_path / "config.yaml") in message


async def test_screenshot_name_with_narrow_no_break_space_is_found(ctx, tmp_path) -> None:
    real = tmp_path / "Screenshot 2024-05-01 at 10.15.42\u202fAM.txt"
    real.write_text("found me\n")
    typed = str(tmp_path / "Screenshot 2024-05-01 at 10.15.42 AM.txt")
    assert await read(ctx, file_path=typed) == "1\tfound me"


async def test_directory_gives_a_listing_that_says_it_is_a_directory(ctx, tmp_path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "README.md").write_text("hi")
    out = await read(ctx, file_path=str(tmp_path))
    assert "is a directory" in out
    assert "- README.md" in out and "- src/" in out


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/random", "/dev/urandom", "/dev/null"])
async def test_devices_are_refused_without_hanging(ctx, device: str) -> None:
    message = await read_error(ctx, file_path=device)
    assert "character device" in message


async def test_dev_stdin_is_refused(ctx) -> None:
    for path in ("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"):
        assert "Cannot read" in await read_error(ctx, file_path=path)


async def test_fifo_is_refused_without_opening_it(ctx, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    message = await read_error(ctx, file_path=str(fifo))
    assert "named pipe" in message


async def test_unix_socket_is_refused(ctx, tmp_path: Path) -> None:
    path = tmp_path / "s.sock"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(path))
        assert "socket" in await read_error(ctx, file_path=str(path))
    finally:
        server.close()


def _block_device(tmp_path: Path) -> str | None:
    node = tmp_path / "blk"
    try:
        os.mknod(node, stat.S_IFBLK | 0o600, os.makedev(7, 0))
        return str(node)
    except (PermissionError, OSError):
        pass
    with os.scandir("/dev") as entries:
        for entry in entries:
            if stat.S_ISBLK(entry.stat(follow_symlinks=False).st_mode):
                return entry.path
    return None


async def test_block_device_is_refused(ctx, tmp_path: Path) -> None:
    device = _block_device(tmp_path)
    if device is not None:
        assert "block device" in await read_error(ctx, file_path=device)
    else:  # no device node anywhere we may see: the classification itself must still hold
        blk = os.stat_result((stat.S_IFBLK | 0o600, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        with pytest.raises(ToolError, match="block device"):
            refuse_special("/x/blk", blk)


async def test_nul_bytes_mark_a_binary_file(ctx, tmp_path: Path) -> None:
    f = tmp_path / "blob.txt"
    f.write_bytes(b"header\x00\x01\x02rest")
    assert "binary" in await read_error(ctx, file_path=str(f))
    assert str(f) not in ctx.read_file_state


async def test_known_binary_extension_is_refused(ctx, tmp_path: Path) -> None:
    f = tmp_path / "archive.zip"
    f.write_bytes(b"PK\x03\x04 not really text")
    assert "binary" in await read_error(ctx, file_path=str(f))


async def test_unreadable_file_is_a_clear_error(ctx, tmp_path: Path) -> None:
    f = tmp_path / "secret.txt"
    f.write_text("top secret\n")
    f.chmod(0)
    try:
        if os.access(f, os.R_OK):  # root: permission bits do not stop reads
            assert await read(ctx, file_path=str(f)) == "1\ttop secret"
            # a file even root cannot read still fails cleanly instead of crashing
            assert "Input/output error" in await read_error(ctx, file_path="/proc/self/mem")
        else:
            assert "Permission denied" in await read_error(ctx, file_path=str(f))
    finally:
        f.chmod(stat.S_IRUSR | stat.S_IWUSR)


async def test_pages_on_a_text_file_is_an_error(ctx, tmp_path: Path) -> None:
    f = tmp_path / "t.txt"
    f.write_text("x\n")
    assert "PDF" in await read_error(ctx, file_path=str(f), pages="1")


# --- images ----------------------------------------------------------------------------------


def _image_bytes(size: tuple[int, int], fmt: str, mode: str = "RGB") -> bytes:
    buf = io.BytesIO()
    Image.new(mode, size, (200, 30, 30)).save(buf, format=fmt)
    return buf.getvalue()


@pytest.mark.parametrize(
    ("name", "fmt", "media"),
    [
        ("a.png", "PNG", "image/png"),
        ("b.jpg", "JPEG", "image/jpeg"),
        ("c.gif", "GIF", "image/gif"),
        ("d.webp", "WEBP", "image/webp"),
    ],
)
async def test_small_images_come_back_as_base64_blocks_unchanged(
    ctx, tmp_path: Path, name: str, fmt: str, media: str
) -> None:
    raw = _image_bytes((40, 30), fmt)
    (tmp_path / name).write_bytes(raw)
    blocks = await read(ctx, file_path=str(tmp_path / name))
    assert isinstance(blocks, list) and len(blocks) == 1
    block = blocks[0]
    assert block["type"] == "image"
    assert block["source"]["type"] == "base64"
    assert block["source"]["media_type"] == media
    assert base64.b64decode(block["source"]["data"]) == raw
    assert TOOL.render_result(blocks) == blocks


async def test_media_type_comes_from_the_bytes_not_the_name(ctx, tmp_path: Path) -> None:
    (tmp_path / "lies.png").write_bytes(_image_bytes((10, 10), "JPEG"))
    blocks = await read(ctx, file_path=str(tmp_path / "lies.png"))
    assert blocks[0]["source"]["media_type"] == "image/jpeg"


async def test_large_images_are_downscaled(ctx, tmp_path: Path) -> None:
    (tmp_path / "wide.png").write_bytes(_image_bytes((4000, 1000), "PNG"))
    blocks = await read(ctx, file_path=str(tmp_path / "wide.png"))
    img = Image.open(io.BytesIO(base64.b64decode(blocks[0]["source"]["data"])))
    assert max(img.size) <= 2000 and img.size == (2000, 500)


async def test_corrupt_image_is_a_clear_error(ctx, tmp_path: Path) -> None:
    (tmp_path / "broken.png").write_bytes(b"\x89PNG\r\n\x1a\nnot really")
    assert "could not be read as an image" in await read_error(
        ctx, file_path=str(tmp_path / "broken.png")
    )


# --- PDFs ------------------------------------------------------------------------------------


def make_pdf(path: Path, texts: list[str]) -> None:
    """A minimal, valid multi-page PDF with one line of Helvetica text per page."""
    n = len(texts)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        f"<< /Type /Pages /Kids [{' '.join(f'{4 + 2 * i} 0 R' for i in range(n))}] "
        f"/Count {n} >>".encode(),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    for i, text in enumerate(texts):
        stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
        objects.append(
            f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            f"/Resources << /Font << /F1 3 0 R >> >> /Contents {5 + 2 * i} 0 R >>".encode()
        )
        objects.append(b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream")
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    for offset in offsets:
        out += f"{offset:010d} 00000 n \n".encode()
    out += (
        f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
    ).encode()
    path.write_bytes(bytes(out))


async def test_pdf_pages_come_back_as_text_per_page(ctx, tmp_path: Path) -> None:
    pdf = tmp_path / "doc.pdf"
    make_pdf(pdf, ["Alpha page", "Beta page", "Gamma page"])
    out = await read(ctx, file_path=str(pdf), pages="2-3")
    assert "Page 2 of 3" in out and "Beta page" in out and "Gamma page" in out
    assert "Alpha" not in out
    whole = await read(ctx, file_path=str(pdf))
    assert whole.index("Alpha page") < whole.index("Beta page") < whole.index("Gamma page")


async def test_large_pdf_without_pages_asks_for_pages(ctx, tmp_path: Path) -> None:
    pdf = tmp_path / "long.pdf"
    make_pdf(pdf, [f"Page text {i}" for i in range(1, 13)])
    message = await read_error(ctx, file_path=str(pdf))
    assert "12 pages" in message and "pages" in message
    out = await read(ctx, file_path=str(pdf), pages="11-12")
    assert "Page text 11" in out and "Page text 12" in out and "Page text 1\n" not in out


@pytest.mark.parametrize("pages", ["abc", "5-2", "0", "30", "1-25"])
async def test_bad_page_ranges_are_errors(ctx, tmp_path: Path, pages: str) -> None:
    pdf = tmp_path / "p.pdf"
    make_pdf(pdf, [f"T{i}" for i in range(1, 26)])
    assert "pages" in await read_error(ctx, file_path=str(pdf), pages=pages)


async def test_broken_pdf_is_a_clear_error(ctx, tmp_path: Path) -> None:
    (tmp_path / "bad.pdf").write_bytes(b"this is no pdf at all")
    assert "PDF" in await read_error(ctx, file_path=str(tmp_path / "bad.pdf"))


# --- notebooks -------------------------------------------------------------------------------


async def test_notebook_shows_cells_and_their_outputs(ctx, tmp_path: Path) -> None:
    nb = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {"language_info": {"name": "python"}},
        "cells": [
            {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": ["# Title\n"]},
            {
                "cell_type": "code",
                "id": "c1",
                "execution_count": 1,
                "metadata": {},
                "source": ["print('hi')\n", "1 + 1"],
                "outputs": [
                    {"output_type": "stream", "name": "stdout", "text": ["hi\n"]},
                    {
                        "output_type": "execute_result",
                        "execution_count": 1,
                        "metadata": {},
                        "data": {"text/plain": ["2"], "image/png": "iVBOR"},
                    },
                ],
            },
            {
                "cell_type": "code",
                "id": "c2",
                "execution_count": 2,
                "metadata": {},
                "source": "1/0",
                "outputs": [
                    {
                        "output_type": "error",
                        "ename": "ZeroDivisionError",
                        "evalue": "division by zero",
                        "traceback": ["\x1b[0;31mZeroDivisionError\x1b[0m: division by zero"],
                    }
                ],
            },
        ],
    }
    path = tmp_path / "n.ipynb"
    path.write_text(json.dumps(nb))
    out = await read(ctx, file_path=str(path))
    assert "3 cell(s)" in out and "python" in out
    assert 'id="intro"' in out and "# Title" in out
    assert "print('hi')\n1 + 1" in out
    assert "hi\n2" in out and "image/png output not shown" in out
    assert "ZeroDivisionError: division by zero" in out and "\x1b" not in out
    assert out.index('id="c1"') < out.index("hi\n2") < out.index('id="c2"')


async def test_invalid_notebook_is_a_clear_error(ctx, tmp_path: Path) -> None:
    (tmp_path / "x.ipynb").write_text("{not json")
    assert "not a valid Jupyter notebook" in await read_error(
        ctx, file_path=str(tmp_path / "x.ipynb")
    )


# --- the tool's declared traits --------------------------------------------------------------


def test_tool_traits(ctx, tmp_path: Path) -> None:
    inp = ReadInput(file_path="/x/y.txt")
    assert TOOL.name == "Read"
    assert TOOL.is_read_only(inp) and TOOL.is_concurrency_safe(inp)
    assert TOOL.permission_subject(inp) == "/x/y.txt"
    assert TOOL.key_argument(inp) == "/x/y.txt"
    assert math.isinf(TOOL.max_result_size_chars)
    assert TOOL.backfill_input(ReadInput(file_path="/a/b/../c.txt"), ctx) == {
        "file_path": "/a/c.txt"
    }
    assert TOOL.backfill_input(ReadInput(file_path="sub/f.txt"), ctx) == {
        "file_path": str(tmp_path / "sub" / "f.txt")
    }
    schema = TOOL.input_schema()
    assert schema["required"] == ["file_path"]
    assert set(schema["properties"]) == {"file_path", "offset", "limit", "pages"}
    assert schema["additionalProperties"] is False
    assert "absolute" in TOOL.description
