"""One JSONL transcript per session: each message appended as it happens, never a broken line.

Layout: <root>/projects/<folder key>/<session id>.jsonl, where <root> is Claude Code's config
folder (config/paths.py `transcripts_root`: one history for both programs, each resumes the
other's sessions) and the folder key is Claude Code's: the real path of the folder with every
character that is not an ASCII letter or digit as '-' (counted in UTF-16 units, as JavaScript
does), cut at 200 with a hash of the path after it when longer. Transcripts written before, under
<data dir>/projects/, are still found, and move to the new root when resumed (`adopt_legacy`).
One JSON object per line: {"type": "user"|"assistant"|"system", "uuid", "parentUuid",
"sessionId", "timestamp", "cwd", "message": {...}} (system lines carry "subtype" instead of a
message, e.g. a compaction boundary). Every entry names its parent, so the conversation is the
chain of parents ending at the latest entry (see `resume.py`), whatever else the file holds.

Faults the writer survives (the session always goes on in memory):
  - a full disk, a quota, a read-only or vanished data directory, a permission change: the line
    is kept in memory, `failure` says what happened (and `on_failure` is called once), and the
    kept lines are written, in order, at the next append or turn end once the disk takes them;
  - a partial write (the disk filled in the middle of a line): the file is cut back to where the
    line began, so no half line is ever left behind; should even that fail, the next line starts
    on a fresh line, and readers skip the broken one;
  - a crash mid-line in an earlier run: the broken tail is cut off when the file is reopened.
Each line is one `write()` on an O_APPEND descriptor: whole lines, in order, even with two
writers. Lines are fsynced at turn end (`sync`), not one by one.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
import time
import uuid
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claude_harness.config.paths import transcripts_root
from claude_harness.session.store.lock import SessionLock, lock_holder
from claude_harness.session.store.resume import (
    ResumedSession,
    latest_uuid,
    load_session,
    read_entries,
)

__all__ = [
    "ResumedSession",
    "Transcript",
    "TranscriptFailure",
    "find_session",
    "history_roots",
    "is_live",
    "live_mark",
    "latest_session",
    "list_sessions",
    "load_messages",
    "load_session",
    "read_entries",
    "sessions_dir",
]

RETRY_INTERVAL_SECONDS = 2.0  # between retries while appending; turn ends always retry
_TAIL_PROBE_BYTES = 65_536


KEY_MAX_UNITS = 200  # Claude Code cuts longer folder keys here and adds a hash
_BASE36 = "0123456789abcdefghijklmnopqrstuvwxyz"
Roots = Path | Sequence[Path]


def project_dir_name(cwd: Path) -> str:
    """Claude Code's folder key for `cwd` (verified against 2.1.332's own folders)."""
    units = _utf16_units(str(cwd))
    key = "".join(chr(u) if u < 128 and chr(u).isalnum() else "-" for u in units)
    if len(key) <= KEY_MAX_UNITS:
        return key
    return f"{key[:KEY_MAX_UNITS]}-{_base36(abs(_string_hash(units)))}"


def _utf16_units(text: str) -> list[int]:
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i:i + 2], "little") for i in range(0, len(data), 2)]


def _string_hash(units: list[int]) -> int:
    """The 32-bit `h = h * 31 + unit` hash JavaScript code commonly uses for strings."""
    value = 0
    for unit in units:
        value = (value * 31 + unit) & 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, rest = divmod(number, 36)
        digits = _BASE36[rest] + digits
        if number == 0:
            return digits


def _legacy_dir_name(cwd: Path) -> str:
    """The key this program used before (code points, never cut)."""
    return re.sub(r"[^A-Za-z0-9]", "-", str(cwd))


def sessions_dir(root: Path, cwd: Path) -> Path:
    """Where a new transcript of `cwd` is written under `root`."""
    return root / "projects" / project_dir_name(cwd)


def history_roots(data_dir: Path) -> list[Path]:
    """Every root whose transcripts this program resumes, the one written now first: Claude
    Code's (or CLAUDE_HARNESS_TRANSCRIPTS_DIR), then our data dir (transcripts written before
    the history was shared)."""
    return _unique([transcripts_root(), data_dir])


def session_folders(roots: Roots, cwd: Path) -> list[Path]:
    """The folders that may hold this folder's transcripts, in the order they are preferred."""
    return _unique([root / "projects" / name for root in _as_list(roots)
                    for name in (project_dir_name(cwd), _legacy_dir_name(cwd))])


def _as_list(roots: Roots) -> list[Path]:
    return [Path(roots)] if isinstance(roots, (str, Path)) else [Path(r) for r in roots]


def _unique(paths: list[Path]) -> list[Path]:
    return list(dict.fromkeys(paths))


@dataclass(frozen=True)
class TranscriptFailure:
    """Why the transcript is not on disk right now."""

    path: Path
    errno: int
    reason: str  # the system's words: "No space left on device"
    pending_lines: int  # entries kept in memory, waiting to be written

    def message(self) -> str:
        return (
            f"Could not write the session transcript {self.path}: {self.reason}. The session "
            f"goes on in memory; {self.pending_lines} entr{'y' if self.pending_lines == 1 else 'ies'} "
            "will be written when the disk accepts them again."
        )


@dataclass
class Transcript:
    path: Path
    session_id: str
    cwd: Path
    last_uuid: str | None = None
    on_failure: Callable[[TranscriptFailure], None] | None = field(default=None, repr=False)
    on_recovered: Callable[[], None] | None = field(default=None, repr=False)
    shared_with_pid: int | None = None  # another live process holds this session's lock
    first_failure: TranscriptFailure | None = field(default=None, repr=False)
    _fd: int | None = field(default=None, repr=False)
    _pending: deque[bytes] = field(default_factory=deque, repr=False)
    _error: OSError | None = field(default=None, repr=False)
    _next_retry: float = field(default=0.0, repr=False)
    _needs_newline: bool = field(default=False, repr=False)
    _lock: SessionLock | None = field(default=None, repr=False)
    _tip_known: bool = field(default=False, repr=False)  # last_uuid is the file's latest entry

    @classmethod
    def create(cls, root: Path, cwd: Path, session_id: str | None = None, *,
               also: Sequence[Path] = ()) -> Transcript:
        """The transcript of a new or resumed session, under `root` (a resumed session whose
        file is under one of the roots `also` is continued there). Never raises: a disk that
        refuses the folder, the lock or the file leaves the transcript in memory with
        `failure` set."""
        sid = session_id or str(uuid.uuid4())
        existing = find_session([root, *also], cwd, sid, anywhere=False) if session_id else None
        path = existing or sessions_dir(root, cwd) / f"{sid}.jsonl"
        transcript = cls(path, sid, cwd)
        try:
            transcript.path.parent.mkdir(parents=True, exist_ok=True)
            transcript._take_lock()
            transcript._find_tip()
        except OSError as exc:
            transcript._fail(exc)
        return transcript

    # -- state the front ends show ---------------------------------------------------------

    @property
    def failure(self) -> TranscriptFailure | None:
        """What keeps the transcript off the disk now; None while everything is written."""
        if self._error is None:
            return None
        return TranscriptFailure(
            self.path, self._error.errno or errno.EIO,
            self._error.strerror or str(self._error), len(self._pending),
        )

    # -- appending -------------------------------------------------------------------------

    def append_message(self, message: dict[str, Any]) -> None:
        self._append(message["role"], cwd=str(self.cwd), message=message)

    def append_system(self, subtype: str, **data: Any) -> None:
        self._append("system", subtype=subtype, **data)

    def _append(self, kind: str, **fields: Any) -> None:
        """One entry, chained to the previous one by parentUuid."""
        if not self._tip_known:
            self._find_tip()
        entry_uuid = str(uuid.uuid4())
        entry = {
            "type": kind,
            "uuid": entry_uuid,
            "parentUuid": self.last_uuid,
            "sessionId": self.session_id,
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + "Z",
            **fields,
        }
        self.last_uuid = entry_uuid
        line = (json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n").encode(
            "utf-8", "surrogatepass"
        )
        self._pending.append(line)
        if self._error is None or time.monotonic() >= self._next_retry:
            self._flush_pending()

    def append_metadata(self, kind: str, **fields: Any) -> None:
        """A line beside the conversation (a /rename title): no uuid, so the chain of messages
        never passes through it and resume ignores it."""
        entry = {"type": kind, **fields, "sessionId": self.session_id}
        line = (json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n").encode(
            "utf-8", "surrogatepass")
        self._pending.append(line)
        if self._error is None or time.monotonic() >= self._next_retry:
            self._flush_pending()

    def sync(self) -> None:
        """Write what is pending and fsync (turn end, exit, signals); never raises."""
        self._flush_pending()
        if self._fd is not None and self._error is None:
            try:
                os.fsync(self._fd)
            except OSError as exc:  # NFS and some FUSE file systems report ENOSPC here
                self._fail(exc)

    def close(self) -> None:
        self.sync()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    # -- the disk --------------------------------------------------------------------------

    def _flush_pending(self) -> None:
        """Write the kept lines in order, one write() each; stop at the first refusal."""
        while self._pending:
            try:
                self._write_line(self._pending[0])
            except OSError as exc:
                self._fail(exc)
                return
            self._pending.popleft()
        if self._error is not None:
            self._recover()

    def _write_line(self, line: bytes) -> None:
        fd = self._open()
        data = b"\n" + line if self._needs_newline else line
        written = os.write(fd, data)
        if written == len(data):
            self._needs_newline = False
            return
        self._cut_back(fd, written)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def _cut_back(self, fd: int, written: int) -> None:
        """Remove the `written` bytes of a line the disk took only in part."""
        try:
            os.ftruncate(fd, os.fstat(fd).st_size - written)
        except OSError:
            self._needs_newline = True  # readers skip the broken line; ours starts afresh

    def _open(self) -> int:
        if self._fd is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            if self._lock is None and self.shared_with_pid is None:
                self._take_lock()
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o600)
            try:
                self._repair_tail(fd)
            except OSError:
                os.close(fd)
                raise
            self._fd = fd
        return self._fd

    def _repair_tail(self, fd: int) -> None:
        """A crash may have cut the last line: drop the fragment (or end a whole line that only
        lacks its newline), so our first line starts on a line of its own."""
        size = os.fstat(fd).st_size
        if size == 0:
            return
        start = max(0, size - _TAIL_PROBE_BYTES)
        with open(self.path, "rb") as reader:
            reader.seek(start)
            tail = reader.read()
        if tail.endswith(b"\n"):
            return
        cut = tail.rfind(b"\n")
        fragment = tail[cut + 1 :]
        if self._lock is None or _is_json_object(fragment) or (cut < 0 and start > 0):
            self._needs_newline = True  # not ours to cut, or too long to judge: leave it
            return
        os.ftruncate(fd, start + cut + 1)

    def _find_tip(self) -> None:
        """Continue the chain from the file's latest entry (a resumed session's history ends
        there), unless the caller already said where it ends."""
        self._tip_known = True
        if self.last_uuid is None:
            try:
                self.last_uuid = latest_uuid(self.path)
            except FileNotFoundError:
                pass
            except OSError:
                self._tip_known = False  # unreadable now: try again at the next append

    def _take_lock(self) -> None:
        result = SessionLock.acquire(self.path)
        if isinstance(result, SessionLock):
            self._lock = result
        else:
            self.shared_with_pid = result

    def _fail(self, exc: OSError) -> None:
        first = self._error is None
        self._error = exc
        self._next_retry = time.monotonic() + RETRY_INTERVAL_SECONDS
        if self._fd is not None and exc.errno in (errno.EBADF, errno.ESTALE):
            self._fd = None  # the file is gone from under us: reopen on the next try
        failure = self.failure
        assert failure is not None
        if self.first_failure is None:
            self.first_failure = failure
        if first and self.on_failure is not None:
            self.on_failure(failure)

    def _recover(self) -> None:
        self._error = None
        if self.on_recovered is not None:
            self.on_recovered()


def _is_json_object(data: bytes) -> bool:
    try:
        return isinstance(json.loads(data), dict)
    except ValueError:
        return False


def load_messages(path: Path) -> list[dict[str, Any]]:
    """The resumable history of a session (see `load_session` for its warnings)."""
    return load_session(path).messages


def find_session(roots: Roots, cwd: Path, session_id: str, *,
                 anywhere: bool = True) -> Path | None:
    """The transcript of `session_id`: this folder's first, then (`anywhere`) any folder's."""
    if not session_id or "/" in session_id or session_id.startswith("."):
        return None
    for folder in session_folders(roots, cwd):
        if (candidate := folder / f"{session_id}.jsonl").is_file():
            return candidate
    if anywhere:
        for root in _as_list(roots):
            for path in (root / "projects").glob(f"*/{session_id}.jsonl"):
                return path
    return None


def adopt_legacy(path: Path, roots: Roots, cwd: Path) -> Path:
    """A transcript of this folder found under an older root (our data dir) moves, with its
    `<id>/` folder (checkpoints, sub-agents), to the first root when it is resumed, so Claude
    Code finds it too from then on. One another process is writing stays where it is, and so
    does anything the move cannot take (the session then goes on where it was)."""
    first, *older = _as_list(roots)
    if path.parent not in session_folders(older, cwd) or is_live(path):
        return path
    target = sessions_dir(first, cwd) / path.name
    if target.exists():
        return path
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(path, target)
    except OSError:
        return path if path.exists() else target
    beside, beside_target = path.with_suffix(""), target.with_suffix("")
    if beside.is_dir() and not beside_target.exists():
        with contextlib.suppress(OSError):
            shutil.move(beside, beside_target)
    return target


def latest_session(roots: Roots, cwd: Path) -> Path | None:
    """The newest session of this folder that no live process is writing and that holds a
    conversation (what `-c` resumes; Claude Code leaves files with bookkeeping lines only)."""
    for path in list_sessions(roots, cwd):
        if lock_holder(path) is None and _has_conversation(path):
            return path
    return None


def _has_conversation(path: Path) -> bool:
    try:
        return any(e.get("type") in ("user", "assistant") for e in read_entries(path))
    except OSError:
        return False


def list_sessions(roots: Roots, cwd: Path) -> list[Path]:
    """This folder's transcripts in every root (ours and Claude Code's), newest first; a
    session found in two roots is listed once, from the root written now."""
    found: dict[str, tuple[float, Path]] = {}
    for folder in session_folders(roots, cwd):
        for path in folder.glob("*.jsonl") if folder.is_dir() else ():
            try:
                modified = path.stat().st_mtime
            except OSError:
                continue
            found.setdefault(path.stem, (modified, path))
    return [path for _, path in sorted(found.values(), key=lambda f: f[0], reverse=True)]


def is_live(path: Path) -> bool:
    """Whether a live process (this one included) is writing this session now."""
    return lock_holder(path) is not None


LIVE_MARK = "[open in another process]"


def live_mark(path: Path) -> str:
    """What a session list shows after a session another process is writing (resuming it
    writes beside that process: each keeps its own branch)."""
    return f"  {LIVE_MARK}" if is_live(path) else ""
