"""What `/config`, `/permissions` and `/hooks` ask for: the panel (a front-end action) with no
words, the change as ops with Claude Code's forms (`key=value`, a rule and its file)."""

from __future__ import annotations

from claude_harness.commands.registry import invoke
from claude_harness.protocol.ops import AddRule, RemoveRule
from claude_harness.protocol.panels import ChangeSetting


def test_config_opens_the_panel_or_sets_key_value_pairs() -> None:
    assert invoke("/config").action == "config" and invoke("/settings").action == "config"
    assert invoke("/config verbose=true autoCompactEnabled=false").ops == (
        ChangeSetting("verbose", "true"), ChangeSetting("autoCompactEnabled", "false"))
    assert invoke("/config 3 vim").ops == () and invoke("/config 3 vim").action == "config"


def test_permissions_adds_to_the_named_file_and_leaves_numbers_to_the_list() -> None:
    assert invoke("/permissions allow --user Bash(npm test:*)").ops == (
        AddRule("allow", "Bash(npm test:*)", destination="userSettings"),)
    assert invoke("/permissions deny --session WebFetch").ops == (
        AddRule("deny", "WebFetch", destination="session"),)
    assert invoke("/permissions ask Bash(git push:*)").ops == (
        AddRule("ask", "Bash(git push:*)"),)
    assert invoke("/permissions remove --project Read(./x)").ops == (
        RemoveRule("Read(./x)", "projectSettings"),)
    assert invoke("/permissions remove 2").ops == ()
    assert invoke("/allowed-tools").action == "permissions"


def test_hooks_is_the_panel() -> None:
    made = invoke("/hooks")
    assert made.ops == () and made.action == "hooks"
