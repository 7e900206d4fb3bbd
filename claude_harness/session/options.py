"""RunOptions: what the command line asked for, as plain data (no heavy imports)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class RunOptions:
    cwd: Path = field(default_factory=Path.cwd)
    prompt: str | None = None
    print_mode: bool = False
    output_format: str = "text"
    input_format: str = "text"
    verbose: bool = False
    debug: bool = False  # -d/--debug [filter], --debug-file
    debug_filter: str | None = None  # "api,hooks", "!git": categories kept or dropped
    debug_file: str | None = None  # --debug-file: the log's path (else the session folder)
    max_thinking_tokens: int | None = None  # --max-thinking-tokens (0: no thinking)
    agent: str | None = None  # --agent NAME: the main thread runs as this agent
    betas: tuple[str, ...] = ()  # --betas: extra anthropic-beta features
    name: str | None = None  # -n/--name: the session's title
    model: str | None = None
    effort: str | None = None  # --effort low|medium|high|xhigh|max
    permission_mode: str | None = None
    allowed_tools: list[str] = field(default_factory=list)
    disallowed_tools: list[str] = field(default_factory=list)
    tools: list[str] | None = None
    add_dirs: list[str] = field(default_factory=list)
    max_turns: int | None = None
    settings: str | None = None
    mcp_config: list[str] = field(default_factory=list)
    plugin_dirs: list[str] = field(default_factory=list)  # --plugin-dir
    agents_json: str | None = None  # --agents
    continue_session: bool = False
    resume: str | None = None  # "" = pick from a list
    session_id: str | None = None
    system_prompt: str | None = None
    append_system_prompt: str | None = None
    theme: str | None = None
    inline: bool = False
    plain: bool = False
    interactive: bool = True
    trust_workspace: bool = False  # --trust-workspace: this run treats the folder as trusted
    setup_trigger: str | None = None  # --init / --init-only: "init"; --maintenance
    init_only: bool = False  # --init-only: run the Setup hooks and exit
    # What the Agent SDK asks for (see claude_harness/frontends/sdk): both stream-json formats together
    # mean the SDK's streaming mode, with or without -p.
    permission_prompt_tool: str | None = None  # "stdio": ask the program on the pipe
    include_partial_messages: bool = False
    include_hook_events: bool = False
    max_budget_usd: float | None = None
    fallback_model: str | None = None
    json_schema: str | None = None
    fork_session: bool = False
    strict_mcp_config: bool = False
    setting_sources: tuple[str, ...] | None = None  # user, project, local
    persist_session: bool = True
    allow_bypass: bool = False  # --allow-dangerously-skip-permissions
    replay_user_messages: bool = False  # stream-json: prompts written back with their uuid
    notes: list[str] = field(default_factory=list)  # flags accepted but not applied, for stderr

    @property
    def sdk_stream(self) -> bool:
        """The Agent SDK's streaming mode: stream-json in and out."""
        return self.input_format == "stream-json" and self.output_format == "stream-json"
