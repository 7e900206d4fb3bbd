"""Each tool declares how it is presented; a tool that says nothing gets the defaults."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from claude_harness.protocol.tool import DEFAULT_PRESENTATION, ToolResult, build_tool
from claude_harness.tools.registry import get_all_base_tools

ACP_KINDS = {"read", "edit", "delete", "move", "search", "execute", "think", "fetch",
             "switch_mode", "other"}


class _Input(BaseModel):
    text: str = ""


async def _call(inp: _Input, ctx: object, progress: object) -> ToolResult:
    return ToolResult(inp.text)


def test_a_tool_that_declares_nothing_gets_the_defaults() -> None:
    tool = build_tool(name="Quiet", description="d", input_model=_Input, call=_call)
    assert tool.presentation is DEFAULT_PRESENTATION
    assert tool.presentation.permission_title(tool.name) == "Use Quiet"
    assert tool.presentation.kind == "other" and tool.presentation.file_change is None


def test_every_built_in_declares_a_known_kind_and_file_tools_diff_the_disk(
        tmp_path: Path) -> None:
    tools = {tool.name: tool for tool in get_all_base_tools()}
    assert {t.presentation.kind for t in tools.values()} <= ACP_KINDS
    changes_files = {name for name, t in tools.items() if t.presentation.file_change}
    assert changes_files == {"Write", "Edit"}
    target = tmp_path / "a.txt"
    write = tools["Write"].presentation.file_change
    assert write is not None
    assert write({"file_path": str(target), "content": "new"}) is None  # nothing to diff yet
    target.write_text("old one\n")
    assert write({"file_path": str(target), "content": "new"}) == ("old one\n", "new")
    edit = tools["Edit"].presentation.file_change
    assert edit is not None
    assert edit({"file_path": str(target), "old_string": "one", "new_string": "two"}) == (
        "old one\n", "old two\n")
    assert edit({"file_path": str(target), "old_string": "absent", "new_string": "x"}) is None
