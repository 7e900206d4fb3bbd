"""Command line: parse flags (stdlib only, so --help and --version are instant), then hand over
to the headless runner, the Textual app, or the plain REPL. A headless run is first offered to
the warm process (warm/): asyncio and everything heavier load only when the run stays here."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path
from typing import Any

from claude_harness import __version__
from claude_harness.cli_flags import (
    RESUME_NEEDS_ID,
    add_cc_flags,
    cc_options,
    unsupported_subcommand,
)
from claude_harness.frontends.sdk.flags import add_sdk_flags, read_system_prompt_file, sdk_options
from claude_harness.permissions.rule_lists import split_rule_list
from claude_harness.session.options import RunOptions

PERMISSION_MODES = ("default", "manual", "acceptEdits", "plan", "bypassPermissions", "dontAsk",
                    "auto")
MODE_ALIASES = {"manual": "default"}  # Claude Code's name for the default mode


def split_tool_list(values: list[str] | None) -> list[str]:
    """`--allowedTools "Bash(git *)" Read,Edit`: every value may hold several rules."""
    return [item for value in values or [] for item in split_rule_list(value)]


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="claude-harness",
        description="An interactive terminal coding agent. Run it in your repository and talk to "
        "Claude; with -p it answers one prompt and exits.",
    )
    p.add_argument("prompt", nargs="?", help="first prompt (with -p: the prompt to answer)")
    p.add_argument("-p", "--print", dest="print_mode", action="store_true",
                   help="answer the prompt non-interactively and exit (stdin is appended)")
    p.add_argument("--output-format", choices=("text", "json", "stream-json"), default="text")
    p.add_argument("--input-format", choices=("text", "stream-json"), default="text")
    p.add_argument("--verbose", action="store_true")
    p.add_argument("--model", help="model id or alias (sonnet, opus, haiku)")
    p.add_argument("--effort", choices=("low", "medium", "high", "xhigh", "max"),
                   help="how much effort the model puts into each answer (default: the model's)")
    p.add_argument("--permission-mode", choices=PERMISSION_MODES)
    p.add_argument("--dangerously-skip-permissions", action="store_true",
                   help="same as --permission-mode bypassPermissions")
    p.add_argument("--allowedTools", "--allowed-tools", dest="allowed_tools", nargs="+",
                   action="extend", metavar="RULE")
    p.add_argument("--disallowedTools", "--disallowed-tools", dest="disallowed_tools", nargs="+",
                   action="extend", metavar="RULE")
    p.add_argument("--tools", nargs="+", action="extend", metavar="NAME",
                   help="restrict the built-in tool set (e.g. Bash,Read)")
    p.add_argument("--add-dir", dest="add_dirs", nargs="+", action="extend", metavar="DIR")
    p.add_argument("--max-turns", type=int)
    p.add_argument("--settings", help="a settings JSON file or a JSON string")
    p.add_argument("--mcp-config", nargs="+", action="extend", default=[])
    p.add_argument("--plugin-dir", dest="plugin_dirs", action="append", default=[],
                   metavar="DIR", help="load a plugin from this folder (repeatable)")
    p.add_argument("--agents", metavar="JSON", help="extra sub-agent definitions as JSON")
    p.add_argument("--init", action="store_true",
                   help="run the Setup hooks (trigger init) before the session starts")
    p.add_argument("--init-only", action="store_true",
                   help="run the Setup hooks (trigger init) and exit")
    p.add_argument("--maintenance", action="store_true",
                   help="run the Setup hooks (trigger maintenance) before the session starts")
    p.add_argument("--trust-workspace", action="store_true",
                   help="treat this folder as trusted for this run: its .claude/settings.json "
                   "allow rules, environment and hooks apply (without it, -p ignores them in a "
                   "folder never trusted in the app or the REPL)")
    p.add_argument("-c", "--continue", dest="continue_session", action="store_true",
                   help="continue the latest conversation in this directory")
    p.add_argument("-r", "--resume", nargs="?", const="", metavar="ID",
                   help="resume a conversation by session id")
    p.add_argument("--session-id", metavar="UUID")
    p.add_argument("--system-prompt")
    p.add_argument("--append-system-prompt")
    p.add_argument("--theme", help="dark, light, high-contrast, or a theme file name")
    p.add_argument("--inline", action="store_true", help="run in the normal screen, not full-screen")
    p.add_argument("--plain", action="store_true",
                   help="line-mode REPL using the terminal's own scrollback")
    add_sdk_flags(p)
    p.add_argument("--acp", action="store_true",
                   help="speak the Agent Client Protocol on stdin/stdout (Zed, JetBrains, "
                   "Neovim, Toad...)")
    add_cc_flags(p)
    p.add_argument("-v", "--version", action="version", version=f"{__version__} (claude-harness)")
    return p


def parse_options(argv: list[str] | None = None) -> RunOptions:
    args = build_parser().parse_args(argv)
    mode = MODE_ALIASES.get(args.permission_mode, args.permission_mode)
    if args.dangerously_skip_permissions:
        mode = "bypassPermissions"
    tools = split_tool_list(args.tools) if args.tools else None
    if tools == ["default"]:  # the SDK's "claude_code" preset: every built-in
        tools = None
    system_prompt = args.system_prompt
    if args.system_prompt_file:
        system_prompt = read_system_prompt_file(args.system_prompt_file)
    append = args.append_system_prompt
    if args.append_system_prompt_file:
        text = read_system_prompt_file(args.append_system_prompt_file,
                                       "--append-system-prompt-file")
        append = "\n\n".join(t for t in (append, text) if t and t.strip()) or None
    # A machine-readable format is a headless run, -p or not: never the REPL on a pipe.
    print_mode = args.print_mode or args.output_format != "text" or args.input_format != "text"
    return RunOptions(
        cwd=Path.cwd(),
        prompt=args.prompt,
        print_mode=print_mode,
        output_format=args.output_format,
        input_format=args.input_format,
        verbose=args.verbose,
        model=args.model,
        effort=args.effort,
        permission_mode=mode,
        allowed_tools=split_tool_list(args.allowed_tools),
        disallowed_tools=split_tool_list(args.disallowed_tools),
        tools=tools,
        add_dirs=args.add_dirs or [],
        max_turns=args.max_turns,
        settings=args.settings,
        mcp_config=args.mcp_config,
        plugin_dirs=args.plugin_dirs,
        agents_json=args.agents,
        continue_session=args.continue_session,
        resume=args.resume,
        session_id=args.session_id,
        system_prompt=system_prompt,
        append_system_prompt=append,
        theme=args.theme,
        inline=args.inline,
        plain=args.plain,
        interactive=not print_mode,
        trust_workspace=args.trust_workspace,
        **sdk_options(args),
        **cc_options(args),
        setup_trigger="maintenance" if args.maintenance else (
            "init" if args.init or args.init_only else None),
        init_only=args.init_only,
    )


def _validate_session_id(value: str | None) -> None:
    if value and not re.fullmatch(r"[0-9a-fA-F-]{8,64}", value):
        raise SystemExit(f"Error: --session-id must be a UUID, got {value!r}")


def run_headless(opts: RunOptions) -> int:
    # Each front end is imported only when chosen: --help and --version stay instant.
    from claude_harness.warm import tls_preload

    tls_preload.start()  # the CA bundle loads on the other core while the session imports
    import asyncio

    from claude_harness.frontends.headless import Headless, parse_stream_json_input
    from claude_harness.frontends.shared.shutdown import exit_code_for

    prompt: str | list[Any] = opts.prompt or ""
    piped = "" if sys.stdin.isatty() else sys.stdin.read()
    if opts.input_format == "stream-json":
        try:
            prompt = [*([opts.prompt] if opts.prompt else []), *parse_stream_json_input(piped)]
        except ValueError as exc:
            sys.stderr.write(f"Error: {exc}\n")
            return 1
    elif piped.strip():
        prompt = f"{prompt}\n\n{piped}" if prompt else piped
    if not prompt or (isinstance(prompt, str) and not prompt.strip()):
        sys.stderr.write("Error: no prompt given. Usage: claude-harness -p \"your prompt\"\n")
        return 1
    session = start_session(opts)
    if session is None:
        return 1

    async def go() -> int:
        headless = Headless(session, opts.output_format, verbose=session.config.verbose,
                            budget_usd=opts.max_budget_usd)
        signals = _stop_on_signals(session)
        try:
            code = await headless.run(prompt)
        finally:
            signals.uninstall()
        return exit_code_for(signals.received) if signals.received else code

    try:
        return asyncio.run(go())
    except KeyboardInterrupt:
        return 130


SIGNAL_GRACE_SECONDS = 10.0  # after a signal, the most the run may take to report and end


def _stop_on_signals(session: Any) -> Any:
    """SIGTERM, SIGHUP, SIGINT: every command is killed at once (shutdown.py), the turn ends
    with the signal as its error (the result line says so), and the exit code is 143/129/130.
    Should the run not end within SIGNAL_GRACE_SECONDS, the process exits anyway."""
    import asyncio

    from claude_harness.frontends.shared.shutdown import ShutdownSignals, exit_code_for, stop_reason
    from claude_harness.protocol.ops import Interrupt  # -p only: --help stays instant

    loop = asyncio.get_running_loop()

    def stop(sig: Any) -> None:
        session.submit(Interrupt(stop_reason(sig)))
        loop.call_later(SIGNAL_GRACE_SECONDS, os._exit, exit_code_for(sig))

    signals = ShutdownSignals(stop)
    signals.install(loop)
    return signals


def start_session(opts: RunOptions) -> Any:
    """The session for a run without a screen, its warnings on stderr; None (after saying
    why) when it cannot start."""
    from claude_harness.config.trust import TrustNotice
    from claude_harness.session.bootstrap import StartupError, build_session

    try:
        session, warnings = build_session(opts)
    except StartupError as exc:
        sys.stderr.write(f"Error: {exc}\n")
        return None
    for warning in warnings:
        sys.stderr.write(f"{warning}\n" if isinstance(warning, TrustNotice)
                         else f"Warning: {warning}\n")
    return session


def run_setup_only(opts: RunOptions) -> int:
    """`--init-only`: the Setup hooks run (as the session starts), then the program exits."""
    import asyncio

    from claude_harness.protocol.events import HookRan, Notice, SessionClosed
    from claude_harness.protocol.ops import Shutdown

    session = start_session(opts)
    if session is None:
        return 1

    async def go() -> int:
        session.submit(Shutdown())
        failed = False
        async for event in session.events():
            if isinstance(event, HookRan) and opts.verbose:
                sys.stderr.write(event.summary() + "\n")
            elif isinstance(event, Notice):
                failed = failed or event.level == "error"
                sys.stderr.write(event.text + "\n")
            elif isinstance(event, SessionClosed):
                break
        return 1 if failed else 0

    return asyncio.run(go())


def wants_plain(opts: RunOptions) -> bool:
    return opts.plain or os.environ.get("TERM") == "dumb" or not sys.stdout.isatty()


SUBCOMMANDS = ("doctor", "mcp", "plugin", "plugins")


def run_subcommand(argv: list[str]) -> int:
    """`claude-harness doctor ...` and `claude-harness mcp ...` (configuration tools)."""
    if argv[0] == "doctor":
        from claude_harness.frontends.doctor import main as doctor

        return doctor(argv[1:])
    if argv[0] in ("plugin", "plugins"):
        from claude_harness.commands.plugins.cli import main as plugin

        return plugin(argv[1:])
    if argv[1:2] == ["serve"]:  # builds a session: beside the mcp package, not inside it
        from claude_harness.frontends.mcp_serve.run import run_serve

        return run_serve(argv[2:], Path.cwd())
    from claude_harness.mcp.commands import run_mcp

    return run_mcp(argv[1:], Path.cwd())


def main(argv: list[str] | None = None) -> int:
    """The program. Run as a program (`argv` None), a headless run goes to the warm process
    when one serves; a cold headless run starts one in the background once it is done."""
    if argv is not None:
        return run_cli(argv)
    from claude_harness.warm.client import hand_off, start_server  # stdlib only: ~1 ms

    handed = hand_off(sys.argv[1:])
    if handed.code is not None:
        return handed.code
    from claude_harness.fsutil.code_cache import install  # a cold start: compile less

    install()
    try:
        return run_cli(sys.argv[1:])
    finally:
        if handed.start_server:
            start_server(WARM_SERVER_COMMAND)


def run_cli(args: list[str]) -> int:
    if args and args[0] in SUBCOMMANDS:
        return run_subcommand(args)
    if args and (code := unsupported_subcommand(args[0])) is not None:
        return code
    opts = parse_options(args)
    _validate_session_id(opts.session_id)
    if opts.print_mode and opts.resume == "":
        sys.stderr.write(RESUME_NEEDS_ID + "\n")
        return 1
    if opts.init_only:
        return run_setup_only(opts)
    for note in opts.notes:
        sys.stderr.write(f"claude-harness: {note}\n")
    if "--acp" in args:  # an editor on the pipe (Agent Client Protocol)
        from claude_harness.frontends.acp.run import run_acp  # chosen front end only (start-up)

        return run_acp(opts)
    if opts.sdk_stream:  # the Agent SDK (or any program) on the pipe, with or without -p
        from claude_harness.frontends.sdk.run import run_sdk  # chosen front end only (start-up)

        return run_sdk(opts)
    if opts.print_mode:
        return run_headless(opts)
    if wants_plain(opts):
        from claude_harness.frontends.plain.repl import (
            run_plain,  # chosen front end only (start-up)
        )

        return run_plain(opts)
    from claude_harness.frontends.shared.piped_prompt import take_piped_stdin

    try:
        opts.prompt = take_piped_stdin(opts.prompt)
    except OSError:
        sys.stderr.write("Error: stdin is a pipe and there is no terminal to type in; "
                         "use -p to answer the piped prompt non-interactively.\n")
        return 1
    from claude_harness.frontends.tui.app import run_app  # chosen front end only (start-up)

    return run_app(opts)


WARM_SERVER_COMMAND = [sys.executable, "-c",
                       "import sys; from claude_harness.cli import serve_warm; "
                       "sys.exit(serve_warm())"]


def serve_warm() -> int:
    """The warm process (warm/server.py): what a headless run needs, imported once; each
    request a forked child that runs `run_cli` as a cold start would."""
    from claude_harness.warm.server import serve

    return serve(run_cli, warm_accepts, preload_headless)


def warm_accepts(args: list[str]) -> bool:
    """Whether a warm child may run these arguments: a headless run (the app and the REPL need
    the terminal as their controlling one, which a forked child does not have)."""
    if args and args[0] in SUBCOMMANDS:
        return False
    try:
        opts = parse_options(args)
    except SystemExit:  # --help, --version, a bad flag: the cold path prints it
        return False
    return (opts.print_mode or opts.sdk_stream) and not opts.init_only


def preload_headless() -> None:
    """Everything a `-p` run or an SDK query imports before its first request and at its first
    Bash check."""
    import asyncio  # noqa: F401

    import claude_harness.frontends.headless  # noqa: F401
    import claude_harness.frontends.sdk.run  # noqa: F401
    from claude_harness.session.bootstrap import preload_for_warm_start

    preload_for_warm_start()


if __name__ == "__main__":
    sys.exit(main())
