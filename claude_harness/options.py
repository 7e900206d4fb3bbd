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
    debug: bool = False
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
    fork_session: bool = False  # --fork-session: -r/-c continue under a new session id
