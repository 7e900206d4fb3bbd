"""SessionConfig: what a front end decides before a session starts (bootstrap fills it from the
command line and the settings). The collaborators it carries are typed here under
TYPE_CHECKING only, so the session's run-time imports stay inside its layer."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_harness.api.client import ApiSettings
from claude_harness.protocol.permission_data import PermissionContext
from claude_harness.protocol.tool import Tool

if TYPE_CHECKING:
    from claude_harness.api.request_params import RequestSettings
    from claude_harness.commands.catalog import Catalog
    from claude_harness.config.load_report import LoadReport
    from claude_harness.hooks.runner import HookRunner
    from claude_harness.mcp.client import McpManager
    from claude_harness.session.services.model_policy import ModelPolicy
    from claude_harness.session.services.status_line_command import StatusLineConfig


@dataclass
class SessionConfig:
    cwd: Path
    model: str
    permission: PermissionContext
    tools: tuple[Tool, ...]
    system_prompt: str
    api: ApiSettings
    data_dir: Path
    transcripts: Path | None = None  # root of projects/<key>/<id>.jsonl; None: data_dir
    max_turns: int | None = None
    max_tokens: int | None = None  # None: the model table's default
    session_id: str | None = None
    history: list[dict[str, Any]] = field(default_factory=list)
    hooks: HookRunner | None = None  # None: no hooks configured (a program may add some)
    persist: bool = True
    debug: bool = False
    verbose: bool = False
    auto_compact: bool = True
    tool_filter: tuple[str, ...] | None = None  # --tools: the built-ins to keep
    compact_threshold_tokens: int | None = None  # default: 85 % of the model's window
    tools_before_start: bool = False  # -p: MCP tools join before SessionStarted lists them
    memory_files: tuple[Path, ...] = ()
    memory_imports: dict[Path, Path] = field(default_factory=dict)  # imported -> importer
    mcp: McpManager | None = None  # set by bootstrap when servers are configured
    request_settings: RequestSettings | None = None  # effort, thinking; None: from the env
    max_budget_usd: float | None = None  # the session ends its turn once it has cost this
    fallback_model: str | None = None  # taken for a turn when the model stays overloaded
    file_checkpointing: bool = True  # fileCheckpointingEnabled: copies for /rewind
    skill_shell_disabled: bool = False  # disableSkillShellExecution: !`cmd` spans never run
    model_policy: ModelPolicy | None = None  # availableModels for /model
    stream_events: bool = False  # report the API's raw stream events (StreamEvent)
    extra_tools: tuple[Tool, ...] = ()  # offered beside the pool (StructuredOutput)

    catalog: Catalog | None = None  # commands, skills, agents, plugins; None: the cwd's
    trusted: bool = False  # a trusted folder: project agents may set their mode, rules, hooks
    output_style: str = "default"
    wait_for_background: bool = False  # -p: a prompt's turn ends after its background agents
    setup_trigger: str | None = None  # --init / --maintenance: Setup hooks run at start
    compact_fraction: float | None = None  # autoCompactThreshold: share of the window
    attribution: str | None = None  # the line commits end with (settings `attribution`)
    load_report: LoadReport | None = None  # this start's settings report: /doctor shows it
    status_line: StatusLineConfig | None = None  # settings' `statusLine`, or None

    @property
    def history_roots(self) -> list[Path]:
        """Where the session's transcript is written, then the other roots it resumes from."""
        first = self.transcripts or self.data_dir
        return list(dict.fromkeys([first, self.data_dir]))
