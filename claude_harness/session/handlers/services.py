"""What op handlers may reach of the session. Each handler module declares the narrow
`Protocol` it needs (built from the small ones here); `OpServices` is the one object that
satisfies them all, forwarding to the session's public parts (its state, job queue, prompt
turn, conversation jobs and turn services), so no handler holds or types the Session."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from claude_harness.protocol.events import AgentEvent, SessionEvent

if TYPE_CHECKING:
    from claude_harness.agent.loop import QueryParams
    from claude_harness.api.client import ApiClient
    from claude_harness.api.request_params import RequestSettings
    from claude_harness.commands.catalog import Catalog
    from claude_harness.config.load_report import LoadReport
    from claude_harness.config.output_styles import StyleCatalog
    from claude_harness.hooks.runner import HookRunner
    from claude_harness.mcp.client import McpManager
    from claude_harness.protocol import ops
    from claude_harness.protocol.context import FileStateCache
    from claude_harness.protocol.permission_data import PermissionContext
    from claude_harness.protocol.tool import Tool
    from claude_harness.session.checkpointing.rewind import SessionCheckpoints
    from claude_harness.session.core import Session
    from claude_harness.session.prompt.prompt_extras import Reminders
    from claude_harness.session.services.agents import BackgroundAgents
    from claude_harness.session.services.hook_callbacks import HookCallbacks
    from claude_harness.session.services.mcp_questions import FrontEndQuestions
    from claude_harness.session.services.mcp_wiring import McpWiring
    from claude_harness.session.services.model_policy import ModelPolicy
    from claude_harness.session.services.prompter import Prompter
    from claude_harness.session.services.questions import SessionQuestions
    from claude_harness.session.services.totals import Totals
    from claude_harness.session.store.transcript import Transcript

Job = Callable[[], Awaitable[None]]


class Emits(Protocol):
    def emit(self, event: SessionEvent) -> None:
        """Send `event` to the front ends (and the session's observers)."""


class StartsJobs(Protocol):
    def start_job(self, job: Job, label: str, what: str = "") -> bool:
        """Run `job` as the session's one job; False (said as a notice) while another runs."""
        ...


class AddsNotes(Protocol):
    def add_note(self, message: dict[str, Any]) -> None:
        """A system message the model reads with the next prompt."""


class OpServices:
    """The session's services for the handlers: forwards, holding no state of its own."""

    def __init__(self, session: Session) -> None:
        self._session = session

    # ── actions ──
    def emit(self, event: SessionEvent) -> None:
        self._session.emit(event)

    def start_job(self, job: Job, label: str, what: str = "") -> bool:
        return self._session.jobs.start(job, label, what)

    def add_note(self, message: dict[str, Any]) -> None:
        self._session.turn_services.add_note(message)

    def prompt(self, op: ops.UserPrompt) -> None:
        self._session.jobs.prompt(op)

    def run_command(self, name: str, args: str) -> None:
        self._session.turn.run_command(name, args)

    def continue_in_fork(self, ending_before: str | None, reason: str) -> str:
        return self._session.turn_services.continue_in_fork(ending_before, reason)

    def params(self) -> QueryParams:
        return self._session.params()

    def apply(self, event: AgentEvent) -> None:
        self._session.apply(event)

    def rules_changed(self) -> None:
        self._session.rules_changed()

    def emit_totals(self) -> None:
        self._session.emit_totals()

    def emit_controls(self) -> None:
        self._session.emit_controls()

    def hook_runner(self) -> HookRunner:
        return self._session.hook_runner()

    def compact(self, instructions: str) -> Awaitable[None]:
        return self._session.conversation_jobs.compact(instructions)

    def clear(self) -> Awaitable[None]:
        return self._session.conversation_jobs.clear()

    def resume(self, session_id: str) -> Awaitable[None]:
        return self._session.conversation_jobs.resume(session_id)

    def shell(self, command: str) -> Awaitable[None]:
        return self._session.conversation_jobs.shell_command(command)

    def compact_threshold(self) -> int | None:
        return self._session.compact_threshold

    def reload_styles(self) -> StyleCatalog:
        return self._session.turn_services.reload_styles()

    # ── state ──
    @property
    def session_config(self) -> Any:
        """The SessionConfig: switches /config changes for the running session."""
        return self._session.config

    @property
    def cwd(self) -> Path:
        return self._session.config.cwd

    @property
    def model(self) -> str:
        return self._session.model

    @model.setter
    def model(self, model: str) -> None:
        self._session.model = model

    @property
    def request_settings(self) -> RequestSettings:
        return self._session.request_settings

    @request_settings.setter
    def request_settings(self, settings: RequestSettings) -> None:
        self._session.request_settings = settings

    @property
    def model_policy(self) -> ModelPolicy | None:
        return self._session.config.model_policy

    @property
    def prompter(self) -> Prompter:
        return self._session.prompter

    @property
    def hook_callbacks(self) -> HookCallbacks:
        return self._session.hook_callbacks

    @property
    def mcp(self) -> McpManager | None:
        return self._session.config.mcp

    @property
    def hooks(self) -> HookRunner | None:
        return self._session.config.hooks

    @property
    def load_report(self) -> LoadReport | None:
        return self._session.config.load_report

    @property
    def tools(self) -> tuple[Tool, ...]:
        return self._session.config.tools

    @property
    def mcp_wiring(self) -> McpWiring | None:
        return self._session.mcp_wiring

    @property
    def elicitations(self) -> FrontEndQuestions:
        return self._session.elicitations

    @property
    def reminders(self) -> Reminders:
        return self._session.reminders

    @property
    def shell_cwd(self) -> Path:
        return self._session.shell.cwd

    @property
    def checkpoints(self) -> SessionCheckpoints:
        return self._session.turn_services.checkpoints

    @property
    def questions(self) -> SessionQuestions:
        return self._session.turn_services.questions

    @property
    def transcript(self) -> Transcript | None:
        return self._session.transcript

    @property
    def read_file_state(self) -> FileStateCache:
        return self._session.read_file_state

    @property
    def background(self) -> BackgroundAgents:
        return self._session.background

    @property
    def styles(self) -> StyleCatalog:
        return self._session.turn_services.styles

    @property
    def output_style(self) -> str:
        return self._session.turn_services.output_style

    @output_style.setter
    def output_style(self, name: str) -> None:
        self._session.turn_services.output_style = name

    @property
    def messages(self) -> list[dict[str, Any]]:
        return self._session.messages

    @property
    def totals(self) -> Totals:
        return self._session.totals

    @property
    def system_prompt(self) -> str:
        return self._session.config.system_prompt

    @property
    def permission(self) -> PermissionContext:
        return self._session.permission

    @permission.setter
    def permission(self, permission: PermissionContext) -> None:
        self._session.permission = permission

    @property
    def trusted(self) -> bool:
        return self._session.config.trusted

    @property
    def memory_files(self) -> tuple[Path, ...]:
        return tuple(self._session.config.memory_files)

    @property
    def tool_schemas(self) -> list[dict[str, Any]]:
        return self._session.state.tool_schemas

    @property
    def session_id(self) -> str:
        return self._session.session_id

    @property
    def running(self) -> bool:
        return self._session.running

    @property
    def catalog(self) -> Catalog:
        return self._session.catalog

    @property
    def api(self) -> ApiClient:
        return self._session.api
