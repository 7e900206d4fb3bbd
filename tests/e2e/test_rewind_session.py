"""Checkpoints and rewind through the session's ops and events: the real Write and Edit tools
change real files over five prompts, then the Rewind op restores the code, the conversation
(forked into a new session, the old transcript left resumable), or both; a file the person
changed meanwhile is left alone without `force`; a restore killed half-way (a real subprocess
running the session) leaves the files as they were."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

from claude_harness.protocol.events import (
    HistoryReplaced,
    RewindPlanned,
    RewindPoints,
    Rewound,
)
from claude_harness.protocol.ops import ListRewindPoints, PlanRewind, Rewind
from claude_harness.session.checkpointing.restore_journal import PENDING
from claude_harness.session.store.transcript import load_messages
from claude_harness.testing.scenarios import TEXT
from tests.e2e.support import make_engine, run_op, run_prompt

ROOT = Path(__file__).resolve().parents[2]
NAMES = [f"f{i}.txt" for i in range(6)]


def tool_turn(*blocks: dict[str, Any]) -> dict[str, Any]:
    return {"content": [{"type": "tool_use", **b} for b in blocks]}


def write(path: Path, content: str) -> dict[str, Any]:
    return {"name": "Write", "input": {"file_path": str(path), "content": content}}


def edit(path: Path, old: str, new: str) -> dict[str, Any]:
    return {"name": "Edit", "input": {"file_path": str(path), "old_string": old,
                                      "new_string": new}}


def five_prompts(project: Path) -> list[dict[str, Any]]:
    """Prompt 1 writes six files; prompts 2-5 edit each of them once: 30 changes."""
    turns = [tool_turn(*(write(project / n, f"{n} v1\nkeep\n") for n in NAMES)), TEXT]
    for version in range(2, 6):
        turns += [tool_turn(*(edit(project / n, f"{n} v{version - 1}", f"{n} v{version}")
                              for n in NAMES)), TEXT]
    return turns


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("f*.txt"))}


async def run_five(session: Any, project: Path) -> list[dict[str, bytes]]:
    """The five prompts; the files after each one."""
    states = []
    for number in range(1, 6):
        await run_prompt(session, f"prompt {number}")
        states.append(snapshot(project))
    return states


async def points(session: Any) -> RewindPoints:
    events = await run_op(session, ListRewindPoints())
    return next(e for e in events if isinstance(e, RewindPoints))


async def test_thirty_edits_over_five_prompts_rewind_to_prompt_two(project: Path,
                                                                   api: Any) -> None:
    server = api([*five_prompts(project), TEXT])
    session = make_engine(server, project, mode="bypassPermissions")
    states = await run_five(session, project)
    assert states[-1]["f0.txt"] == b"f0.txt v5\nkeep\n"
    listed = await points(session)
    assert [p.text for p in listed.points] == [f"prompt {n}" for n in range(5, 0, -1)]
    assert all(len(p.files) == 6 for p in listed.points)  # the files each prompt changed
    second = listed.points[3]
    old_transcript = Path(session.transcript_path)

    planned = next(e for e in await run_op(session, PlanRewind(second.prompt_id))
                   if isinstance(e, RewindPlanned))
    assert len(planned.plan.changes) == 6 and not planned.plan.conflicts
    events = await run_op(session, Rewind(second.prompt_id))

    assert snapshot(project) == states[0]  # byte-identical to the end of prompt 1
    rewound = next(e for e in events if isinstance(e, Rewound))
    assert len(rewound.written) == 6 and rewound.conversation
    assert rewound.prompt_text == "prompt 2"  # back into the input, to edit or resend
    replaced = next(e for e in events if isinstance(e, HistoryReplaced))
    assert replaced.reason == "rewind" and replaced.session_id == rewound.session_id
    # the conversation forked: a new transcript up to prompt 2, the old one whole and resumable
    new_transcript = Path(session.transcript_path)
    assert new_transcript != old_transcript and new_transcript.stem == rewound.session_id
    kept = load_messages(new_transcript)
    assert [m["content"][0]["text"] for m in kept if m["role"] == "user"
            and m["content"][0].get("type") == "text"] == ["prompt 1"]
    old_prompts = [m for m in load_messages(old_transcript) if m["role"] == "user"
                   and m["content"][0].get("type") == "text"]
    assert len(old_prompts) == 5
    # the next prompt continues from prompt 1's answer, and the picker lists prompt 1 only
    await run_prompt(session, "again")
    sent = server.requests[-1]["messages"]
    texts = [b.get("text") for m in sent if m["role"] == "user" for b in m["content"]]
    assert "prompt 1" in texts and "prompt 2" not in texts and "again" in texts
    assert [p.text for p in (await points(session)).points] == ["again", "prompt 1"]


async def test_code_only_rewind_keeps_the_conversation_and_forgets_read_state(
        project: Path, api: Any) -> None:
    server = api([*five_prompts(project)[:4],
                  tool_turn(edit(project / "f0.txt", "f0.txt v1", "f0.txt again")), TEXT])
    session = make_engine(server, project, mode="bypassPermissions")
    await run_prompt(session, "prompt 1")
    after_one = snapshot(project)
    await run_prompt(session, "prompt 2")
    second = (await points(session)).points[0]
    session_id = session.session_id
    events = await run_op(session, Rewind(second.prompt_id, restore_conversation=False))
    assert snapshot(project) == after_one
    assert session.session_id == session_id and not any(
        isinstance(e, HistoryReplaced) for e in events)
    # f0 was rewritten behind the model's back: an Edit must read it again first
    await run_prompt(session, "prompt 3")
    result = server.requests[-1]["messages"][-1]["content"][0]
    assert result["is_error"] and "read" in str(result["content"]).lower()


async def test_a_file_changed_by_the_person_is_not_clobbered_without_force(
        project: Path, api: Any) -> None:
    server = api([*five_prompts(project), TEXT])
    session = make_engine(server, project, mode="bypassPermissions")
    states = await run_five(session, project)
    (project / "f3.txt").write_text("the person's own change\n")
    second = (await points(session)).points[3]
    planned = next(e for e in await run_op(session, PlanRewind(second.prompt_id))
                   if isinstance(e, RewindPlanned))
    assert [Path(c.path).name for c in planned.plan.conflicts] == ["f3.txt"]

    events = await run_op(session, Rewind(second.prompt_id, restore_conversation=False))
    rewound = next(e for e in events if isinstance(e, Rewound))
    assert [Path(p).name for p in rewound.conflicts] == ["f3.txt"]
    assert (project / "f3.txt").read_text() == "the person's own change\n"
    expected = {**states[0], "f3.txt": b"the person's own change\n"}
    assert snapshot(project) == expected


async def test_forced_rewind_overwrites_the_persons_change(project: Path, api: Any) -> None:
    server = api([*five_prompts(project)[:4], TEXT])
    session = make_engine(server, project, mode="bypassPermissions")
    await run_prompt(session, "prompt 1")
    after_one = snapshot(project)
    await run_prompt(session, "prompt 2")
    (project / "f1.txt").write_text("mine\n")
    second = (await points(session)).points[0]
    await run_op(session, Rewind(second.prompt_id, restore_conversation=False, force=True))
    assert snapshot(project) == after_one


async def test_a_restore_killed_half_way_leaves_the_files_as_they_were(
        project: Path, api: Any, tmp_path: Path) -> None:
    count = 90  # the read-file cache keeps 100 files: every Edit finds its Write
    body = "x" * 20_000 + "\n"
    files = [project / f"g{i:03}.txt" for i in range(count)]
    server = api([tool_turn(*(write(f, "old\n" + body) for f in files)), TEXT,
                  tool_turn(*(edit(f, "old", "new") for f in files)), TEXT])
    script = tmp_path / "child.py"
    script.write_text(CHILD_SCRIPT)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, str(script), server.url, str(project)],
                             stdout=subprocess.PIPE, text=True, env=env, cwd=project)
    assert child.stdout is not None
    before: dict[str, bytes] = {}
    folder = None
    try:
        for line in child.stdout:
            if line.startswith("ready "):
                folder = Path(line.split()[1])
                before = {f.name: f.read_bytes() for f in files}
            if line.startswith("prepared 25 "):
                os.kill(child.pid, signal.SIGKILL)
                break
        else:
            raise AssertionError("the restore never reported its progress")
    finally:
        child.wait(timeout=60)
    assert folder is not None and (folder / PENDING).exists()  # killed before its commit
    assert all(b.startswith(b"new") for b in before.values())
    # the next session on this conversation finishes the job: every file as it was, no temps
    resumed = make_engine(server, project, mode="bypassPermissions",
                          session_id=folder.parent.name)
    events = await run_op(resumed, ListRewindPoints())
    assert any(isinstance(e, RewindPoints) and e.points for e in events)
    assert {f.name: f.read_bytes() for f in files} == before
    assert not any(".rewind-" in p.name for p in project.iterdir())
    assert not (folder / PENDING).exists()


CHILD_SCRIPT = """
import asyncio, sys
from pathlib import Path
from tests.e2e.support import iter_op, make_engine, run_op, run_prompt
from claude_harness.protocol.events import RewindPoints, RewindProgress
from claude_harness.protocol.ops import ListRewindPoints, Rewind


class Server:
    url = sys.argv[1]


async def main() -> None:
    project = Path(sys.argv[2])
    session = make_engine(Server, project, mode="bypassPermissions")
    await run_prompt(session, "write them")
    await run_prompt(session, "change them")
    events = await run_op(session, ListRewindPoints())
    latest = next(e for e in events if isinstance(e, RewindPoints)).points[0]
    folder = Path(session.transcript_path).parent / session.session_id / "checkpoints"
    print("ready", folder, flush=True)
    async for event in iter_op(session, Rewind(latest.prompt_id, restore_conversation=False)):
        if isinstance(event, RewindProgress):
            print(event.phase, event.done, event.total, flush=True)
    print("finished", flush=True)


asyncio.run(main())
"""
