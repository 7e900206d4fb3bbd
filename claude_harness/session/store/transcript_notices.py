"""What the user is told about the transcript: it cannot be written (once per episode, the
session goes on in memory), it is written again, or another live process shares it.

The transcript calls back from inside a write (`on_failure`, `on_recovered`); these turn that
into events every front end shows: a Notice for the screen, a TranscriptStatus for the view
(`-p` reports the first failure in its result).
"""

from __future__ import annotations

from claude_harness.protocol.events import Notice, SessionEvent, TranscriptStatus
from claude_harness.session.store.transcript import Transcript, TranscriptFailure

RECOVERED = ("The session transcript is being written again: nothing kept in memory "
             "meanwhile was lost.")


def failed(failure: TranscriptFailure) -> list[SessionEvent]:
    return [Notice(failure.message(), "warning"), TranscriptStatus(failure.message())]


def recovered() -> list[SessionEvent]:
    return [Notice(RECOVERED), TranscriptStatus("")]


def at_start(transcript: Transcript) -> list[SessionEvent]:
    """A transcript that could not even be opened (a full disk at start-up), and a session
    another live process is writing too."""
    events: list[SessionEvent] = []
    if transcript.failure is not None:
        events += failed(transcript.failure)
    if transcript.shared_with_pid is not None:
        events.append(Notice(
            f"Another claude-harness process (pid {transcript.shared_with_pid}) is writing "
            f"this session too. Both go on, each on its own branch of the transcript; resuming "
            "it later takes the branch written last.", "warning"))
    return events
