"""File checkpoints: every file's previous content, grouped by user prompt, and rewind.

Before a tool changes a file (Edit, Write, NotebookEdit, an approved `sed -i`, a Bash redirect
the parser saw) it calls `before_change(path)`: the file's current bytes go into the blob store
(content-addressed, mostly as a small delta; see checkpoint_blobs), or "did not exist" is noted.
The session calls `begin_prompt(prompt_id)` before each user prompt, so changes are grouped by
the prompt that caused them. Rewinding to "before prompt P" restores, for every file changed in
P or later, the content it had at its first change from P on; a file that did not exist then is
deleted.

A file the person changed outside the harness since the harness last wrote it is a conflict: the
plan shows it, and `restore` leaves it alone unless `force` (and even then its content is kept as a
blob first). Restores go through a journal (restore_journal), so a crash leaves every file old or
every file new.

On disk, in the checkpoint folder: `blobs.pack` and `index.jsonl`, one short JSON array per line,
appended and fsynced: ["p", id, uuid, text, time] a prompt, ["f", n, path] a file's number,
["b", n, hash, mode?, why-not-kept?] a state before a change, ["a", n, hash] the state the harness
left a file in, ["r", prompt, {n: hash}, {n: saved}] a restore. An "a" record is written only
when it says something: when the next "b" of the same file has the same hash (nobody else touched
the file in between), that "b" implies it.
"""

from __future__ import annotations

import json
import os
import stat
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from claude_harness.session.checkpointing.checkpoint_blobs import BlobError, BlobStore, content_hash
from claude_harness.session.checkpointing.restore_journal import FileOp, Progress, RestoreJournal

MAX_TRACKED_BYTES = 16 * 1024 * 1024  # larger files are noted as not restorable, not copied
DEFAULT_MODE = 0o644  # the permission bits a "b" record leaves out
INDEX = "index.jsonl"
PROMPT_TEXT_CHARS = 200


class CheckpointError(Exception):
    """A rewind that cannot be done (unknown or already rewound prompt)."""


@dataclass
class FileChange:
    """A file's state before one change. `before` is a blob hash, None when it did not exist."""

    path: str
    before: str | None
    mode: int | None = None
    skipped: str = ""  # why this state was not kept (too large, unreadable): not restorable


@dataclass
class PromptCheckpoint:
    """One user prompt and the files changed while answering it (first change of each kept)."""

    prompt_id: str
    message_uuid: str | None
    text: str
    created: float
    changes: dict[str, FileChange] = field(default_factory=dict)
    edits: int = 0  # every before_change, not only the first per file
    rewound: bool = False

    @property
    def files(self) -> list[str]:
        return list(self.changes)


Action = Literal["write", "delete", "unchanged"]


@dataclass(frozen=True)
class FilePlan:
    """What a rewind would do to one file."""

    path: str
    action: Action
    conflict: bool = False  # changed outside the harness since the harness last wrote it
    insertions: int = 0  # lines the rewind adds back
    deletions: int = 0  # lines the rewind removes
    skipped: str = ""


@dataclass(frozen=True)
class RestorePlan:
    prompt_id: str
    files: tuple[FilePlan, ...]

    @property
    def conflicts(self) -> list[FilePlan]:
        return [f for f in self.files if f.conflict and f.action != "unchanged"]

    @property
    def changes(self) -> list[FilePlan]:
        return [f for f in self.files if f.action != "unchanged" and not f.skipped]

    def to_sdk(self) -> dict[str, Any]:
        """The Agent SDK's RewindFilesResult for a dry run."""
        return {"canRewind": True, "filesChanged": [f.path for f in self.changes],
                "insertions": sum(f.insertions for f in self.changes),
                "deletions": sum(f.deletions for f in self.changes)}


@dataclass(frozen=True)
class RestoreResult:
    prompt_id: str
    written: tuple[str, ...] = ()
    deleted: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()  # left untouched (not forced)
    skipped: tuple[str, ...] = ()  # no restorable state was kept
    insertions: int = 0
    deletions: int = 0
    saved: dict[str, str] = field(default_factory=dict)  # path -> blob of the overwritten content

    @property
    def files_changed(self) -> list[str]:
        return [*self.written, *self.deleted]

    def to_sdk(self) -> dict[str, Any]:
        """The Agent SDK's RewindFilesResult shape (`rewind_files` control request)."""
        result: dict[str, Any] = {"canRewind": True, "filesChanged": self.files_changed,
                                  "insertions": self.insertions, "deletions": self.deletions}
        if self.conflicts:
            result["error"] = ("Changed outside the session since its last edit, left as they "
                               "are: " + ", ".join(self.conflicts))
        return result


def rewind_files(store: Checkpoints, user_message_id: str, *,
                 dry_run: bool = False) -> dict[str, Any]:
    """Answer an SDK client's `rewind_files` control request (RewindFilesResult)."""
    try:
        if dry_run:
            return store.plan_restore(user_message_id).to_sdk()
        return store.restore(user_message_id).to_sdk()
    except CheckpointError as exc:
        return {"canRewind": False, "error": str(exc)}


def _read_state(path: str) -> tuple[bytes | None, int | None, str]:
    """(content or None when absent, permission bits, why it cannot be kept)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None, None, ""
    except OSError as exc:
        return None, None, f"unreadable ({exc.strerror or exc})"
    if not stat.S_ISREG(st.st_mode):
        return None, None, "not a regular file"
    if st.st_size > MAX_TRACKED_BYTES:
        return None, stat.S_IMODE(st.st_mode), f"larger than {MAX_TRACKED_BYTES // 2**20} MiB"
    try:
        with open(path, "rb") as handle:
            return handle.read(), stat.S_IMODE(st.st_mode), ""
    except OSError as exc:
        return None, None, f"unreadable ({exc.strerror or exc})"


def _current_hash(path: str) -> str | None:
    data, _, _ = _read_state(path)
    return content_hash(data) if data is not None else None


def _line_changes(current: bytes | None, target: bytes | None) -> tuple[int, int]:
    """(lines added back, lines removed) going from `current` to `target`, by trimming the
    common leading and trailing lines: exact for one edited region, an upper bound otherwise."""
    old = (current or b"").splitlines()
    new = (target or b"").splitlines()
    start = 0
    while start < len(old) and start < len(new) and old[start] == new[start]:
        start += 1
    end = 0
    while (end < len(old) - start and end < len(new) - start
           and old[len(old) - 1 - end] == new[len(new) - 1 - end]):
        end += 1
    return len(new) - start - end, len(old) - start - end


class Checkpoints:
    """The checkpoint store of one session; thread-safe (file tools write from threads)."""

    enabled = True

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.blobs = BlobStore(folder / "blobs.pack")
        self.journal = RestoreJournal(folder)
        self._lock = threading.RLock()
        self._prompts: list[PromptCheckpoint] = []
        self._by_key: dict[str, PromptCheckpoint] = {}
        self._last_written: dict[str, str | None] = {}  # what the harness left each file as
        self._latest_blob: dict[str, str] = {}  # newest stored version per file: delta base
        self._unsettled: set[str] = set()  # changed just now: state after not looked at yet
        self._after_unwritten: set[str] = set()  # state after known, its "a" record not written
        self._file_numbers: dict[str, int] = {}  # the index names files by number
        self._file_paths: dict[int, str] = {}
        self._index_fh: Any = None
        self._index_unsynced = False  # records appended with sync=False since the last fsync

    @classmethod
    def open(cls, folder: Path) -> Checkpoints:
        """The store in `folder`: an interrupted restore is finished (or undone) first."""
        store = cls(folder)
        store.journal.recover()
        store._load()
        return store

    # ── recording ──────────────────────────────────────────────────────────────────────────

    def begin_prompt(self, prompt_id: str, *, message_uuid: str | None = None,
                     text: str = "", created: float | None = None) -> PromptCheckpoint:
        """Start grouping changes under a new user prompt (call before its changes begin);
        `created`: when it was sent, if not now."""
        with self._lock:
            self._settle_locked()
            prompt = PromptCheckpoint(prompt_id, message_uuid, text[:PROMPT_TEXT_CHARS],
                                      created if created is not None else time.time())
            self._add_prompt(prompt)
            self._append(["p", prompt_id, message_uuid, prompt.text, round(prompt.created, 3)],
                         sync=False)
            return prompt

    def before_change(self, path: str | os.PathLike[str]) -> None:
        """Keep `path`'s current content (or that it does not exist) before a tool changes it."""
        self.before_changes([path])

    def before_changes(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        """The same for several files one tool call is about to change together (a Bash
        command's redirects): earlier changes are settled first, these ones after."""
        with self._lock:
            self._settle_locked()
            prompt = self._prompts[-1] if self._prompts else self._implicit_prompt()
            for path in dict.fromkeys(os.path.realpath(p) for p in paths):
                self._record_before(prompt, path)

    def _record_before(self, prompt: PromptCheckpoint, real: str) -> None:
        data, mode, skipped = _read_state(real)
        digest = None
        if data is not None:
            digest = self.blobs.put(data, self._latest_blob.get(real))
            self._latest_blob[real] = digest
        prompt.edits += 1
        if real not in prompt.changes:
            prompt.changes[real] = FileChange(real, digest, mode, skipped)
        if real in self._after_unwritten:
            self._after_unwritten.discard(real)
            if self._last_written.get(real) != digest:  # someone else changed it in between
                self._append(["a", self._number(real), self._last_written.get(real)],
                             sync=False)
        record: list[Any] = ["b", self._number(real), digest]
        if skipped or (mode is not None and mode != DEFAULT_MODE):
            record += [mode, skipped or None]
        self._append(record)
        self._unsettled.add(real)

    def settle(self) -> None:
        """Record the state of every file changed since the last call (turn end, tool batch)."""
        with self._lock:
            self._settle_locked()

    def _settle_locked(self) -> None:
        for path in self._unsettled:
            self._last_written[path] = _current_hash(path)
        self._after_unwritten |= self._unsettled
        self._unsettled.clear()

    def _write_after_records_locked(self) -> None:
        self._settle_locked()
        for path in sorted(self._after_unwritten):
            self._append(["a", self._number(path), self._last_written.get(path)])
        self._after_unwritten.clear()

    def _implicit_prompt(self) -> PromptCheckpoint:
        prompt_id = f"auto-{len(self._prompts) + 1}"
        prompt = PromptCheckpoint(prompt_id, None, "(changes before the first prompt)", time.time())
        self._add_prompt(prompt)
        self._append(["p", prompt_id, None, prompt.text, round(prompt.created, 3)], sync=False)
        return prompt

    def _add_prompt(self, prompt: PromptCheckpoint) -> None:
        self._prompts.append(prompt)
        self._by_key[prompt.prompt_id] = prompt
        if prompt.message_uuid:
            self._by_key[prompt.message_uuid] = prompt

    # ── reading ────────────────────────────────────────────────────────────────────────────

    def prompts(self) -> list[PromptCheckpoint]:
        """Every prompt, newest first (the rewind picker's rows)."""
        with self._lock:
            return list(reversed(self._prompts))

    def find(self, key: str) -> PromptCheckpoint | None:
        """A prompt by its id or its user message's uuid (the SDK's `user_message_id`)."""
        with self._lock:
            return self._by_key.get(key)

    def plan_restore(self, key: str) -> RestorePlan:
        """What rewinding to before prompt `key` would do, file by file (nothing is changed)."""
        with self._lock:
            self._settle_locked()
            start = self._start_index(key)
            files = [self._plan_file(change) for change in self._targets(start).values()]
            return RestorePlan(self._prompts[start].prompt_id, tuple(files))

    def _start_index(self, key: str) -> int:
        prompt = self._by_key.get(key)
        if prompt is None:
            raise CheckpointError(f"No checkpoint for prompt {key!r}.")
        if prompt.rewound:
            raise CheckpointError("That prompt was already rewound; pick a later one.")
        return self._prompts.index(prompt)

    def _targets(self, start: int) -> dict[str, FileChange]:
        """Per file, its first change from prompt `start` on: its state before that prompt."""
        targets: dict[str, FileChange] = {}
        for prompt in self._prompts[start:]:
            for path, change in prompt.changes.items():
                targets.setdefault(path, change)
        return targets

    def _plan_file(self, change: FileChange) -> FilePlan:
        if change.skipped:
            return FilePlan(change.path, "unchanged", skipped=change.skipped)
        current, _, unreadable = _read_state(change.path)
        current_hash = content_hash(current) if current is not None else None
        conflict = bool(unreadable) or (
            change.path in self._last_written and self._last_written[change.path] != current_hash)
        if current_hash == change.before and not unreadable:
            return FilePlan(change.path, "unchanged", conflict)
        action: Action = "delete" if change.before is None else "write"
        target = self.blobs.get(change.before) if change.before is not None else None
        added, removed = _line_changes(current, target)
        return FilePlan(change.path, action, conflict, added, removed)

    # ── rewinding ──────────────────────────────────────────────────────────────────────────

    def restore(self, key: str, *, force: bool = False,
                progress: Progress | None = None) -> RestoreResult:
        """Rewind the files to their state before prompt `key`.

        Conflicting files (changed outside the harness) are left as they are unless `force`;
        an overwritten file's content is kept as a blob first. All-or-nothing across a crash.
        """
        with self._lock:
            plan = self.plan_restore(key)
            targets = self._targets(self._start_index(key))
            ops: list[FileOp] = []
            conflicts: list[str] = []
            applied: list[FilePlan] = []
            for item in plan.changes:
                if item.conflict and not force:
                    conflicts.append(item.path)
                    continue
                change = targets[item.path]
                content = self.blobs.get(change.before) if change.before is not None else None
                ops.append(FileOp(item.path, content, change.mode))
                applied.append(item)
            saved = self._save_current([op.path for op in ops])
            self.journal.apply(ops, progress)
            after = {op.path: (content_hash(op.content) if op.content is not None else None)
                     for op in ops}
            self._write_after_records_locked()
            self._last_written.update(after)
            self._mark_rewound(plan.prompt_id)
            self._append(["r", plan.prompt_id, {self._number(p): h for p, h in after.items()},
                          {self._number(p): h for p, h in saved.items()}])
            return RestoreResult(
                plan.prompt_id,
                written=tuple(f.path for f in applied if f.action == "write"),
                deleted=tuple(f.path for f in applied if f.action == "delete"),
                conflicts=tuple(conflicts),
                skipped=tuple(f.path for f in plan.files if f.skipped),
                insertions=sum(f.insertions for f in applied),
                deletions=sum(f.deletions for f in applied),
                saved=saved,
            )

    def mark_rewound(self, key: str) -> str:
        """The conversation went back to before prompt `key` with the code left as it is: that
        prompt and the later ones leave the picker (their changes stay restorable from an
        earlier prompt). Returns the prompt's id."""
        with self._lock:
            prompt_id = self._prompts[self._start_index(key)].prompt_id
            self._mark_rewound(prompt_id)
            self._append(["r", prompt_id, {}, {}])
            return prompt_id

    def _save_current(self, paths: list[str]) -> dict[str, str]:
        """Keep what a restore is about to overwrite (one batch, one fsync): nothing is lost,
        even a forced overwrite of the person's own change."""
        current = [(path, _read_state(path)[0]) for path in paths]
        kept = [(path, data) for path, data in current if data is not None]
        try:
            digests = self.blobs.put_many([(data, self._latest_blob.get(path))
                                           for path, data in kept])
        except (OSError, BlobError):
            return {}
        return {path: digest for (path, _), digest in zip(kept, digests, strict=True)}

    def _mark_rewound(self, prompt_id: str) -> None:
        start = self._prompts.index(self._by_key[prompt_id])
        for prompt in self._prompts[start:]:
            prompt.rewound = True

    # ── the index file ─────────────────────────────────────────────────────────────────────

    def _append(self, record: list[Any], *, sync: bool = True) -> None:
        """Append one record; `sync=False` for a record another one always follows before a
        file changes (a prompt, a file's number, a state after): the follower's fsync makes
        both durable (one fsync per file change instead of three), and a crash before it loses
        only records nothing depended on yet. Written to the file at once either way."""
        if self._index_fh is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._index_fh = open(self.folder / INDEX, "a", encoding="utf-8")  # noqa: SIM115
        self._index_fh.write(json.dumps(record, separators=(",", ":")) + "\n")
        self._index_fh.flush()
        self._index_unsynced = not sync
        if sync:
            os.fsync(self._index_fh.fileno())

    def close(self) -> None:
        with self._lock:
            self._write_after_records_locked()
            if self._index_fh is not None:
                if self._index_unsynced:
                    os.fsync(self._index_fh.fileno())
                self._index_fh.close()
                self._index_fh = None

    def _load(self) -> None:
        for record in _records(self.folder / INDEX):
            try:
                self._replay(record)
            except (KeyError, ValueError, TypeError, IndexError):
                continue  # a record we cannot read names nothing we could restore

    def _number(self, path: str) -> int:
        number = self._file_numbers.get(path)
        if number is None:
            number = len(self._file_numbers) + 1
            self._file_numbers[path], self._file_paths[number] = number, path
            self._append(["f", number, path], sync=False)
        return number

    def _replay(self, record: list[Any]) -> None:
        kind, *fields = record
        if kind == "p":
            self._add_prompt(PromptCheckpoint(str(fields[0]), fields[1], str(fields[2] or ""),
                                              float(fields[3] or 0)))
        elif kind == "f":
            number, path = int(fields[0]), str(fields[1])
            self._file_numbers[path], self._file_paths[number] = number, path
        elif kind == "b" and self._prompts:
            path, digest = self._file_paths[int(fields[0])], fields[1]
            mode, skipped = (fields[2], fields[3] or "") if len(fields) > 2 else (DEFAULT_MODE, "")
            if path in self._unsettled:  # no "a" since its last change: this "b" implies it
                self._last_written[path] = digest
            prompt = self._prompts[-1]
            prompt.edits += 1
            prompt.changes.setdefault(path, FileChange(path, digest, mode, skipped))
            if digest:
                self._latest_blob[path] = digest
            self._unsettled.add(path)
        elif kind == "a":
            path = self._file_paths[int(fields[0])]
            self._last_written[path] = fields[1]
            self._unsettled.discard(path)
        elif kind == "r" and str(fields[0]) in self._by_key:
            for number, digest in fields[1].items():
                path = self._file_paths[int(number)]
                self._last_written[path] = digest
                self._unsettled.discard(path)
            self._mark_rewound(str(fields[0]))


def _records(path: Path) -> Iterable[list[Any]]:
    """Every well-formed record; a line cut by a crash is skipped."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, list) and record:
            yield record
