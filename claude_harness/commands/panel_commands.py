"""/config, /permissions and /hooks: with no arguments each opens its panel (a front-end action:
the app's panel, the REPL's numbered list); with words, the change as ops, as Claude Code takes
them (`/config verbose=true`, `/permissions allow Bash(npm test:*)`)."""

from __future__ import annotations

from claude_harness.commands.command_spec import Command
from claude_harness.protocol import ops
from claude_harness.protocol.panels import ChangeSetting

DESTINATION_FLAGS = {"--user": "userSettings", "--project": "projectSettings",
                     "--local": "localSettings", "--session": "session"}


def config_ops(args: str) -> list[ops.Op]:
    """`key=value` pairs (`/config verbose=true autoCompactEnabled=false`); anything else is
    the front end's (the panel, or the REPL's `/config <n> [value]`)."""
    words = args.split()
    if not words or not all("=" in w and not w.startswith("=") for w in words):
        return []
    return [ChangeSetting(*w.split("=", 1)) for w in words]  # type: ignore[list-item]


def permissions_ops(args: str) -> list[ops.Op]:
    """`allow|ask|deny [--user|--project|--local|--session] <rule>` adds (the local file by
    default), `remove <rule>` drops one from .claude/settings.local.json; no words, or
    `remove <n>` (a row of the REPL's list), are the front end's."""
    verb, _, rest = args.partition(" ")
    rest = rest.strip()
    flag, _, after = rest.partition(" ")
    destination = DESTINATION_FLAGS.get(flag)
    rule = after.strip() if destination else rest
    if verb in ("allow", "deny", "ask") and rule:
        return [ops.AddRule(verb, rule, destination=destination or  # type: ignore[arg-type]
                            "localSettings")]
    if verb == "remove" and rule and not rule.isdigit():
        return [ops.RemoveRule(rule, destination or "localSettings")]
    return []


PANEL_COMMANDS: tuple[Command, ...] = (
    Command("config", "the settings panel (also /settings); key=value sets one", "[key=value]",
            to_ops=config_ops, action="config", aliases=("settings",)),
    Command("permissions", "the permission rules by source: add, remove (also /allowed-tools)",
            "[allow|ask|deny [--user|--project|--session] <rule> | remove <rule>]",
            to_ops=permissions_ops, action="permissions", aliases=("allowed-tools",)),
    Command("hooks", "the configured hooks by event, with their commands and files (read-only)",
            action="hooks"),
)
