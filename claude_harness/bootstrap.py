"""Turn RunOptions into a ready Session: settings, permissions, tools, hooks, memory, MCP.

Shared by every front end so `-p`, the Textual app and the plain REPL run the same session with
the same configuration. Imports tools and pydantic, never the anthropic SDK (`preload_sdk`
warms it in a background thread; front ends call it here so they never import `api/`).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any

from claude_harness.agent.prompt import render_system_prompt
from claude_harness.api.client import ApiSettings, preload_sdk
from claude_harness.api.errors import NO_KEY_HELP
from claude_harness.api.models import DEFAULT_MODEL, resolve_alias
from claude_harness.api.request_params import settings_from_sources
from claude_harness.config.memory import load_memory
from claude_harness.config.paths import data_dir
from claude_harness.config.settings import CliSettings, load_settings
from claude_harness.config.trust import is_trusted
from claude_harness.hooks.config import HookConfig
from claude_harness.hooks.runner import HookRunner
from claude_harness.mcp import McpManager, ProjectPolicy, hook_answerer, hook_reviewer
from claude_harness.options import RunOptions
from claude_harness.session.core import Session, SessionConfig
from claude_harness.session.transcript import find_session, latest_session, load_messages
from claude_harness.tools.agent.definitions import with_agent_types
from claude_harness.tools.registry import assemble_tool_pool

__all__ = ["NO_KEY_HELP", "StartupError", "build_session", "data_dir", "preload_sdk"]


class StartupError(Exception):
    """A configuration problem that stops the run with a clear message (exit code 1)."""


def resolve_model(opts: RunOptions, settings_model: str | None) -> str:
    model = opts.model or os.environ.get("ANTHROPIC_MODEL") or settings_model or DEFAULT_MODEL
    return resolve_alias(model)


def _history(opts: RunOptions, cwd: Path, store: Path) -> tuple[list[dict[str, Any]], str | None]:
    """Messages and session id to continue from (-c / -r ID), or a fresh start."""
    if opts.resume:
        path = find_session(store, cwd, opts.resume)
        if path is None:
            raise StartupError(f"No conversation found with session ID: {opts.resume}")
        return load_messages(path), path.stem
    if opts.continue_session:
        path = latest_session(store, cwd)
        if path is None:
            raise StartupError("No conversation found to continue in this directory.")
        return load_messages(path), path.stem
    return [], opts.session_id


def build_session(opts: RunOptions, *, trusted: bool | None = None) -> tuple[Session, list[str]]:
    """Build the session; returns it with the warnings to show (invalid settings files...)."""
    cwd = opts.cwd.resolve()
    store = data_dir()
    if trusted is None:  # -p has no trust question: a folder never trusted stays untrusted
        trusted = opts.trust_workspace or is_trusted(store, cwd)
    loaded = _settings(opts, cwd, trusted)
    warnings = list(loaded.warnings)
    permission = loaded.permission_context(interactive=opts.interactive and not opts.print_mode)
    if permission.mode == "bypassPermissions":
        permission = replace(permission, bypass_available=True)
    model = resolve_model(opts, loaded.model)
    history, session_id = _history(opts, cwd, store)
    memory = load_memory(cwd)
    system = render_system_prompt(
        cwd, model, memory=memory.text, override=opts.system_prompt,
        append=opts.append_system_prompt, additional_dirs=permission.additional_dirs,
    )
    request_settings, setting_warnings = settings_from_sources(
        flag_effort=opts.effort, settings_effort=loaded.value("effortLevel"),
        always_thinking=loaded.value("alwaysThinkingEnabled"),
        interactive=opts.interactive and not opts.print_mode)
    warnings.extend(setting_warnings)
    session = Session(SessionConfig(
        cwd=cwd, model=model, permission=permission, tools=_tools(opts, cwd, permission),
        system_prompt=system, api=ApiSettings.from_env(), data_dir=store,
        max_turns=opts.max_turns, session_id=session_id, history=history, debug=opts.debug,
        verbose=opts.verbose, tool_filter=tuple(opts.tools) if opts.tools is not None else None,
        tools_before_start=opts.print_mode, memory_files=tuple(memory.files),
        mcp=_mcp_manager(opts, cwd, loaded, warnings), request_settings=request_settings,
    ))
    session.config.hooks = _hook_runner(session, loaded, cwd, trusted, warnings)
    _wire_mcp(session.config.mcp, session.config.hooks, permission.additional_dirs)
    _prestart_command_guardian(session)
    _configure_sandbox(loaded, warnings)
    return session, warnings


def _wire_mcp(manager: Any, hooks: Any, directories: tuple[Path, ...]) -> None:
    """MCP servers see every working directory as a root (`--add-dir` too), and the
    `Elicitation` / `ElicitationResult` hooks answer and review a server's questions before the
    user is asked."""
    if manager is None:
        return
    for directory in directories:
        manager.add_root(directory)
    if hooks is not None:
        manager.elicitation.answerers.append(hook_answerer(hooks))
        manager.elicitation.reviewers.append(hook_reviewer(hooks))


def _configure_sandbox(loaded: Any, warnings: list[str]) -> None:
    """The Bash sandbox from the `sandbox` settings (sandbox/), and its start-up notice (why it
    cannot run, when it was asked for). Costs nothing when no settings file mentions it."""
    from claude_harness.sandbox.current import configure

    if loaded.value("sandbox") is None:
        configure(None)
        return
    from claude_harness.sandbox.runtime import runtime_from_settings

    runtime, notices = runtime_from_settings(loaded)
    configure(runtime)
    warnings.extend(notices)


def _prestart_command_guardian(session: Session) -> None:
    """Start the Bash commands' guardian (no orphans, see tools/bash/guardian.py) in the
    background now, so the first command does not wait ~20 ms for it."""
    if any(t.name == "Bash" for t in session.config.tools):
        from claude_harness.tools.bash.guardian import prestart

        prestart()


def _settings(opts: RunOptions, cwd: Path, trusted: bool) -> Any:
    """Every settings source merged; the `env` key is applied to this process."""
    loaded = load_settings(cwd, trusted=trusted, cli=CliSettings(
        settings=opts.settings,
        allowed_tools=opts.allowed_tools,
        disallowed_tools=opts.disallowed_tools,
        permission_mode=opts.permission_mode,
        add_dirs=opts.add_dirs,
    ))
    for key, value in (loaded.env or {}).items():
        os.environ.setdefault(str(key), str(value))
    if loaded.value("parallelAgents") is True:
        os.environ["CLAUDE_HARNESS_PARALLEL_AGENTS"] = "1"
    return loaded


def _tools(opts: RunOptions, cwd: Path, permission: Any) -> tuple[Any, ...]:
    """The built-in pool (MCP tools join at the first request), Agent listing agent types."""
    return with_agent_types(assemble_tool_pool(permission, only=opts.tools), cwd)


def _hook_runner(session: Session, loaded: Any, cwd: Path, trusted: bool,
                 warnings: list[str]) -> Any:
    """A HookRunner when any hook is configured (project hooks only in a trusted folder)."""
    hook_config = HookConfig.from_sources(loaded.hooks_sources, allow_project_hooks=trusted)
    warnings.extend(hook_config.warnings)
    warnings.extend(_skipped_hook_notices(hook_config.skipped, cwd))
    if not (hook_config.entries or hook_config.skipped):
        return None
    return HookRunner(hook_config, project_dir=cwd, session_id=session.session_id,
                      transcript_path=session.transcript_path,
                      get_permission_mode=lambda: session.mode)


def _skipped_hook_notices(skipped: Any, cwd: Path) -> list[str]:
    """`Ignoring 2 hooks from .claude/settings.json: ...`, once per settings file."""
    from collections import Counter

    from claude_harness.config.trust import ignored_notice

    per_file = Counter(entry.path for entry in skipped if entry.path is not None)
    return [ignored_notice("hooks", count, path, cwd) for path, count in per_file.items()]


def _user_controlled_value(loaded: Any, key: str) -> Any:
    """A setting from a source the user controls: never the committed project settings, or a
    repository could approve its own MCP servers."""
    for src in loaded.sources:
        if src.source == "projectSettings":
            continue
        data = src.settings.model_dump(exclude_unset=True)
        if data.get(key) is not None:
            return data[key]
    return None


def _mcp_manager(opts: RunOptions, cwd: Path, loaded: Any, warnings: list[str]) -> Any:
    """Servers from .mcp.json, the user config and --mcp-config (not started yet), or None."""
    policy = ProjectPolicy.from_values(lambda key: _user_controlled_value(loaded, key))
    manager = McpManager.from_options(cwd, opts.mcp_config, policy=policy)
    warnings.extend(manager.warnings)
    return manager if manager.connections else None
