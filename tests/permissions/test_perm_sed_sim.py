"""sed -i previews: computed by real sed on a copy, applied by the real Bash tool as shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from claude_harness.permissions.resolver import resolve_permission
from claude_harness.protocol.context import (
    AbortSignal,
    FileStateCache,
    ShellState,
    ToolUseContext,
    ToolUseOptions,
)
from claude_harness.tools.bash import TOOL as BASH
from tests.permissions.perm_helpers import context, decide_bash


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = (tmp_path / "proj").resolve()
    root.mkdir()
    (root / "app.py").write_text("name = 'foo'\nprint(foo)\n")
    return root


def test_simulation_runs_real_sed_on_a_copy(proj: Path) -> None:
    d = decide_bash("sed -i 's/foo/bar/g' app.py", context(proj))
    assert d.behavior == "ask" and d.preview is not None
    assert "-name = 'foo'" in d.preview and "+name = 'bar'" in d.preview
    assert (proj / "app.py").read_text() == "name = 'foo'\nprint(foo)\n"  # untouched
    assert d.updated_input == {"_simulated_sed_edit": {
        "file_path": str(proj / "app.py"), "new_content": "name = 'bar'\nprint(bar)\n"}}


@pytest.mark.parametrize("command", [
    "sed 's/foo/bar/' app.py",  # not in place
    "sed -i.bak 's/foo/bar/' app.py",  # backup file would be missing
    "sed -i 's/foo/bar/' app.py other.py",  # two files
    "sed -i 's/foo/bar/w /tmp/x' app.py",  # write command
    "sed -i '1e id' app.py",  # exec command
    "sed -i 's/a/b/' ../outside.py",  # outside the working dirs
    "sed -i 's/a/b/' missing.py",
    "sed -i 's/a/b/' app.py && ls",  # compound
    "sudo sed -i 's/a/b/' app.py",
])
def test_not_simulated(proj: Path, command: str) -> None:
    (proj.parent / "outside.py").write_text("a\n")
    d = decide_bash(command, context(proj, mode="acceptEdits"))
    assert d.updated_input is None and d.preview is None, command


async def test_resolver_attaches_preview_and_tool_applies_it(proj: Path) -> None:
    perm = context(proj, mode="acceptEdits")
    ctx = ToolUseContext(options=ToolUseOptions(), permission=perm, abort=AbortSignal(),
                         read_file_state=FileStateCache(), shell=ShellState(proj))
    inp = BASH.input_model.model_validate({"command": "sed -i 's/foo/baz/' app.py"})
    decision = await resolve_permission(BASH, inp, ctx)
    assert decision.behavior == "allow"
    assert decision.preview and "+name = 'baz'" in decision.preview
    # what the pipeline does with an allowed decision's updated_input
    merged = BASH.input_model.model_validate(
        {**inp.model_dump(exclude_none=True, by_alias=True), **decision.updated_input})
    await BASH.call(merged, ctx, lambda _: None)
    assert (proj / "app.py").read_text() == "name = 'baz'\nprint(baz)\n"


async def test_default_mode_asks_with_the_preview(proj: Path) -> None:
    ctx = ToolUseContext(options=ToolUseOptions(), permission=context(proj), abort=AbortSignal(),
                         read_file_state=FileStateCache(), shell=ShellState(proj))
    inp = BASH.input_model.model_validate({"command": "sed -i 's/foo/qux/' app.py"})
    decision = await resolve_permission(BASH, inp, ctx)
    assert decision.behavior == "ask" and "+print(qux)" in decision.preview
    assert "+name = 'qux'" in decision.preview
