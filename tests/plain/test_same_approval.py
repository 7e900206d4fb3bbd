"""The app and the REPL show the same approval for the same call, as the tool presents it: the
same title and the same lines, an overwrite diffed against the file on disk in both (the REPL
showed only the input before, under another title)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from claude_harness.frontends.plain.previews import permission_body
from claude_harness.frontends.shared import previews
from claude_harness.frontends.tui.widgets.permission_prompt import describe
from claude_harness.protocol.events import PermissionRequest

READY = "shift+tab to cycle"
ON_DISK = "alpha\nbeta\ngamma\n"
NEW = "alpha\nBETA\ngamma\n"


def request(name: str, inp: dict[str, Any], preview: str | None = None) -> PermissionRequest:
    return PermissionRequest("r1", "t1", name, inp, "asks", None, preview)


async def test_both_front_ends_approve_the_same_lines(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_text(ON_DISK)
    calls = [
        request("Write", {"file_path": str(target), "content": NEW}),
        request("Write", {"file_path": str(tmp_path / "new.txt"), "content": "x\ny\n"}),
        request("Edit", {"file_path": str(target), "old_string": "beta", "new_string": "B"}),
        request("Bash", {"command": "rm -rf build\necho done", "description": "clean"}),
        request("Bash", {"command": "sed -i s/a/b/ f"}, "--- f\n+++ f\n-a\n+b"),
        request("mcp__demo__echo", {"text": "hi"}),
    ]
    for call in calls:
        diff = await previews.file_change_diff_async(call.tool_name, call.input)
        assert describe(call, diff) == permission_body(call.tool_name, call.input,
                                                       call.preview, diff), call
    overwrite = await previews.file_change_diff_async("Write", calls[0].input)
    assert overwrite is not None and " alpha" in overwrite  # context from the disk
    assert "-beta" in overwrite and "+BETA" in overwrite
    assert previews.presentation_of("Write").permission_title("Write") == "Create or overwrite file"
    assert previews.presentation_of("mcp__demo__echo").permission_title(
        "mcp__demo__echo") == "Use mcp__demo__echo"


@pytest.mark.timeout(90)
@pytest.mark.slow
def test_the_repl_diffs_an_overwrite_against_the_disk(plain_tmux: Any, project: Path) -> None:
    target = project / "notes.txt"
    target.write_text(ON_DISK)
    session, _server = plain_tmux(
        [{"content": [{"type": "tool_use", "name": "Read",
                       "input": {"file_path": str(target)}}]},
         {"content": [{"type": "tool_use", "name": "Write",
                       "input": {"file_path": str(target), "content": NEW}}]},
         "Rewrote it."])
    session.wait_for(READY)
    session.type("rewrite notes")
    session.send("Enter")
    screen = session.wait_for("Do you want to proceed?")
    approval = screen.partition("Create or overwrite file")[2].partition("Do you want")[0]
    lines = [line.strip() for line in approval.splitlines()]
    assert "-beta" in lines and "+BETA" in lines, screen
    assert "alpha" in lines and "+ alpha" not in lines, screen  # a context line of the file
    session.send("1")
    session.wait_for("Rewrote it.")
    assert target.read_text() == NEW
