"""SessionStarted: what a session lists when it starts (the SDK's system/init message, the
front ends' header): its ids and paths, model and mode, tools, credentials, MCP servers and the
catalog's agents, commands, skills and plugins, as Claude Code lists them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from claude_harness.protocol.events import SessionStarted
from claude_harness.session.services.config_report import unsupported_settings
from claude_harness.session.session_config import SessionConfig
from claude_harness.session.state import SessionState

if TYPE_CHECKING:
    from claude_harness.api.client import ApiSettings
    from claude_harness.commands.catalog import Catalog


def started_event(config: SessionConfig, state: SessionState, settings: ApiSettings,
                  catalog: Catalog, output_style: str) -> SessionStarted:
    mcp = config.mcp
    fields = catalog.init_fields()
    return SessionStarted(
        session_id=state.session_id, cwd=str(config.cwd), model=state.model,
        mode=state.mode, tools=tuple(t.name for t in config.tools),
        transcript_path=state.transcript_path, api_base_url=settings.base_url or "",
        has_credentials=settings.has_credentials,
        api_key_source="ANTHROPIC_API_KEY" if settings.api_key else "none",
        bypass_available=state.permission.bypass_available,
        memory_files=tuple(str(p) for p in config.memory_files),
        mcp_servers=tuple(mcp.init_info()) if mcp is not None else (),
        mcp_pending_approval=tuple(c.name for c in mcp.pending_approvals()) if mcp else (),
        history=tuple(state.messages),
        agents=tuple(fields["agents"]), slash_commands=tuple(fields["slash_commands"]),
        skills=tuple(fields["skills"]), plugins=tuple(fields["plugins"]),
        output_style=output_style,
        unsupported_settings=unsupported_settings(config.load_report),
        verbose=config.verbose)
