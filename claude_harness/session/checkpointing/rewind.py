"""The session's checkpoint store and what a rewind does with it.

One store per session, in `<session folder>/checkpoints` (see checkpoints.py). The session calls
`prompt_sent` once a user prompt is in the transcript (so the prompt is known by its message
uuid, the SDK's `user_message_id`), `settle` after each tool batch and `close` at exit; tools call
`before_change` through `ctx.checkpoints`.

Cheap until needed: a session that never changes a file never loads the store. Prompts are kept
in memory and written to the index in one go when the store first opens (a file is about to
change, the picker asks, or the session ends), so a turn that edits nothing pays no fsync.

A conversation restore forks the transcript (session/store/fork.py) into a new session; that session's
folder gets a `checkpoints` link to this store, so resuming either branch later finds the same
file history (it is one set of files on disk, whatever the branch).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from claude_harness.protocol.context import NO_CHECKPOINTS, FileCheckpointer
from claude_harness.protocol.events import RewindPlanned, RewindPoint, RewindPoints

if TYPE_CHECKING:
    from claude_harness.session.checkpointing.checkpoints import (
        Checkpoints,
        PromptCheckpoint,
        RestoreResult,
    )

FOLDER = "checkpoints"
PendingPrompt = tuple[str, str | None, str, float]  # id, message uuid, text, time sent


class RewindUnavailable(Exception):
    """There is no such prompt to go back to (unknown, or already rewound)."""


def _point(prompt: PromptCheckpoint) -> RewindPoint:
    return RewindPoint(prompt.prompt_id, prompt.message_uuid, prompt.text, prompt.created,
                       tuple(prompt.files), prompt.rewound)


class SessionCheckpoints:
    """The store (None when the session keeps no transcript: nothing to rewind to), and the
    FileCheckpointer tools call. Checkpoints are a safety net, never a reason for a turn or an
    edit to fail: when the disk refuses them (full, read-only), they switch off for the rest
    of the session and `on_failure` says so once."""

    def __init__(self, session_dir: Path | None,
                 on_failure: Callable[[str], None] | None = None) -> None:
        self.folder = session_dir / FOLDER if session_dir is not None else None
        self.on_failure = on_failure
        self.failure = ""
        self._store: Checkpoints | None = None
        self._pending: list[PendingPrompt] = []
        self._count = 0
        self.snapshots = True  # `fileCheckpointingEnabled: false`: prompts only, no file copies

    @property
    def enabled(self) -> bool:
        return self.folder is not None and not self.failure

    @property
    def store(self) -> Checkpoints | None:
        """Opened on first use, with the prompts sent so far written to it."""
        if not self.enabled:
            return None
        if self._store is None:
            self._guard(self._open)
        if self._store is not None and self._pending:
            pending, self._pending = self._pending, []
            store = self._store
            for prompt_id, uuid, text, sent in pending:
                self._guard(lambda p=prompt_id, u=uuid, t=text, c=sent: store.begin_prompt(
                    p, message_uuid=u, text=t, created=c))
        return self._store if self.enabled else None

    def _open(self) -> None:
        from claude_harness.session.checkpointing.checkpoints import (
            Checkpoints,  # the first file change
        )

        assert self.folder is not None
        self._store = Checkpoints.open(self.folder)

    @property
    def service(self) -> FileCheckpointer:
        """What tools get as `ctx.checkpoints`."""
        return self if self.folder is not None else NO_CHECKPOINTS

    def _guard(self, action: Callable[[], object]) -> None:
        try:
            action()
        except OSError as exc:
            self.failure = f"{exc.strerror or exc}"
            if self.on_failure is not None:
                self.on_failure(f"File checkpoints are off for this session (the disk refused "
                                f"them: {self.failure}); /rewind cannot restore files changed "
                                "from now on.")

    def before_change(self, path: str | os.PathLike[str]) -> None:
        self.before_changes([path])

    def before_changes(self, paths: Iterable[str | os.PathLike[str]]) -> None:
        if not self.snapshots:
            return
        store = self.store
        if store is not None:
            self._guard(lambda: store.before_changes(paths))

    def prompt_sent(self, message_uuid: str | None, text: str) -> None:
        if not self.enabled:
            return
        self._count += 1
        prompt_id = message_uuid or f"prompt-{os.getpid()}-{self._count}"
        self._pending.append((prompt_id, message_uuid, text, time.time()))

    def settle(self) -> None:
        if self._store is not None and self.enabled:
            self._guard(self._store.settle)

    def close(self) -> None:
        store = self.store if self._pending else self._store  # unwritten prompts go down now
        if store is not None:
            try:
                store.close()
            except OSError:
                pass  # at exit: the index lines written so far stay readable

    # ── the rewind ops ──────────────────────────────────────────────────────────────────────

    def points(self) -> RewindPoints:
        store = self.store
        prompts = store.prompts() if store is not None else []
        return RewindPoints(tuple(_point(p) for p in prompts if not p.rewound))

    def plan(self, key: str) -> RewindPlanned:
        from claude_harness.session.checkpointing.checkpoints import (
            CheckpointError,  # a rewind is under way
        )

        store = self.store
        if store is None:
            return RewindPlanned(key, None, "This session keeps no checkpoints.")
        try:
            return RewindPlanned(key, store.plan_restore(key))
        except CheckpointError as exc:
            return RewindPlanned(key, None, str(exc))

    def find(self, key: str) -> PromptCheckpoint:
        store = self.store
        prompt = store.find(key) if store is not None else None
        if prompt is None or prompt.rewound:
            raise RewindUnavailable(f"No prompt {key!r} to rewind to.")
        return prompt

    async def restore_code(self, key: str, *, force: bool,
                           progress: Callable[[str, int, int], None] | None) -> RestoreResult:
        """Write the files back in a worker thread (a thousand files must not freeze a UI).
        Raises CheckpointError or OSError; the journal then left every file as it was."""
        store = self.store
        assert store is not None
        return await asyncio.to_thread(store.restore, key, force=force, progress=progress)

    def forget_from(self, key: str) -> None:
        """The conversation went back (the code stayed): drop that prompt and later ones."""
        store = self.store
        if store is not None:
            self._guard(lambda: store.mark_rewound(key))

    def link_into(self, session_dir: Path) -> None:
        """Let a forked session (in `session_dir`) find this store when it is resumed."""
        if self.folder is None:
            return
        target = session_dir / FOLDER
        if target.exists() or target.is_symlink():
            return
        try:
            session_dir.mkdir(parents=True, exist_ok=True)
            target.symlink_to(self.folder.resolve(), target_is_directory=True)
        except OSError:
            pass  # the fork still works; only its later resume lacks the file history
