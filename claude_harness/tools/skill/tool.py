"""Skill: load a skill's instructions (or a custom command's prompt) into the conversation.

Claude Code 2.1.332's contract (observed): input `{skill, args?}`; the tool_result is `Launching
skill: NAME`, and the instructions follow it as a text block of their own in the same user
message (after the batch's results); a skill's start with `Base directory for this skill: DIR`
so its scripts and references can be read and run (each through the normal permission
checks). A skill with `allowed-tools` goes through the permission chain like any
tool (`Skill(name)` rules decide; else the person is asked); one without loads without asking. Its `allowed-tools` are then pre-approved for the
rest of the turn. Unknown names and `disable-model-invocation` ones are refused.

A skill's !`cmd` spans run as they do when the person types `/name` (inline.py, the one path):
PreSkillShellCommand with invoked_by "claude", then the Bash pipeline with the skill's
allowed-tools; a refused or failed one makes the call an error with Claude Code's words
(`Shell command permission check failed for pattern ...`); disableSkillShellExecution leaves
the placeholder instead of running anything.
"""

from __future__ import annotations

from dataclasses import replace
from difflib import get_close_matches
from typing import Any

from pydantic import Field

from claude_harness.permissions.rules import allow_rules
from claude_harness.protocol.context import ToolUseContext
from claude_harness.protocol.permission_data import PermissionDecision
from claude_harness.protocol.tool import (
    VALID,
    Progress,
    ToolError,
    ToolInput,
    ToolResult,
    ValidationResult,
    build_tool,
    load_prompt,
)


class SkillInput(ToolInput):
    skill: str = Field(description="The name of a skill from the available-skills list. Do not "
                                   "guess names.")
    args: str | None = Field(None, description="Optional arguments for the skill")


def _find(name: str, ctx: ToolUseContext) -> Any:
    from claude_harness.commands.catalog import catalog_for

    return catalog_for(ctx.permission.cwd).find_command(name.strip().lstrip("/"))


async def _validate(inp: SkillInput, ctx: ToolUseContext) -> ValidationResult:
    command = _find(inp.skill, ctx)
    if command is None:
        from claude_harness.commands.catalog import catalog_for

        names = [c.name for c in catalog_for(ctx.permission.cwd).command_list() if c.listed_to_model]
        close = get_close_matches(inp.skill.lstrip("/"), names, n=1)
        hint = f" Did you mean {close[0]}?" if close else ""
        return ValidationResult.fail(f"Unknown skill: {inp.skill}.{hint}", "unknown_skill")
    if not command.listed_to_model:
        return ValidationResult.fail(
            f"Skill {command.name} cannot be used with the Skill tool: it sets "
            "disable-model-invocation (only the user can run it, as /" + command.name + ")",
            "model_invocation_disabled")
    return VALID


async def _check(inp: SkillInput, ctx: ToolUseContext) -> PermissionDecision:
    command = _find(inp.skill, ctx)
    if command is not None and not command.allowed_tools:
        return PermissionDecision.allow("a skill without allowed-tools only adds instructions",
                                        decided_by="tool")
    return PermissionDecision.passthrough()  # rules (`Skill(name)`) and the mode decide


def _pre_approve(allowed: tuple[str, ...]) -> Any:
    """A context modifier adding the skill's allowed-tools as allow rules for later calls."""
    rules = allow_rules(allowed)
    if not rules:
        return None

    def modify(ctx: ToolUseContext) -> ToolUseContext:
        permission = replace(ctx.permission, rules=(*ctx.permission.rules, *rules))
        return replace(ctx, permission=permission)

    return modify


async def _call(inp: SkillInput, ctx: ToolUseContext, progress: Progress) -> ToolResult:
    from claude_harness.commands.expansion import expand
    from claude_harness.tools.skill.inline import ShellExpansion, expand_shell

    command = _find(inp.skill, ctx)
    if command is None or not command.listed_to_model:
        raise ToolError(f"Unknown skill: {inp.skill}")
    expanded = expand(command, inp.args or "", session_id=ctx.session_id,
                      project_dir=ctx.cwd)
    shell_ctx = replace(ctx, permission=replace(ctx.permission, rules=(
        *ctx.permission.rules, *allow_rules(command.allowed_tools))))
    text = expanded.text
    async for item in expand_shell(expanded.text, command, shell_ctx, invoked_by="claude",
                                   disabled=ctx.options.skill_shell_disabled):
        if not isinstance(item, ShellExpansion):
            progress(item)  # the inline call's prompt or denial, shown as it happens
        elif item.refusal is not None:
            return ToolResult({"success": False, "commandName": command.name,
                               "refusal": item.refusal}, is_error=True)
        else:
            text = item.text
    data = {"success": True, "commandName": command.name,
            "allowedTools": list(command.allowed_tools), "model": command.model}
    return ToolResult(data, context_modifier=_pre_approve(command.allowed_tools),
                      extra_content=[{"type": "text", "text": text}])


def _render(data: dict[str, Any]) -> str:
    return data.get("refusal") or f"Launching skill: {data['commandName']}"


TOOL = build_tool(
    name="Skill",
    needs_conversation=True,
    description=load_prompt(__file__),
    input_model=SkillInput,
    call=_call,
    validate_input=_validate,
    check_permissions=_check,
    render_result=_render,
    permission_subject=lambda inp: inp.skill.strip().lstrip("/"),
    key_argument=lambda inp: inp.skill,
    is_concurrency_safe=lambda inp: True,
    max_result_size_chars=200_000,
)
