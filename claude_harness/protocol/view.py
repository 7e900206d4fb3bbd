"""SessionView: what a front end knows about its session, folded from events.

Front ends never read session attributes: each keeps one SessionView, feeds it every event
(`view.apply(event)`), and draws its status line, `/status`, `/cost` and `/export` from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from claude_harness.protocol.events import (
    AssistantMessage,
    Busy,
    Compaction,
    DenialRecorded,
    DirectoriesChanged,
    HistoryReplaced,
    McpPromptInfo,
    McpPromptsChanged,
    McpResourceInfo,
    McpResourcesChanged,
    ModeChanged,
    ModelChanged,
    OpDone,
    OutputStyleChanged,
    QueueChanged,
    RequestControlsChanged,
    RulesChanged,
    SessionRenamed,
    SessionStarted,
    SideQuestionsPending,
    StatusLineChanged,
    TodosChanged,
    TotalsChanged,
    TranscriptStatus,
    UserMessage,
)


@dataclass
class SessionView:
    started: SessionStarted | None = None
    model: str = ""
    mode: str = "default"
    busy: bool = False
    totals: TotalsChanged = field(default_factory=TotalsChanged)
    queued: tuple[str, ...] = ()
    todos: tuple[dict[str, Any], ...] = ()
    rules: tuple[tuple[str, str, str], ...] = ()
    denials: list[DenialRecorded] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)  # the main conversation
    session_id: str = ""
    transcript_problem: str = ""  # the first time the transcript could not be written
    transcript_written: bool = True  # everything is on disk now
    status_line: str = ""  # the status line command's first line (ANSI kept)
    output_style: str = "default"
    title: str = ""  # /rename
    controls: RequestControlsChanged | None = None  # effort and thinking, once known
    mcp_prompts: tuple[McpPromptInfo, ...] = ()  # offered as /mcp__server__prompt commands
    mcp_resources: tuple[McpResourceInfo, ...] = ()  # offered by `@` as @server:uri
    directories: tuple[str, ...] = ()  # working directories beyond the cwd
    side_questions: int = 0  # /btw answers still on their way

    @property
    def ready(self) -> bool:
        return self.started is not None

    def apply(self, event: Any) -> None:
        """Fold one event in (events this view does not track are ignored)."""
        match event:
            case SessionStarted():
                self.started = event
                self.model, self.mode, self.session_id = event.model, event.mode, event.session_id
                self.messages = list(event.history)
                self.output_style = event.output_style
            case UserMessage(message=message) | AssistantMessage(message=message):
                if not message.get("isSidechain"):
                    self.messages.append(message)
            case Compaction(messages=messages):
                self.messages = list(messages)
            case HistoryReplaced(messages=messages, session_id=session_id):
                self.messages = list(messages)
                self.todos = ()
                if session_id:
                    self.session_id = session_id
            case ModeChanged(mode=mode):
                self.mode = mode
            case ModelChanged(model=model):
                self.model = model
            case TotalsChanged():
                self.totals = event
            case Busy(running=running):
                self.busy = running
            case QueueChanged(pending=pending):
                self.queued = pending
            case TodosChanged(todos=todos, agent_id=None):
                self.todos = todos
            case RulesChanged(rules=rules):
                self.rules = rules
            case DenialRecorded():
                self.denials.append(event)
            case TranscriptStatus(problem=problem):
                self.transcript_problem = self.transcript_problem or problem
                self.transcript_written = not problem
            case StatusLineChanged(text=text):
                self.status_line = text
            case OutputStyleChanged(name=name):
                self.output_style = name
            case SessionRenamed(title=title):
                self.title = title
            case RequestControlsChanged():
                self.controls = event
            case McpPromptsChanged(prompts=prompts):
                self.mcp_prompts = prompts
            case McpResourcesChanged(resources=resources):
                self.mcp_resources = resources
            case DirectoriesChanged(directories=directories):
                self.directories = directories
            case SideQuestionsPending(count=count):
                self.side_questions = count


@dataclass
class OpFollower:
    """Whether what the op numbered `op_id` started has ended, for a line-mode front end that
    waits on it: the op's `OpDone`, unless it started a job (a turn, a compaction, a `!cmd`);
    then the `Busy(False)` that ends the job."""

    op_id: int
    job_started: bool = False

    def ended_by(self, event: Any) -> bool:
        if isinstance(event, Busy):
            self.job_started = self.job_started or event.running
            return not event.running
        return isinstance(event, OpDone) and event.op_id == self.op_id and not self.job_started
