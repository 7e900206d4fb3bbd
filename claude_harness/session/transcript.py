"""One JSONL transcript per session: each message appended and flushed as it happens.

Layout: <data dir>/projects/<cwd with every non-alphanumeric character as '-'>/<session id>.jsonl,
one JSON object per line: {"type": "user"|"assistant"|"system", "uuid", "parentUuid",
"sessionId", "timestamp", "cwd", "message": {...}} (system lines carry "subtype" instead of a
message, e.g. a compaction boundary). Writes are line-atomic from our side (one write() of a whole
line) and fsynced at turn end; a line cut by a crash is skipped on resume, never fatal.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from claude_harness.agent.messages import tool_result_block, tool_uses


def project_dir_name(cwd: Path) -> str:
    return re.sub(r"[^A-Za-z0-9]", "-", str(cwd))


def sessions_dir(data_dir: Path, cwd: Path) -> Path:
    return data_dir / "projects" / project_dir_name(cwd)


@dataclass
class Transcript:
    path: Path
    session_id: str
    cwd: Path
    last_uuid: str | None = None
    _fh: TextIO | None = field(default=None, repr=False)

    @classmethod
    def create(cls, data_dir: Path, cwd: Path, session_id: str | None = None) -> Transcript:
        sid = session_id or str(uuid.uuid4())
        folder = sessions_dir(data_dir, cwd)
        folder.mkdir(parents=True, exist_ok=True)
        return cls(folder / f"{sid}.jsonl", sid, cwd)

    def _handle(self) -> TextIO:
        if self._fh is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fh = self.path.open("a", encoding="utf-8")
            if self._fh.tell() > 0:
                self._repair_tail()
        return self._fh

    def _repair_tail(self) -> None:
        """A crash may have cut the last line: start ours on a fresh line."""
        with self.path.open("rb") as fh:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                assert self._fh is not None
                self._fh.write("\n")

    def _write(self, entry: dict[str, Any]) -> None:
        fh = self._handle()
        fh.write(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n")
        fh.flush()

    def _append(self, kind: str, **fields: Any) -> None:
        """One entry, chained to the previous one by parentUuid."""
        entry_uuid = str(uuid.uuid4())
        self._write({
            "type": kind,
            "uuid": entry_uuid,
            "parentUuid": self.last_uuid,
            "sessionId": self.session_id,
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) + "Z",
            **fields,
        })
        self.last_uuid = entry_uuid

    def append_message(self, message: dict[str, Any]) -> None:
        self._append(message["role"], cwd=str(self.cwd), message=message)

    def append_system(self, subtype: str, **data: Any) -> None:
        self._append("system", subtype=subtype, **data)

    def sync(self) -> None:
        """Flush to disk for real (turn end, exit, signals)."""
        if self._fh is not None:
            self._fh.flush()
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        if self._fh is not None:
            self.sync()
            self._fh.close()
            self._fh = None


def read_entries(path: Path) -> list[dict[str, Any]]:
    """Every well-formed entry; a broken line (a crash mid-write) is skipped."""
    entries = []
    with path.open("r", encoding="utf-8", errors="replace") as fh:
        for line in fh:
            line = line.strip()
            if not line:
                continue
            try:
                entry = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(entry, dict):
                entries.append(entry)
    return entries


def load_messages(path: Path) -> list[dict[str, Any]]:
    """Rebuild the history of a session (from its last compaction boundary on), repaired so the
    API accepts it: a tool_use left unanswered by a crash gets an interrupted result."""
    messages: list[dict[str, Any]] = []
    for entry in read_entries(path):
        if entry.get("type") == "system" and entry.get("subtype") == "compact_boundary":
            messages = []
            continue
        message = entry.get("message")
        if entry.get("type") in ("user", "assistant") and isinstance(message, dict):
            messages.append(message)
    if messages and (uses := tool_uses(messages[-1])):
        messages.append({"role": "user", "content": [
            tool_result_block(u["id"], "Interrupted: the session ended before this tool finished.",
                              True) for u in uses]})
    return messages


def find_session(data_dir: Path, cwd: Path, session_id: str) -> Path | None:
    candidate = sessions_dir(data_dir, cwd) / f"{session_id}.jsonl"
    if candidate.exists():
        return candidate
    for path in (data_dir / "projects").glob(f"*/{session_id}.jsonl"):
        return path
    return None


def latest_session(data_dir: Path, cwd: Path) -> Path | None:
    sessions = list_sessions(data_dir, cwd)
    return sessions[0] if sessions else None


def list_sessions(data_dir: Path, cwd: Path) -> list[Path]:
    """This folder's transcripts, newest first."""
    folder = sessions_dir(data_dir, cwd)
    if not folder.is_dir():
        return []
    return sorted(folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime, reverse=True)
