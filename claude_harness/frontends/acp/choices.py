"""What an ACP client may choose for a session: the permission modes (ACP session modes, and
the same as a `mode` config option), the model (a `model` config option: this protocol version
has no stable `session/set_model`), and the slash commands it may offer (built-in session
commands, custom commands and skills, MCP prompts)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from acp.schema import (
    AvailableCommand,
    AvailableCommandInput,
    SessionConfigOptionSelect,
    SessionConfigSelectOption,
    SessionMode,
    SessionModeState,
    UnstructuredCommandInput,
)

from claude_harness.commands.registry import BUILTINS, custom_commands

MODES: dict[str, tuple[str, str]] = {
    "default": ("Default", "Ask before the first edit, command or fetch of each kind"),
    "acceptEdits": ("Accept Edits", "Edit files in the project without asking"),
    "plan": ("Plan", "Read and plan only: no edits, no commands"),
    "dontAsk": ("Don't Ask", "Never ask: whatever would ask is denied"),
    "bypassPermissions": ("Bypass Permissions", "Never ask: everything is allowed"),
    "auto": ("Auto", "A classifier decides what would ask"),
}
# Commands only a screen can do (/help, /theme, /exit...) are not offered.
HIDDEN_BUILTINS = frozenset({"exit", "quit"})


def mode_ids(current: str, bypass_available: bool) -> list[str]:
    """The modes offered: bypassPermissions only when this session may use it, auto only
    when it is already the mode."""
    return [m for m in MODES if (m != "bypassPermissions" or bypass_available)
            and (m != "auto" or current == "auto")]


def mode_state(current: str, bypass_available: bool) -> SessionModeState:
    return SessionModeState(current_mode_id=current, available_modes=[
        SessionMode(id=m, name=MODES[m][0], description=MODES[m][1])
        for m in mode_ids(current, bypass_available)])


def config_options(mode: str, bypass_available: bool, model: str,
                   models: tuple[Any, ...]) -> list[SessionConfigOptionSelect]:
    """The `mode` and `model` selects (`models`: the session's ModelInfo rows)."""
    mode_option = SessionConfigOptionSelect(
        type="select", id="mode", name="Mode", category="mode", current_value=mode,
        options=[SessionConfigSelectOption(value=m, name=MODES[m][0], description=MODES[m][1])
                 for m in mode_ids(mode, bypass_available)])
    choices = [SessionConfigSelectOption(value=row.model, name=row.label or row.alias or row.model,
                                         description=row.price or None) for row in models]
    if model not in {c.value for c in choices}:
        choices.insert(0, SessionConfigSelectOption(value=model, name=model))
    model_option = SessionConfigOptionSelect(type="select", id="model", name="Model",
                                             category="model", current_value=model,
                                             options=choices)
    return [mode_option, model_option]


def available_commands(cwd: Path, mcp_prompts: tuple[Any, ...]) -> list[AvailableCommand]:
    """Every command the session runs itself (built-ins with session ops), then the custom
    commands and skills of this folder, then the MCP servers' prompts."""
    rows: list[tuple[str, str, str]] = [
        (c.name, c.description, c.arg_hint) for c in BUILTINS
        if c.to_ops is not None and c.name not in HIDDEN_BUILTINS]
    taken = {name for name, _, _ in rows}
    rows += [(c.name, c.description or "custom command", getattr(c, "argument_hint", "") or "")
             for c in custom_commands(cwd) if c.name not in taken]
    rows += [(p.name, p.description or "MCP prompt", p.argument_hint) for p in mcp_prompts]
    return [AvailableCommand(name=name, description=description or name, input=(
        AvailableCommandInput(root=UnstructuredCommandInput(hint=hint)) if hint else None))
        for name, description, hint in rows]
