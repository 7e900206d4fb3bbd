"""A file change makes the checkpoint index durable with one fsync: the prompt's record and the
file's number ride on the fsync of the state-before record that follows them, and a session
that only began a prompt still syncs it when the store closes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from claude_harness.session.checkpointing.checkpoints import Checkpoints


def _index_syncs(monkeypatch: pytest.MonkeyPatch, index: Path) -> list[int]:
    synced: list[int] = []
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        if os.path.realpath(f"/proc/self/fd/{fd}") == str(index.resolve()):
            synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", counting_fsync)
    return synced


def test_first_change_of_a_prompt_syncs_the_index_once(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "checkpoints"
    store = Checkpoints.open(folder)
    target = tmp_path / "a.txt"
    target.write_text("before\n")
    store.begin_prompt("p1", text="edit a")
    (folder / "index.jsonl").touch()
    synced = _index_syncs(monkeypatch, folder / "index.jsonl")
    store.before_change(target)
    assert len(synced) == 1
    kinds = [json.loads(line)[0] for line in (folder / "index.jsonl").read_text().splitlines()]
    assert kinds == ["p", "f", "b"]
    store.close()
    reopened = Checkpoints.open(folder)
    assert [p.prompt_id for p in reopened.prompts()] == ["p1"]
    assert str(target.resolve()) in reopened.find("p1").changes


def test_a_prompt_without_changes_is_synced_at_close(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "checkpoints"
    store = Checkpoints.open(folder)
    store.begin_prompt("p1", text="just talk")
    synced = _index_syncs(monkeypatch, folder / "index.jsonl")
    store.close()
    assert len(synced) == 1
