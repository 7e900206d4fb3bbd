"""More built-ins: Claude Code's everyday commands, each answered by the session (a
SessionCommand op, see session/services/slash_commands.py) or sent as a prompt, so the app, the REPL
and any other front end get the same behaviour and only draw the events."""

from __future__ import annotations

from collections.abc import Callable

from claude_harness.commands.command_spec import Command
from claude_harness.protocol import ops

REVIEW_PROMPT = (
    "Review code changes as a careful senior engineer would.\n\n{target}\n\n"
    "Look for bugs and regressions first (wrong logic, unhandled cases, broken error paths, "
    "races), then for missing or weak tests, then for readability and consistency with the "
    "code around the change. For each finding give the file and line, why it matters and a "
    "concrete fix; say plainly when something looks fine. End with a short verdict."
)
REVIEW_BRANCH = (
    "Review the changes on the current branch: run `git status`, `git diff` (staged and "
    "unstaged) and `git log`/`git diff` against the branch it was made from (main or master) "
    "to see what changed."
)
REVIEW_PR = (
    "Review pull request {pr}: if the `gh` command is available, read it with "
    "`gh pr view {pr}` and `gh pr diff {pr}`; otherwise fetch the PR's branch with git and "
    "diff it against its base."
)
SECURITY_PROMPT = (
    "Do a security review of the pending changes on this branch (`git status`, `git diff`, "
    "`git diff --cached`, and the commits not yet on main or master).\n\n"
    "Report only issues an attacker could plausibly exploit, with high confidence: injection "
    "(shell, SQL, template, path traversal), authentication or authorisation gaps, secrets or "
    "keys in the code, unsafe deserialisation, unvalidated input reaching dangerous calls, "
    "weak cryptography, server-side request forgery, and data exposure in logs or errors. "
    "For each: the file and line, the attack in one or two sentences, its severity (high, "
    "medium, low) and the fix. Leave out style, theoretical and denial-of-service findings. "
    "If nothing qualifies, say so."
)
UNAVAILABLE: dict[str, str] = {
    "ide": "connecting to an IDE extension needs Claude Code's IDE plugins, which do not talk "
           "to claude-harness.",
    "install-github-app": "the Claude GitHub app is Anthropic's service for Claude Code; "
                          "claude-harness has no GitHub app to install.",
    "install-slack-app": "the Claude Slack app is Anthropic's service; claude-harness has none.",
    "upgrade": "there is no subscription plan here (claude-harness uses an API key); upgrade "
               "the package with pip instead.",
    "terminal-setup": "newlines need no terminal set-up here: Alt+Enter or \\+Enter inserts "
                      "one in every terminal (Shift+Enter too where the terminal reports it).",
    "privacy-settings": "privacy settings belong to a claude.ai account; claude-harness signs "
                        "in with an API key only.",
    "feedback": "claude-harness does not send reports to Anthropic; file an issue in the "
                "project's repository instead.",
    "mobile": "the Claude mobile app pairs with a claude.ai account, which is not offered here.",
    "stickers": "stickers are ordered through a claude.ai account, not offered here.",
    "radio": "Claude FM is part of Claude Code's own service, not of claude-harness.",
    "design": "Claude Design projects belong to a claude.ai account, not offered here.",
    "design-sync": "Claude Design belongs to a claude.ai account, not offered here.",
    "design-login": "Claude Design sign-in needs a claude.ai account, not offered here.",
    "tui": "the renderer is chosen at start: the app by default, `claude-harness --plain` for "
           "the line REPL.",
}


def review_prompt(args: str) -> str:
    """A PR number or URL names a pull request; other words narrow the branch's review."""
    pr = args.strip().lstrip("#")
    if pr.isdigit() or pr.startswith(("http://", "https://")):
        target = REVIEW_PR.format(pr=pr)
    else:
        target = REVIEW_BRANCH + (f" Focus on: {pr}" if pr else "")
    return REVIEW_PROMPT.format(target=target)


PROMPTS: dict[str, Callable[[str], str]] = {
    "review": review_prompt, "security-review": lambda _args: SECURITY_PROMPT}


def _session(name: str) -> Callable[[str], list[ops.Op]]:
    return lambda args: [ops.SessionCommand(name, args)]


def _plan(args: str) -> list[ops.Op]:
    return [ops.SetMode("plan"), *([ops.UserPrompt(args)] if args else [])]


def _unavailable(name: str, aliases: tuple[str, ...] = ()) -> Command:
    return Command(name, "not available in claude-harness (says why)", aliases=aliases,
                   to_ops=lambda a: [ops.SessionCommand("unavailable", name)])


MORE_BUILTINS: tuple[Command, ...] = (
    Command("review", "ask the model to review this branch's changes or a pull request",
            "[PR]", to_ops=_session("review")),
    Command("security-review", "ask the model for a security review of the pending changes",
            to_ops=_session("security-review")),
    Command("release-notes", "what is new in this version", to_ops=_session("release-notes")),
    Command("copy", "copy the last answer to the clipboard (/copy 2: the one before)", "[n]",
            to_ops=_session("copy")),
    Command("diff", "this session's file changes as a unified diff", to_ops=_session("diff")),
    Command("fork", "copy this conversation into a new session and keep working here",
            "[title]", to_ops=_session("fork")),
    Command("branch", "go on in a new branch of this conversation (the old one stays "
            "resumable)", to_ops=_session("branch")),
    Command("btw", "a side question: answered with the conversation as context, kept out of "
            "it", "<question>", to_ops=_session("btw")),
    Command("plan", "enter plan mode, optionally with a prompt", "[prompt]", to_ops=_plan),
    Command("skills", "the skills available and where each comes from",
            to_ops=_session("skills")),
    Command("keybindings", "the key bindings and the file custom ones are read from",
            to_ops=_session("keybindings")),
    Command("statusline", "set up the status line: <command> to use it, or describe one for "
            "the model to write", "[command|description|off]", to_ops=_session("statusline")),
    Command("login", "store an API key for claude-harness (no subscription sign-in)", "<key>",
            to_ops=_session("login")),
    Command("logout", "remove the API key /login stored", to_ops=_session("logout")),
    Command("vim", "switch the input between vim and normal editing (editorMode)",
            to_ops=_session("vim")),
)
NOT_HERE: tuple[Command, ...] = (
    *(_unavailable(name) for name in UNAVAILABLE if name != "feedback"),
    _unavailable("feedback", ("bug",)),
)
"""Typed, each says why in one line; left out of /help and the `/` list (they do nothing)."""
