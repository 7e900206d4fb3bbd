"""The `if` field of a hook handler: a permission rule that decides whether the hook runs.

    {"matcher": "Bash", "hooks": [{"type": "command", "if": "Bash(git *)", "command": "..."}]}

The rule is read with the permission-rule syntax and matched the way permission rules match:
Bash patterns per simple command (`ls && git status` matches `Bash(git *)`), path patterns for
the file tools, `domain:` for WebFetch. A command that cannot be analysed (variables, command
substitution) runs the hook: a hook guarding something must not be skipped on a guess (Claude
Code 2.1.332 behaves so, observed). `if` only applies to events that carry a tool call.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from claude_harness.permissions.rules import (
    EDIT_TOOLS,
    READ_TOOLS,
    RuleSyntaxError,
    match_bash_pattern,
    match_domain_rule,
    match_path_rule,
    parse_rule,
    tool_matches,
)
from claude_harness.protocol.permission_data import RuleValue

_SINGLE_QUOTED = re.compile(r"'[^']*'")
_SUBJECT_FIELDS = ("file_path", "notebook_path", "path", "url", "pattern", "command")


def parse_condition(text: str) -> RuleValue:
    """Parse an `if` value; raises RuleSyntaxError with the reason."""
    return parse_rule(text)


def condition_matches(rule: RuleValue, payload: Mapping[str, Any], cwd: Path) -> bool:
    """Whether a hook with `if: rule` runs for this event payload."""
    tool_name = payload.get("tool_name")
    if not isinstance(tool_name, str):
        return True  # not a tool event: `if` cannot filter it
    if not tool_matches(rule.tool_name, tool_name):
        return False
    content = rule.rule_content
    if content is None:
        return True
    tool_input = payload.get("tool_input")
    if not isinstance(tool_input, Mapping):
        return True
    if tool_name == "Bash":
        return _bash_matches(content, str(tool_input.get("command", "")), cwd)
    if tool_name in EDIT_TOOLS | READ_TOOLS or rule.tool_name in ("Edit", "Read"):
        path = tool_input.get("file_path") or tool_input.get("notebook_path") or \
            tool_input.get("path")
        return isinstance(path, str) and match_path_rule(content, path, cwd, None, "allow")
    if tool_name == "WebFetch":
        url = tool_input.get("url")
        return isinstance(url, str) and match_domain_rule(content, url)
    subject = next((tool_input[f] for f in _SUBJECT_FIELDS
                    if isinstance(tool_input.get(f), str)), None)
    return subject is not None and fnmatch.fnmatchcase(subject, content)


def _bash_matches(pattern: str, command: str, cwd: Path) -> bool:
    # deferred: the Bash analysis pulls in bashlex; most hooks have no `if` on Bash
    from claude_harness.permissions.bash.analysis import analyse

    try:
        analysis = analyse(command, cwd, cwd)
    except Exception:  # noqa: BLE001 - an unparsable command runs the hook (fail closed)
        return True
    if analysis.fatal or analysis.problems or not analysis.facts:
        return True
    if "$" in _SINGLE_QUOTED.sub("", command):
        return True  # a variable can expand to anything: the command cannot be checked
    for fact in analysis.facts:
        if any(match_bash_pattern(pattern, " ".join(form)) for form in fact.forms) or \
                match_bash_pattern(pattern, fact.text):
            return True
    return match_bash_pattern(pattern, command)


__all__ = ["RuleSyntaxError", "condition_matches", "parse_condition"]
