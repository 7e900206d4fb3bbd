"""SessionState: what one conversation holds and what its parts change (the prompt's turn, the
conversation jobs, the events a turn applies, a fork). The Session owns one and shows its fields
as its own attributes (`session.messages`, `session.permission`...); the parts it hands work to
get the state itself, not the Session."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from claude_harness.protocol.context import ContentReplacementState, FileStateCache
from claude_harness.session.prompt.prompt_extras import Reminders
from claude_harness.session.services.totals import Totals

if TYPE_CHECKING:
    from claude_harness.api.request_params import RequestSettings
    from claude_harness.protocol.permission_data import PermissionContext
    from claude_harness.session.store.result_journal import ResultJournal
    from claude_harness.session.store.transcript import Transcript

T = TypeVar("T")


@dataclass
class SessionState:
    model: str
    permission: PermissionContext
    request_settings: RequestSettings
    messages: list[dict[str, Any]]
    session_id: str
    transcript: Transcript | None = None
    journal: ResultJournal | None = None  # messages and tool results into the transcript
    totals: Totals = field(default_factory=Totals)
    read_file_state: FileStateCache = field(default_factory=FileStateCache)
    content_replacement: ContentReplacementState = field(default_factory=ContentReplacementState)
    loaded_deferred: frozenset[str] = frozenset()  # deferred tools loaded by ToolSearch
    reminders: Reminders = field(default_factory=Reminders)
    tool_schemas: list[dict[str, Any]] = field(default_factory=list)  # as the request sends them
    shell_output: list[str] = field(default_factory=list)  # `!cmd` output for the next prompt
    session_started: bool = False  # SessionStart hooks ran (startup or resume)
    restart_source: str | None = None  # SessionStart after /clear or a compaction

    @property
    def mode(self) -> str:
        return self.permission.mode

    @property
    def transcript_path(self) -> str:
        return str(self.transcript.path) if self.transcript else ""


class InState(Generic[T]):
    """A Session attribute kept in its SessionState: read and set through the session, so the
    session's parts and its front ends see one value."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, session: Any, owner: type | None = None) -> T:
        if session is None:  # looked up on the class
            return self  # type: ignore[return-value]
        return getattr(session.state, self.name)  # type: ignore[no-any-return]

    def __set__(self, session: Any, value: T) -> None:
        setattr(session.state, self.name, value)
