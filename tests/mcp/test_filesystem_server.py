"""The reference `@modelcontextprotocol/server-filesystem` (npm) started with no directory of its
own: it works only inside the roots the harness offers (the working directories), so these
calls prove roots end to end, including /add-dir and a refused path outside them."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from claude_harness.mcp import McpManager
from claude_harness.mcp.config import McpServerConfig
from claude_harness.tools.registry import assemble_tool_pool
from tests.mcp.npm_servers import FILESYSTEM, require
from tests.mcp.support import call, make_ctx, permission, text_of

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")


class Files:
    def __init__(self, manager: McpManager, cwd: Path) -> None:
        self.manager = manager
        perm = permission(cwd, allow=("mcp__fs",))
        self.ctx = make_ctx(perm, assemble_tool_pool(perm, mcp_tools=manager.tools()))

    async def call(self, tool: str, args: dict[str, Any]) -> Any:
        return await asyncio.wait_for(call(self.ctx, f"mcp__fs__{tool}", args), 30)


@pytest.fixture
async def files(tmp_path: Path, home: Path) -> AsyncIterator[Files]:
    script = require(FILESYSTEM)
    project = tmp_path / "project"
    project.mkdir()
    (project / "notes.txt").write_text("first line\nsecond line\n")
    (project / "pixel.png").write_bytes(PNG)
    cfg = McpServerConfig(name="fs", command="node", args=(script,), scope="cli")
    manager = McpManager([cfg], cwd=project, startup_timeout=30)
    manager.start()
    try:
        assert await manager.wait_ready(40)
        assert manager.status()[0].state == "connected", manager.status()[0].error
        files = Files(manager, project)
        for _ in range(100):  # the server asks for our roots right after the handshake
            listed = await files.call("list_allowed_directories", {})
            if str(project.resolve()) in text_of(listed):
                break
            await asyncio.sleep(0.05)
        yield files
    finally:
        await asyncio.wait_for(manager.close(), 20)


async def test_the_roots_are_the_allowed_directories(files: Files, tmp_path: Path) -> None:
    allowed = await files.call("list_allowed_directories", {})
    assert text_of(allowed).splitlines()[1:] == [str((tmp_path / "project").resolve())]
    outside = await files.call("read_text_file", {"path": str(tmp_path / "secret.txt")})
    assert outside.is_error and "outside allowed directories" in text_of(outside)


async def test_read_write_edit_list_search(files: Files, tmp_path: Path) -> None:
    project = tmp_path / "project"
    read = await files.call("read_text_file", {"path": str(project / "notes.txt")})
    assert read.content == "first line\nsecond line\n"
    assert read.data.structured == {"content": "first line\nsecond line\n"}
    wrote = await files.call("write_file", {"path": str(project / "new.md"), "content": "# hi\n"})
    assert not wrote.is_error and (project / "new.md").read_text() == "# hi\n"
    edited = await files.call("edit_file", {"path": str(project / "notes.txt"), "edits": [
        {"oldText": "second line", "newText": "2nd line"}]})
    assert not edited.is_error and "2nd line" in text_of(edited)  # a diff
    assert (project / "notes.txt").read_text() == "first line\n2nd line\n"
    listing = await files.call("list_directory", {"path": str(project)})
    assert "[FILE] new.md" in text_of(listing) and "[FILE] notes.txt" in text_of(listing)
    found = await files.call("search_files", {"path": str(project), "pattern": "*.md"})
    assert str(project / "new.md") in text_of(found)
    media = await files.call("read_media_file", {"path": str(project / "pixel.png")})
    assert not media.is_error and media.content[0]["type"] == "image"
    assert base64.b64decode(media.content[0]["source"]["data"]) == PNG


async def test_add_dir_widens_what_the_server_may_touch(files: Files, tmp_path: Path) -> None:
    extra = tmp_path / "shared"
    extra.mkdir()
    (extra / "data.csv").write_text("a,b\n1,2\n")
    before = await files.call("read_text_file", {"path": str(extra / "data.csv")})
    assert before.is_error
    files.manager.add_root(extra)
    for _ in range(50):  # the server asks for the roots again once told they changed
        after = await files.call("read_text_file", {"path": str(extra / "data.csv")})
        if not after.is_error:
            break
        await asyncio.sleep(0.1)
    assert after.content == "a,b\n1,2\n"
