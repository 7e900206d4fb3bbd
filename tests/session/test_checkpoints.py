"""File checkpoints and rewind, driven through the real Edit, Write, NotebookEdit and Bash tools
against real files; the crash test kills a real subprocess in the middle of a restore."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from claude_harness.protocol.context import ToolUseContext
from claude_harness.session.checkpointing.checkpoint_blobs import content_hash
from claude_harness.session.checkpointing.checkpoints import (
    CheckpointError,
    Checkpoints,
    rewind_files,
)
from claude_harness.session.checkpointing.restore_journal import JOURNAL, PENDING
from claude_harness.tools.edit import TOOL as EDIT
from claude_harness.tools.edit import EditInput
from claude_harness.tools.read import TOOL as READ
from claude_harness.tools.read import ReadInput
from claude_harness.tools.write import TOOL as WRITE
from tests.tools.conftest import make_ctx

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    folder = tmp_path / "proj"
    folder.mkdir()
    return folder


@pytest.fixture
def store(tmp_path: Path) -> Checkpoints:
    return Checkpoints.open(tmp_path / "session" / "checkpoints")


@pytest.fixture
def tctx(project: Path, store: Checkpoints) -> ToolUseContext:
    return replace(make_ctx(project), checkpoints=store)


async def read(ctx: ToolUseContext, path: Path) -> None:
    await READ.call(ReadInput(file_path=str(path)), ctx, lambda _: None)


async def edit(ctx: ToolUseContext, path: Path, old: str, new: str) -> None:
    await EDIT.call(EditInput(file_path=str(path), old_string=old, new_string=new), ctx,
                    lambda _: None)


async def write(ctx: ToolUseContext, path: Path, content: str) -> None:
    inp = WRITE.input_model.model_validate({"file_path": str(path), "content": content})
    await WRITE.call(inp, ctx, lambda _: None)


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its exact bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


async def thirty_edits(ctx: ToolUseContext, store: Checkpoints, project: Path
                       ) -> list[dict[str, bytes]]:
    """Five prompts of six changes each (edits, whole rewrites, new files); returns the
    project's exact bytes before each prompt."""
    for name in ("a.py", "b.py", "c.txt"):
        (project / name).write_text("".join(f"{name} line {i}\n" for i in range(40)))
        await read(ctx, project / name)
    before: list[dict[str, bytes]] = []
    for p in range(5):
        before.append(snapshot(project))
        store.begin_prompt(f"prompt-{p}", message_uuid=f"uuid-{p}", text=f"do step {p}")
        for i in range(2):
            await edit(ctx, project / "a.py", f"a.py line {p * 6 + i}\n", f"A{p}.{i}\n")
            await edit(ctx, project / "b.py", f"b.py line {39 - p * 6 - i}\n", f"B{p}.{i}\n")
        await write(ctx, project / f"new_{p}.txt", f"created in prompt {p}\n")
        await write(ctx, project / "c.txt", f"c rewritten in prompt {p}\n" * (p + 1))
    return before


async def test_thirty_edits_rewind_to_prompt_two_is_byte_identical(
        tctx: ToolUseContext, store: Checkpoints, project: Path, tmp_path: Path) -> None:
    before = await thirty_edits(tctx, store, project)
    assert sum(p.edits for p in store.prompts()) == 30

    # a fresh process opens the same folder: the rewind works from disk alone
    store.close()
    reopened = Checkpoints.open(tmp_path / "session" / "checkpoints")
    plan = reopened.plan_restore("prompt-2")
    assert not plan.conflicts
    assert {Path(f.path).name for f in plan.changes} == {"a.py", "b.py", "c.txt", "new_2.txt",
                                                         "new_3.txt", "new_4.txt"}
    result = reopened.restore("uuid-2")  # found by the user message's uuid, as the SDK asks
    assert snapshot(project) == before[2]
    assert not (project / "new_3.txt").exists() and (project / "new_1.txt").exists()
    assert {Path(p).name for p in result.deleted} == {"new_2.txt", "new_3.txt", "new_4.txt"}
    assert result.insertions > 0 and result.deletions > 0
    sdk = result.to_sdk()
    assert sdk["canRewind"] is True and len(sdk["filesChanged"]) == 6


async def test_the_sdk_rewind_files_request(tctx: ToolUseContext, store: Checkpoints,
                                            project: Path) -> None:
    before = await thirty_edits(tctx, store, project)
    preview = rewind_files(store, "uuid-3", dry_run=True)
    assert preview["canRewind"] and len(preview["filesChanged"]) == 5
    assert snapshot(project) != before[3]  # a dry run changes nothing
    done = rewind_files(store, "uuid-3")
    assert sorted(done["filesChanged"]) == sorted(preview["filesChanged"])
    assert snapshot(project) == before[3]
    assert rewind_files(store, "no-such-message") == {
        "canRewind": False, "error": "No checkpoint for prompt 'no-such-message'."}


async def test_listing_is_newest_first_with_the_files_each_prompt_changed(
        tctx: ToolUseContext, store: Checkpoints, project: Path) -> None:
    await thirty_edits(tctx, store, project)
    rows = store.prompts()
    assert [r.prompt_id for r in rows] == [f"prompt-{p}" for p in range(4, -1, -1)]
    assert {Path(f).name for f in rows[0].files} == {"a.py", "b.py", "new_4.txt", "c.txt"}
    assert rows[0].edits == 6 and rows[0].text == "do step 4"
    assert store.find("uuid-3") is rows[1]
    store.restore("prompt-3")
    assert [r.rewound for r in store.prompts()] == [True, True, False, False, False]
    with pytest.raises(CheckpointError):
        store.restore("prompt-4")
    # new prompts after a rewind can be rewound in turn
    store.begin_prompt("after-rewind")
    await read(tctx, project / "a.py")  # a rewind changed the file: the model reads it again
    await edit(tctx, project / "a.py", "A0.0\n", "again\n")
    assert store.restore("after-rewind").written


async def test_a_file_the_person_changed_meanwhile_is_not_clobbered(
        tctx: ToolUseContext, store: Checkpoints, project: Path) -> None:
    before = await thirty_edits(tctx, store, project)
    mine = b"the person's own work, typed in their editor\n"
    (project / "b.py").write_bytes(mine)

    plan = store.plan_restore("prompt-1")
    assert [Path(f.path).name for f in plan.conflicts] == ["b.py"]
    result = store.restore("prompt-1")
    assert [Path(p).name for p in result.conflicts] == ["b.py"]
    assert (project / "b.py").read_bytes() == mine
    assert (project / "a.py").read_bytes() == before[1]["a.py"]
    assert "b.py" in result.to_sdk()["error"]

    # forced: overwritten, but the person's text is kept as a blob first
    store.begin_prompt("again")
    (project / "b.py").write_bytes(mine)
    forced = store.restore("prompt-0", force=True)
    assert (project / "b.py").read_bytes() == before[0]["b.py"]
    assert store.blobs.get(forced.saved[str((project / "b.py").resolve())]) == mine


async def test_a_created_file_is_recorded_as_absent_and_deleted(
        tctx: ToolUseContext, store: Checkpoints, project: Path) -> None:
    store.begin_prompt("p1")
    await write(tctx, project / "sub" / "fresh.txt", "hello\n")
    change = store.prompts()[0].changes[str((project / "sub" / "fresh.txt").resolve())]
    assert change.before is None
    result = store.restore("p1")
    assert not (project / "sub" / "fresh.txt").exists()
    assert [Path(p).name for p in result.deleted] == ["fresh.txt"]


async def test_edits_through_a_symlink_restore_the_target_and_keep_the_link(
        tctx: ToolUseContext, store: Checkpoints, project: Path) -> None:
    real = project / "real.txt"
    real.write_text("original\n")
    (project / "link.txt").symlink_to(real)
    await read(tctx, project / "link.txt")
    store.begin_prompt("p1")
    await edit(tctx, project / "link.txt", "original", "changed")
    store.restore("p1")
    assert (project / "link.txt").is_symlink() and real.read_text() == "original\n"


async def test_the_same_content_is_stored_once(tctx: ToolUseContext, store: Checkpoints,
                                               project: Path) -> None:
    target = project / "toggle.txt"
    target.write_text("x = 1\n" * 200)
    await read(tctx, target)
    for i in range(20):
        store.begin_prompt(f"p{i}")
        old, new = ("x = 1\n", "x = 2\n") if i % 2 == 0 else ("x = 2\n", "x = 1\n")
        await edit(tctx, target, old * 200, new * 200)
    assert len(store.blobs) == 2  # twenty changes, two distinct previous contents
    store.restore("p5")
    assert target.read_text() == "x = 2\n" * 200


async def test_notebook_edit_and_an_approved_sed_are_checkpointed(
        tctx: ToolUseContext, store: Checkpoints, project: Path) -> None:
    from claude_harness.tools.bash import TOOL as BASH
    from claude_harness.tools.notebook_edit import TOOL as NOTEBOOK

    nb = project / "n.ipynb"
    nb.write_text(json.dumps({"cells": [{"cell_type": "code", "id": "c1", "metadata": {},
                                          "source": ["print(1)"], "outputs": [],
                                          "execution_count": None}],
                              "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    conf = project / "conf.ini"
    conf.write_text("debug=false\n")
    original = snapshot(project)
    await read(tctx, nb)
    store.begin_prompt("p1")
    inp = NOTEBOOK.input_model.model_validate({"notebook_path": str(nb), "cell_id": "c1",
                                               "new_source": "print(2)"})
    await NOTEBOOK.call(inp, tctx, lambda _: None)
    sed = BASH.input_model.model_validate({"command": f"sed -i s/false/true/ {conf}",
                                           "_simulated_sed_edit": {"file_path": str(conf),
                                                                   "new_content": "debug=true\n"}})
    await BASH.call(sed, tctx, lambda _: None)
    assert conf.read_text() == "debug=true\n" and "print(2)" in nb.read_text()
    store.restore("p1")
    assert snapshot(project) == original


async def test_bash_redirect_targets_are_checkpointed(tctx: ToolUseContext, store: Checkpoints,
                                                      project: Path) -> None:
    from claude_harness.tools.bash import TOOL as BASH

    (project / "log.txt").write_text("kept\n")
    store.begin_prompt("p1")
    inp = BASH.input_model.model_validate(
        {"command": "echo appended >> log.txt && printf new > made.txt | tee copy.txt"})
    await BASH.call(inp, tctx, lambda _: None)
    assert (project / "made.txt").exists() and (project / "copy.txt").exists()
    store.restore("p1")
    assert snapshot(project) == {"log.txt": b"kept\n"}


def test_a_pack_record_cut_by_a_crash_is_dropped(tmp_path: Path) -> None:
    folder = tmp_path / "cp"
    store = Checkpoints.open(folder)
    target = tmp_path / "f.txt"
    target.write_text("one\n")
    store.begin_prompt("p1")
    store.before_change(target)
    target.write_text("two\n")
    store.close()
    pack = folder / "blobs.pack"
    whole = pack.stat().st_size
    with open(pack, "ab") as handle:  # a torn append: header promises more than is there
        handle.write(b"CB" + b"\x00" * 16 + (9999).to_bytes(4, "big") + b"partial")
    reopened = Checkpoints.open(folder)
    assert pack.stat().st_size == whole
    reopened.restore("p1")
    assert target.read_text() == "one\n"


# ── a crash in the middle of a restore ───────────────────────────────────────────────────────

CHILD = """
import sys
from pathlib import Path
from claude_harness.session.checkpointing.checkpoints import Checkpoints

store = Checkpoints.open(Path(sys.argv[1]))
def progress(phase, done, total):
    print(phase, done, total, flush=True)
store.restore("p1", progress=progress)
print("finished", flush=True)
"""


def _many_files_session(tmp_path: Path, count: int) -> tuple[Path, Path, dict[str, bytes],
                                                            dict[str, bytes]]:
    """A session that changed `count` files (and created a few) under one prompt."""
    folder, project = tmp_path / "cp", tmp_path / "many"
    project.mkdir()
    store = Checkpoints.open(folder)
    for i in range(count):
        (project / f"f{i:03}.txt").write_text(f"old {i}\n" * 50)
    old = snapshot(project)
    store.begin_prompt("p1")
    for i in range(count):
        store.before_change(project / f"f{i:03}.txt")
        (project / f"f{i:03}.txt").write_text(f"new {i}\n" * 50)
    for i in range(5):
        store.before_change(project / f"created{i}.txt")
        (project / f"created{i}.txt").write_text("made by the session\n")
    store.close()
    return folder, project, old, snapshot(project)


def _kill_child_when(folder: Path, wanted: str) -> None:
    """Run a restore in a real subprocess and SIGKILL it as soon as it reports `wanted`."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(folder)], stdout=subprocess.PIPE,
                             text=True, env=env)
    assert child.stdout is not None
    try:
        for line in child.stdout:
            if line.startswith(wanted):
                os.kill(child.pid, signal.SIGKILL)
                break
        else:
            pytest.fail(f"the restore never reported {wanted!r}")
    finally:
        child.wait(timeout=30)


def test_a_restore_killed_after_its_commit_is_finished_on_the_next_open(
        tmp_path: Path) -> None:
    folder, project, old, new = _many_files_session(tmp_path, 300)
    _kill_child_when(folder, "applied 3 ")
    mixed = snapshot(project)
    assert (folder / JOURNAL).exists()
    assert mixed != old and mixed != new  # the kill really landed in the middle
    Checkpoints.open(folder)  # recovery
    assert snapshot(project) == old
    assert not (folder / JOURNAL).exists()


def test_a_restore_killed_before_its_commit_leaves_every_file_as_it_was(
        tmp_path: Path) -> None:
    folder, project, old, new = _many_files_session(tmp_path, 300)
    _kill_child_when(folder, "prepared 3 ")
    assert (folder / PENDING).exists()
    assert any(".rewind-" in p.name for p in project.iterdir())  # temps were being written
    Checkpoints.open(folder)
    assert snapshot(project) == new  # untouched, and the temps are gone
    assert not (folder / PENDING).exists()


def test_hashes_name_content(tmp_path: Path) -> None:
    assert content_hash(b"a") != content_hash(b"b") and len(content_hash(b"")) == 32


async def test_checkpointing_does_not_block_the_event_loop(tctx: ToolUseContext,
                                                           store: Checkpoints,
                                                           project: Path) -> None:
    """File tools call the store from their worker thread; the loop keeps ticking."""
    target = project / "big.txt"
    target.write_text("x" * 2_000_000)
    await read(tctx, target)
    store.begin_prompt("p1")
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0.001)

    task = asyncio.create_task(ticker())
    await write(tctx, target, "small now\n")
    task.cancel()
    assert ticks >= 1
    store.restore("p1")
    assert target.stat().st_size == 2_000_000
