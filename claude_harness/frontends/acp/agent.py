"""HarnessAgent: the ACP methods, each answered through one of our sessions.

`session/new` builds a session as every front end does (bootstrap.build_session) for the
client's folder, with the client's MCP servers added to ours; `session/load` builds it resuming
the transcript of that id and replays it first. The session id a client sees is the
transcript's, so a later `session/load` (or `claude-harness --resume ID`) finds it again.
Every failure is an ACP error with a sentence saying what went wrong; none ends the process."""

from __future__ import annotations

import asyncio
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from acp import PROTOCOL_VERSION, RequestError
from acp.schema import (
    AgentCapabilities,
    Implementation,
    InitializeResponse,
    LoadSessionResponse,
    McpCapabilities,
    NewSessionResponse,
    PromptCapabilities,
    PromptResponse,
    SessionCapabilities,
    SetSessionConfigOptionResponse,
    SetSessionModeResponse,
)

from claude_harness import __version__
from claude_harness.frontends.acp.mcp_servers import mcp_config_value
from claude_harness.frontends.acp.prompt import to_prompt
from claude_harness.frontends.acp.runner import AcpSession
from claude_harness.protocol import ops
from claude_harness.protocol.events import ModeChanged, ModelChanged
from claude_harness.session.bootstrap import NO_KEY_HELP, StartupError, build_session
from claude_harness.session.options import RunOptions


def _error(message: str, code: int = -32602) -> RequestError:
    return RequestError(code, message)


class HarnessAgent:
    def __init__(self, opts: RunOptions) -> None:
        self.opts = opts
        self.client: Any = None
        self.client_capabilities: Any = None
        self.sessions: dict[str, AcpSession] = {}

    def on_connect(self, conn: Any) -> None:
        self.client = conn

    async def initialize(self, protocol_version: int, client_capabilities: Any = None,
                         client_info: Any = None, **_: Any) -> InitializeResponse:
        self.client_capabilities = client_capabilities
        return InitializeResponse(
            protocol_version=min(protocol_version, PROTOCOL_VERSION),
            agent_capabilities=AgentCapabilities(
                load_session=True,
                prompt_capabilities=PromptCapabilities(image=True, embedded_context=True,
                                                       audio=False),
                mcp_capabilities=McpCapabilities(http=True, sse=True),
                session_capabilities=SessionCapabilities()),
            agent_info=Implementation(name="claude-harness", title="claude-harness",
                                      version=__version__),
            auth_methods=[])

    async def authenticate(self, method_id: str, **_: Any) -> None:
        raise _error(f"No authentication method {method_id!r}: set ANTHROPIC_API_KEY (or an "
                     "apiKeyHelper in the settings) for the agent instead.")

    # ── sessions ───────────────────────────────────────────────────────────────────────────

    async def new_session(self, cwd: str, mcp_servers: list[Any] | None = None,
                          additional_directories: list[str] | None = None,
                          **_: Any) -> NewSessionResponse:
        runner = await self._open(cwd, mcp_servers, additional_directories, resume=None)
        self._offer_commands(runner)
        return NewSessionResponse(session_id=runner.id, modes=runner.mode_state(),
                                  config_options=runner.config_options())

    async def load_session(self, cwd: str, session_id: str, mcp_servers: list[Any] | None = None,
                           additional_directories: list[str] | None = None,
                           **_: Any) -> LoadSessionResponse:
        runner = self.sessions.get(session_id)
        if runner is None:
            runner = await self._open(cwd, mcp_servers, additional_directories,
                                      resume=session_id)
        await runner.replay()
        self._offer_commands(runner)
        return LoadSessionResponse(modes=runner.mode_state(),
                                   config_options=runner.config_options())

    async def _open(self, cwd: str, mcp_servers: list[Any] | None,
                    directories: list[str] | None, resume: str | None) -> AcpSession:
        folder = Path(cwd)
        if not folder.is_absolute() or not folder.is_dir():
            raise _error(f"cwd must be an absolute path to a folder: {cwd!r}")
        extra = mcp_config_value(mcp_servers)
        opts = replace(self.opts, cwd=folder, prompt=None, resume=resume,
                       continue_session=False, session_id=None,
                       mcp_config=[*self.opts.mcp_config, *([extra] if extra else [])],
                       add_dirs=[*self.opts.add_dirs, *(directories or [])])
        try:
            session, warnings = build_session(opts)
        except StartupError as exc:
            raise _error(str(exc), -32603 if resume is None else -32002) from exc
        for warning in warnings:
            sys.stderr.write(f"claude-harness: {warning}\n")
        fs = getattr(self.client_capabilities, "fs", None)
        runner = AcpSession(session, self.client, reads_files=self._client_reads_files(),
                            writes_files=bool(getattr(fs, "write_text_file", False)),
                            runs_terminals=bool(getattr(self.client_capabilities, "terminal",
                                                        False)))
        started = await runner.start()
        if not started.has_credentials:
            await runner.close()
            raise RequestError(-32000, f"Authentication required: {NO_KEY_HELP}")
        self.sessions[runner.id] = runner
        return runner

    def _client_reads_files(self) -> bool:
        fs = getattr(self.client_capabilities, "fs", None)
        return bool(getattr(fs, "read_text_file", False))

    def _offer_commands(self, runner: AcpSession) -> None:
        """The slash commands, once the client knows the session (after this response)."""
        asyncio.get_running_loop().create_task(runner.send(runner.commands_update()))

    def _runner(self, session_id: str) -> AcpSession:
        runner = self.sessions.get(session_id)
        if runner is None:
            raise _error(f"Unknown session {session_id!r}: create one with session/new or "
                         "session/load first.")
        return runner

    # ── a session's choices ────────────────────────────────────────────────────────────────

    async def set_session_mode(self, session_id: str, mode_id: str,
                               **_: Any) -> SetSessionModeResponse:
        await self._set_mode(self._runner(session_id), mode_id)
        return SetSessionModeResponse()

    async def set_config_option(self, config_id: str, session_id: str, value: Any,
                                **_: Any) -> SetSessionConfigOptionResponse:
        runner = self._runner(session_id)
        if config_id == "mode":
            await self._set_mode(runner, str(value))
        elif config_id == "model":
            changed = await runner.apply(ops.SetModel(str(value), source="sdk"),
                                         lambda e: isinstance(e, ModelChanged))
            if changed is None:
                raise _error(f"Cannot switch to the model {value!r}.")
        else:
            raise _error(f"Unknown config option {config_id!r} (mode and model are offered).")
        return SetSessionConfigOptionResponse(config_options=runner.config_options())

    async def _set_mode(self, runner: AcpSession, mode: str) -> None:
        offered = [m.id for m in runner.mode_state().available_modes]
        if mode not in offered:
            raise _error(f"Unknown mode {mode!r}: one of {', '.join(offered)}.")
        if mode == runner.view.mode:
            return
        changed = await runner.apply(ops.SetMode(mode), lambda e: isinstance(e, ModeChanged))
        if changed is None:
            raise _error(f"Cannot switch this session to {mode}.")

    # ── prompts ────────────────────────────────────────────────────────────────────────────

    async def prompt(self, session_id: str, prompt: list[Any], **_: Any) -> PromptResponse:
        runner = self._runner(session_id)
        if not prompt:
            raise _error("The prompt is empty.")
        stop = await runner.prompt(to_prompt(prompt))
        return PromptResponse(stop_reason=stop)  # type: ignore[arg-type]

    async def cancel(self, session_id: str, **_: Any) -> None:
        runner = self.sessions.get(session_id)
        if runner is not None:
            runner.cancel()

    async def close_all(self) -> None:
        """stdin ended: every session shuts down (transcripts closed, servers stopped)."""
        await asyncio.gather(*(r.close() for r in self.sessions.values()),
                             return_exceptions=True)
