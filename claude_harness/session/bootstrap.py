"""Turn RunOptions into a ready Session: settings, permissions, tools, hooks, memory, MCP, and
the configuration catalog (commands, skills, agents, plugins), loaded once here.

Shared by every front end so `-p`, the Textual app and the plain REPL run the same session with
the same configuration. Imports tools and pydantic, never the HTTP client (`preload_transport`
loads it in a background thread; front ends call it here so they never import `api/`).
"""

from __future__ import annotations

import json
import os
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claude_harness.agent.prompt import render_system_prompt
from claude_harness.api.client import ApiSettings, preload_transport
from claude_harness.api.errors import NO_KEY_HELP
from claude_harness.api.models import DEFAULT_MODEL, MODEL_ALIASES, resolve_alias
from claude_harness.api.request_params import set_extra_betas, settings_from_sources
from claude_harness.config.compaction import compaction_settings
from claude_harness.config.config_panel import respect_gitignore
from claude_harness.config.memory import load_memory
from claude_harness.config.paths import data_dir
from claude_harness.config.settings import CliSettings, load_settings
from claude_harness.config.settings_keys import SessionSettings, session_settings
from claude_harness.config.trust import is_trusted
from claude_harness.hooks.config import HookConfig, hook_config_from_settings
from claude_harness.mcp import McpManager, ProjectPolicy, hook_answerer, hook_reviewer
from claude_harness.session.core import Session, SessionConfig
from claude_harness.session.options import RunOptions
from claude_harness.session.services.config_report import configuration_report, keybindings_notice
from claude_harness.session.services.hook_setup import build_hook_runner
from claude_harness.session.services.model_policy import ModelPolicy, NoModelLeft
from claude_harness.session.services.start_context import (
    UnknownAgent,
    agent_model,
    agent_tools,
    begin_git_snapshot,
    main_agent,
    name_session,
    prompt_context,
    with_thinking_flag,
)
from claude_harness.session.store.transcript import (
    adopt_legacy,
    find_session,
    history_roots,
    latest_session,
    load_session,
)
from claude_harness.tools.grep.ignore_files import configure as configure_ignore_files
from claude_harness.tools.plan_mode.plan_files import configure as configure_plans
from claude_harness.tools.plan_mode.plan_files import plans_folder
from claude_harness.tools.registry import assemble_tool_pool
from claude_harness.tools.structured_output import structured_output_tool

if TYPE_CHECKING:
    from claude_harness.config.load_report import LoadReport
    from claude_harness.mcp.sdk_transport import SdkMcpChannel

__all__ = ["DEFAULT_MODEL", "MODEL_ALIASES", "NO_KEY_HELP", "StartupError", "build_session",
           "data_dir", "preload_transport"]


class StartupError(Exception):
    """A configuration problem that stops the run with a clear message (exit code 1)."""


def _history(opts: RunOptions, cwd: Path, store: Path, warnings: list[str]
             ) -> tuple[list[dict[str, Any]], str | None]:
    """Messages and session id to continue from (-c / -r ID), or a fresh start; what the
    transcript's reader noticed (two writers, a gap in the chain) joins `warnings`. With
    --fork-session the history continues under a new session id."""
    roots = history_roots(store)
    if opts.resume:
        path = find_session(roots, cwd, opts.resume)
        if path is None:
            raise StartupError(f"No conversation found with session ID: {opts.resume}")
        return _continued(opts, adopt_legacy(path, roots, cwd), warnings)
    if opts.continue_session:
        path = latest_session(roots, cwd)
        if path is None:
            raise StartupError("No conversation found to continue in this directory.")
        return _continued(opts, adopt_legacy(path, roots, cwd), warnings)
    return [], opts.session_id


def _continued(opts: RunOptions, path: Path, warnings: list[str]
               ) -> tuple[list[dict[str, Any]], str]:
    """The conversation in `path`, under its own id, or (--fork-session) copied into a new
    session so the original stays as it was."""
    session_id = path.stem
    if opts.fork_session:
        from claude_harness.session.store.fork import fork_transcript  # only with --fork-session

        fork = fork_transcript(path, session_id=opts.session_id)
        path, session_id = fork.path, fork.session_id
    try:
        resumed = load_session(path)
    except OSError as exc:
        raise StartupError(f"Could not read the conversation {path}: {exc}") from exc
    warnings.extend(resumed.warnings)
    return resumed.messages, session_id


def build_session(opts: RunOptions, *, trusted: bool | None = None,
                  sdk_channel: SdkMcpChannel | None = None) -> tuple[Session, list[str]]:
    """Build the session; returns it with the warnings to show (invalid settings files...).
    `sdk_channel` (an `mcp.sdk_transport.SdkMcpChannel`) reaches the program's `sdk` MCP
    servers when the Agent SDK drives us."""
    cwd = opts.cwd.resolve()
    store = data_dir()
    headless = opts.print_mode or opts.sdk_stream
    if trusted is None:  # -p has no trust question: a folder never trusted stays untrusted
        trusted = opts.trust_workspace or is_trusted(store, cwd)
    loaded = _settings(opts, cwd, trusted)
    context = prompt_context(loaded)
    snapshot = begin_git_snapshot(cwd, context)  # gathered while the rest loads
    warnings = list(loaded.warnings)
    # Headless runs decide from the rules alone, unless a program on the pipe answers prompts.
    interactive = (opts.interactive and not headless) or opts.permission_prompt_tool == "stdio"
    permission = loaded.permission_context(interactive=interactive)
    if permission.mode == "bypassPermissions" or opts.allow_bypass:
        permission = replace(permission, bypass_available=True)
    model_policy = ModelPolicy.from_settings(loaded)
    history, session_id = _history(opts, cwd, store, warnings)
    tools = _tools(opts, permission)
    catalog = _catalog(opts, cwd, loaded, tools, warnings)
    try:
        agent = main_agent(catalog, opts.agent)
    except UnknownAgent as exc:
        raise StartupError(str(exc)) from exc
    tools = agent_tools(tools, agent)
    try:  # deniedModels may leave nothing to start with
        model = model_policy.sent_id(model_policy.choose(
            [opts.model or agent_model(agent, opts.model), os.environ.get("ANTHROPIC_MODEL"),
             loaded.model], DEFAULT_MODEL, warnings))
    except NoModelLeft as exc:
        raise StartupError(str(exc)) from exc
    chosen = session_settings(loaded)
    compaction = compaction_settings(loaded, _compact_fraction(chosen))
    configure_ignore_files(respect_gitignore=respect_gitignore(loaded))  # or ~/.claude.json's
    configure_plans(plans_folder(loaded.value("plansDirectory"), cwd))
    memory = load_memory(cwd, context.claude_md_excludes, permission=permission,
                         trusted=trusted)
    style_name, style_section, style_warnings = _output_style(cwd, loaded)
    warnings.extend(style_warnings)
    override = opts.system_prompt if agent is None or opts.system_prompt else agent.system_prompt
    system = render_system_prompt(
        cwd, model, memory=memory.text, override=override,
        append=_joined(style_section, opts.append_system_prompt),
        additional_dirs=permission.additional_dirs,
        git_snapshot=snapshot.text() if snapshot is not None else None,
        git_instructions=context.git_instructions, language=context.language,
    )
    request_settings, setting_warnings = settings_from_sources(
        flag_effort=opts.effort, settings_effort=loaded.value("effortLevel"),
        always_thinking=loaded.value("alwaysThinkingEnabled"),
        interactive=opts.interactive and not opts.print_mode)
    request_settings = with_thinking_flag(request_settings, opts.max_thinking_tokens,
                                          model)
    warnings.extend(setting_warnings)
    session = Session(SessionConfig(
        cwd=cwd, model=model, permission=permission, tools=tools,
        extra_tools=_extra_tools(opts),
        system_prompt=system, api=_api_settings(loaded, cwd, trusted, warnings), data_dir=store,
        transcripts=history_roots(store)[0],
        max_turns=opts.max_turns, session_id=session_id, history=history, debug=opts.debug,
        verbose=opts.verbose or loaded.value("verbose") is True,
        tool_filter=tuple(opts.tools) if opts.tools is not None else None,
        tools_before_start=headless, memory_files=tuple(memory.files),
        memory_imports=dict(memory.parents),
        mcp=_mcp_manager(opts, cwd, loaded, warnings, catalog, trusted, sdk_channel),
        request_settings=request_settings, catalog=catalog, trusted=trusted,
        output_style=style_name, status_line=_status_line(loaded), wait_for_background=headless,
        setup_trigger=opts.setup_trigger, compact_fraction=_compact_fraction(chosen),
        attribution=_attribution(loaded, chosen) if context.git_instructions else None,
        persist=opts.persist_session, max_budget_usd=opts.max_budget_usd,
        fallback_model=_fallback_model(opts, model_policy), model_policy=model_policy,
        file_checkpointing=loaded.value("fileCheckpointingEnabled") is not False,
        skill_shell_disabled=any(  # restrictive: true in any settings file holds
            s.settings.model_dump(exclude_unset=True).get("disableSkillShellExecution") is True
            for s in loaded.sources),
        auto_compact=compaction.enabled, compact_threshold_tokens=compaction.threshold_tokens,
        stream_events=opts.include_partial_messages,
    ))
    hook_config = _hook_config(loaded, cwd, trusted, catalog, warnings)
    session.config.hooks = build_hook_runner(
        hook_config, session, always=any(a.hooks for a in catalog.agent_list()),
        context=session.tool_context, run_agent=session.run_agent)
    load_report = configuration_report(cwd, loaded, catalog, hook_config,
                                       _mcp_policy(loaded, trusted))
    session.config.load_report = load_report
    if notice := keybindings_notice(load_report):
        warnings.append(notice)
    _bash_environment(session)
    _wire_mcp(session.config.mcp, session.config.hooks, permission.additional_dirs)
    _prestart_command_guardian(session)
    _configure_sandbox(loaded, warnings)
    _remove_old_transcripts(store, chosen, session)
    _configure_debug(opts, session, load_report)
    _watch_settings(session, cwd)
    if session.path_rules is not None and session.path_rules.nested is not None:
        session.path_rules.nested.excludes = context.claude_md_excludes
    name_session(session, opts.name)
    return session, warnings


def _catalog(opts: RunOptions, cwd: Path, loaded: Any, tools: tuple[Any, ...],
             warnings: list[str]) -> Any:
    """Commands, skills, agents and plugins, loaded once for the session (the Skill and Agent
    tools and the front ends ask this catalog); its one-line notice when anything was
    skipped."""
    from claude_harness.commands.catalog import load_catalog
    from claude_harness.config.plugin_only import locked_surfaces

    enabled = loaded.value("enabledPlugins")
    catalog = load_catalog(cwd, plugin_dirs=opts.plugin_dirs, agents_json=opts.agents_json,
                           enabled_plugins=enabled if isinstance(enabled, dict) else None,
                           known_tools=[n for t in tools for n in (t.name, *t.aliases)],
                           locked=locked_surfaces(loaded))
    notice = catalog.report.startup_notice()
    if notice:
        warnings.append(notice)
    return catalog


def _api_settings(loaded: Any, cwd: Path, trusted: bool, warnings: list[str]) -> ApiSettings:
    """The API settings from the environment; the key from `apiKeyHelper` when the
    environment has none."""
    settings = ApiSettings.from_env()
    if settings.api_key or settings.auth_token:
        return settings
    from claude_harness.config.api_key_helper import helper_command, run_helper

    command = helper_command(loaded, trusted=trusted)
    if command is None:
        return settings
    key, problem = run_helper(command, cwd)
    if problem:
        warnings.append(problem)
    return replace(settings, api_key=key) if key else settings


def _compact_fraction(chosen: SessionSettings) -> float | None:
    """`autoCompactThreshold` (0.7 or 70: compact at 70 % of the window); else the
    CLAUDE_AUTOCOMPACT_PCT_OVERRIDE percentage; else the session's default."""
    value = chosen.auto_compact_threshold
    if value is None:
        try:
            value = float(os.environ.get("CLAUDE_AUTOCOMPACT_PCT_OVERRIDE", ""))
        except ValueError:
            return None
    if value > 1:
        value /= 100
    return value if 0 < value <= 1 else None


def _fallback_model(opts: RunOptions, policy: ModelPolicy) -> str | None:
    """--fallback-model, else the first `fallbackModel` of the settings ("default": ours)."""
    name = opts.fallback_model or next(iter(policy.fallback), None)
    if not name:
        return None
    return policy.sent_id(resolve_alias(DEFAULT_MODEL if name == "default" else name))


def _attribution(loaded: Any, chosen: SessionSettings) -> str | None:
    """The commit attribution the model is asked to add, when the settings ask for one
    (`attribution.commit`, or `includeCoAuthoredBy: true`); None by default and with
    `includeCoAuthoredBy: false`."""
    if chosen.attribution is not None:
        commit = chosen.attribution.get("commit")
        return commit if isinstance(commit, str) and commit.strip() else None
    if loaded.value("includeCoAuthoredBy") is True:
        return "Co-Authored-By: Claude <noreply@anthropic.com>"
    return None


def _bash_environment(session: Session) -> None:
    """Bash commands (and hooks, MCP servers) see CLAUDECODE=1, as under Claude Code, and
    source what SessionStart and Setup hooks exported (CLAUDE_ENV_FILE)."""
    from claude_harness.tools.bash.session_env import configure

    os.environ["CLAUDECODE"] = "1"
    runner = session.config.hooks
    configure(runner.env_dir if runner is not None else None)


def _remove_old_transcripts(store: Path, chosen: SessionSettings, session: Session) -> None:
    """`cleanupPeriodDays`: transcripts older than that go (never the current one, nor one a
    live process holds: each is deleted only under its session lock)."""
    from claude_harness.config.cleanup import remove_old_transcripts
    from claude_harness.session.store.lock import claim_session

    keep = Path(session.transcript_path) if session.transcript_path else None
    remove_old_transcripts(history_roots(store),  # Claude Code's projects/ and ours
                           chosen.cleanup_period_days, claim=claim_session, keep=keep)


def _watch_settings(session: Session, cwd: Path) -> None:
    """ConfigChange hooks hear of settings files changed while the session runs, FileChanged
    hooks of the files their matchers name."""
    hooks = session.config.hooks
    if hooks is not None and hooks.has_hooks("FileChanged"):
        from claude_harness.hooks.file_watch import FileWatch

        hooks.file_watch = FileWatch.for_matchers(
            [e.matcher.raw for e in hooks.config.entries if e.event == "FileChanged"], cwd)
    if session.config.hooks is None or not session.config.hooks.has_hooks("ConfigChange"):
        return
    from claude_harness.config.paths import managed_settings_path, user_config_dir
    from claude_harness.hooks.config_watch import ConfigWatch

    session.config.hooks.config_watch = ConfigWatch.for_project(
        cwd, user_config_dir(), managed_settings_path())


def _configure_debug(opts: RunOptions, session: Session, load_report: LoadReport) -> None:
    """-d/--debug [filter], --debug-file: the debug log (protocol/debug_log.py) goes to the
    named file, else to the session's folder. The configuration report (every settings key
    and file, and what became of it) opens it; -p without --debug-file also prints it on
    stderr (the app's and the REPL's stderr is their screen)."""
    from claude_harness.protocol.debug_log import configure_debug_log, debug

    set_extra_betas(opts.betas)
    if not opts.debug:
        configure_debug_log(None)
        return
    path = Path(opts.debug_file).expanduser() if opts.debug_file else None
    if path is None and session.transcript is not None:
        path = session.transcript.path.parent / session.session_id / "debug.log"
    configure_debug_log(path, opts.debug_filter)
    report = load_report.format()
    debug("config", "configuration:\n" + report)
    if opts.print_mode and not opts.debug_file:
        sys.stderr.write("[debug] configuration:\n" + report + "\n")


def _output_style(cwd: Path, loaded: Any) -> tuple[str, str, list[str]]:
    """(name, system prompt section, problems) of the style the settings name (`outputStyle`):
    a built-in or custom one. Without the setting nothing is read: the default style."""
    name = loaded.value("outputStyle")
    if not isinstance(name, str) or name.strip().casefold() in ("", "default"):
        return "default", "", []
    from claude_harness.config.output_styles import load_output_styles  # a style is set

    catalog = load_output_styles(cwd)
    style = catalog.resolve(name)
    return style.name, style.prompt_section(), list(catalog.problems)


def _joined(*parts: str | None) -> str | None:
    text = "\n\n".join(p.strip() for p in parts if p and p.strip())
    return text or None


def _status_line(loaded: Any) -> Any:
    """The `statusLine` command (statusline.StatusLineConfig), or None."""
    if loaded.value("statusLine") is None:
        return None
    from claude_harness.session.services.status_line_command import (
        StatusLineConfig,  # a status line is configured
    )

    return StatusLineConfig.from_settings(loaded.value("statusLine"))


def _wire_mcp(manager: Any, hooks: Any, directories: tuple[Path, ...]) -> None:
    """MCP servers see every working directory as a root (`--add-dir` too), and the
    `Elicitation` / `ElicitationResult` hooks answer and review a server's questions before the
    user is asked."""
    if manager is None:
        return
    if hooks is not None:
        from claude_harness.mcp.hook_caller import hook_tool_caller  # MCP servers are set up

        hooks.mcp_caller = hook_tool_caller(manager)
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
    """Start the process guardian (no orphans, see guardian/) in the background now, so the
    first command, hook or MCP stdio server does not wait ~20 ms for it."""
    config = session.config
    bash = any(t.name == "Bash" for t in config.tools)
    if bash or config.hooks or config.mcp:
        from claude_harness.guardian.client import prestart

        prestart()
    if bash and not config.tools_before_start:  # a person at the app or the REPL
        threading.Thread(target=_warm_bash_checker, name="bash-checker-warmup",
                         daemon=True).start()


def _warm_bash_checker() -> None:
    """Load the Bash permission checker (bashlex builds its parser tables: ~130 ms) while the
    person types the first prompt, once what the first request needs is in. Without a person
    (-p, the SDK) there is no idle time to hide it in: the first command's check loads it."""
    from claude_harness.api.client import TRANSPORT_LOADED

    if TRANSPORT_LOADED.wait(timeout=600):
        import claude_harness.permissions.bash.decision  # noqa: F401


def _settings(opts: RunOptions, cwd: Path, trusted: bool) -> Any:
    """Every settings source merged; the `env` key is applied to this process."""
    loaded = load_settings(cwd, trusted=trusted, cli=CliSettings(
        settings=opts.settings,
        allowed_tools=opts.allowed_tools,
        disallowed_tools=opts.disallowed_tools,
        permission_mode=opts.permission_mode,
        add_dirs=opts.add_dirs,
        setting_sources=opts.setting_sources,
    ))
    for key, value in (loaded.env or {}).items():
        os.environ.setdefault(str(key), str(value))
    if loaded.value("parallelAgents") is True:
        os.environ["CLAUDE_HARNESS_PARALLEL_AGENTS"] = "1"
    return loaded


def _tools(opts: RunOptions, permission: Any) -> tuple[Any, ...]:
    """The built-in pool (MCP tools join at the first request)."""
    return assemble_tool_pool(permission, only=opts.tools)


def _extra_tools(opts: RunOptions) -> tuple[Any, ...]:
    """StructuredOutput, when --json-schema asked for a structured answer."""
    if not opts.json_schema:
        return ()
    try:
        schema = json.loads(opts.json_schema)
    except ValueError as exc:
        raise StartupError(f"--json-schema is not valid JSON: {exc}") from exc
    if not isinstance(schema, dict):
        raise StartupError("--json-schema must be a JSON object (a JSON Schema)")
    return (structured_output_tool(schema),)


def _hook_config(loaded: Any, cwd: Path, trusted: bool, catalog: Any,
                 warnings: list[str]) -> HookConfig:
    """Hooks of every settings file and plugin (project hooks only in a trusted folder;
    `disableAllHooks`, `allowManagedHooksOnly`); the runner also exists when only an agent
    definition brings hooks."""
    hook_config = hook_config_from_settings(loaded, trusted=trusted,
                                            plugin_sources=catalog.hook_sources(),
                                            plugin_roots=catalog.plugin_roots())
    warnings.extend(hook_config.warnings)
    warnings.extend(_skipped_hook_notices(hook_config.skipped, cwd))
    return hook_config


def _skipped_hook_notices(skipped: Any, cwd: Path) -> list[str]:
    """`Ignoring 2 hooks from .claude/settings.json: ...`, once per settings file."""
    from collections import Counter

    from claude_harness.config.trust import ignored_notice

    per_file = Counter(entry.path for entry in skipped if entry.path is not None)
    return [ignored_notice("hooks", count, path, cwd) for path, count in per_file.items()]


def _mcp_policy(loaded: Any, trusted: bool) -> ProjectPolicy:
    return ProjectPolicy.from_settings(loaded, trusted=trusted)


def _mcp_manager(opts: RunOptions, cwd: Path, loaded: Any, warnings: list[str],
                 catalog: Any, trusted: bool,
                 sdk_channel: SdkMcpChannel | None = None) -> McpManager | None:
    """Servers from .mcp.json, the user config, --mcp-config and plugins (not started yet),
    or None; the program's `sdk` servers through `sdk_channel`."""
    manager = McpManager.from_options(cwd, opts.mcp_config, policy=_mcp_policy(loaded, trusted),
                                      extra_servers=catalog.mcp_servers(),
                                      strict=opts.strict_mcp_config, sdk_channel=sdk_channel)
    warnings.extend(manager.warnings)
    from claude_harness.mcp.server_policy import ServerPolicy, filter_connections

    filter_connections(manager, ServerPolicy.from_settings(loaded), warnings)
    return manager if manager.connections else None


# Imported at a headless run's first request and first tool calls (found by listing what a
# 5-turn -p run adds to sys.modules after the preload); a name gone stale only costs its time.
_WARM_MODULES = (
    "claude_harness.agent.loop", "claude_harness.tools.pipeline",
    "claude_harness.permissions.bash.decision", "claude_harness.sandbox.decision",
    "claude_harness.sandbox.bash", "claude_harness.sandbox.tempdir",
    "claude_harness.session.checkpointing.checkpoints", "claude_harness.config.cleanup",
    "claude_harness.frontends.shared.previews", "claude_harness.tools.bash.tool", "claude_harness.tools.edit.tool",
    "claude_harness.tools.glob.tool", "claude_harness.tools.grep.tool",
    "claude_harness.tools.write.tool", "claude_harness.tools.web_fetch.tool",
    "claude_harness.tools.web_search.tool", "claude_harness.tools.notebook_edit.tool",
    "claude_harness.tools.plan_mode.tools", "claude_harness.tools.skill.tool",
    "claude_harness.tools.task_output", "claude_harness.tools.task_stop",
    "claude_harness.tools.ask_user_question", "claude_harness.guardian.client",
    "claude_harness.tools.bash.process", "concurrent.futures.thread", "queue", "encodings.idna",
    "h11", "httpcore2", "httpcore2._async.connection_pool", "httpcore2._async.http11",
    "httpcore2._backends.anyio", "httpcore2._backends.auto", "httpcore2._sync.connection_pool",
    "anyio._backends._asyncio", "anyio.streams.tls", "anyio.streams.stapled", "truststore",
    # imported lazily by a cold run (front matter, path rules, images), kept in the warm process
    "yaml", "pathspec", "pathspec.patterns.gitignore.spec", "PIL.Image",
)


def preload_for_warm_start() -> None:
    """The warm process (warm/) imports here what every headless run needs before its first
    request and at its first tool calls: the HTTP client, the loop, the tools and the Bash checker
    (bashlex's tables), so that a forked child pays none of it. Nothing is started: no
    thread, no guardian, no client."""
    import importlib

    from claude_harness.session.warm_caches import fill_run_caches

    preload_transport()
    for name in _WARM_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            pass
    fill_run_caches()
