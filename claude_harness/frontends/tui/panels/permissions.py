"""/permissions in the app: the rules by kind (Allow, Ask, Deny: Tab or ←→ switch), each row
with where it comes from and its file; "Add a new rule…" asks for the rule and then the file to
save it in; Enter on a rule offers to remove it (managed, command-line and --settings rules are
read-only). Every change is an op; the session applies it at once and the panel lists again.
"""

from __future__ import annotations

from typing import Literal

from textual.binding import Binding
from textual.widgets import Input

from claude_harness.frontends.tui.panels.base import Close, Panel, Submit
from claude_harness.permissions.rules import parse_rule, split_rules
from claude_harness.protocol.ops import AddRule, RemoveRule
from claude_harness.protocol.panels import ListPermissionRules, PermissionRulesListed, RuleRow

KINDS = ("allow", "ask", "deny")
SOURCE_NAMES = {
    "userSettings": "User settings", "projectSettings": "Project settings",
    "localSettings": "Project settings (local)", "policySettings": "Managed settings",
    "cliArg": "Command line", "flagSettings": "--settings", "session": "This session only"}
State = Literal["list", "input", "destination", "confirm"]


class PermissionsPanel(Panel):
    BINDINGS = [
        Binding("tab", "tab(1)", show=False, priority=True),
        Binding("right", "tab(1)", show=False),
        Binding("left", "tab(-1)", show=False),
        Binding("delete", "remove", show=False),
    ]

    def __init__(self, listing: PermissionRulesListed, submit: Submit, close: Close) -> None:
        super().__init__(submit, close, name="permissions")
        self.listing = listing
        self.kind = "allow"
        self.state: State = "list"
        self.new_rule = ""

    # ── what is shown ───────────────────────────────────────────────────────────────────────

    @property
    def rules(self) -> list[RuleRow]:
        return [r for r in self.listing.rules if r.behavior == self.kind]

    def title_text(self) -> str:
        tabs = "  ".join(f"[{k.capitalize()}]" if k == self.kind else k.capitalize()
                         for k in KINDS)
        return f"Permissions: {tabs}   (mode {self.listing.mode})"

    def row_texts(self) -> list[tuple[str, str]]:
        if self.state == "destination":
            return [(d.label, d.path or "not saved") for d in self.listing.destinations]
        if self.state == "confirm":
            rule = self.rules[self.selected_rule]
            return [(f"Yes, remove {rule.rule}", _where(rule)), ("No", "")]
        if self.state == "input":
            return []
        rows = [("Add a new rule…", "")]
        rows += [(r.rule, _where(r) + ("" if r.editable else " · read-only"))
                 for r in self.rules]
        return rows

    def empty_text(self) -> str:
        return f"New {self.kind} rule:" if self.state == "input" else "(nothing to list)"

    def hint_text(self) -> str:
        return {
            "list": "↑↓ choose · Enter add / remove · Tab or ←→ Allow/Ask/Deny · Esc close",
            "input": f"Type a {self.kind} rule, e.g. Bash(npm test:*) or Read(./src/**) · "
                     "Enter next · Esc back",
            "destination": f"Where should {self.new_rule} be saved? ↑↓ or number · Enter "
                           "save · Esc back",
            "confirm": "Enter confirm · Esc keep it",
        }[self.state]

    # ── keys ────────────────────────────────────────────────────────────────────────────────

    def action_tab(self, step: int) -> None:
        if self.state != "list":
            return
        self.kind = KINDS[(KINDS.index(self.kind) + step) % len(KINDS)]
        self.selected = 0
        self.redraw()

    async def action_remove(self) -> None:
        if self.state == "list" and self.selected > 0:
            await self.chosen(self.selected)

    async def chosen(self, index: int) -> None:
        if self.state == "list":
            await self._chosen_in_list(index)
        elif self.state == "destination":
            destination = self.listing.destinations[index]
            self.submit(AddRule(self.kind, self.new_rule,  # type: ignore[arg-type]
                                destination=destination.source))
            self._relist(f"Added {self.new_rule} to {destination.label}.")
        elif self.state == "confirm":
            if index == 0:
                rule = self.rules[self.selected_rule]
                self.submit(RemoveRule(rule.rule, rule.source))
                self._relist(f"Removed {rule.rule} from {SOURCE_NAMES.get(rule.source)}.")
            else:
                await self.back()

    async def _chosen_in_list(self, index: int) -> None:
        if index == 0:
            self.state = "input"
            self.redraw()
            await self.mount(Input(placeholder="Bash(npm test:*)", id="new-rule"),
                             after=self._rows)
            self.query_one("#new-rule", Input).focus()
            return
        rule = self.rules[index - 1]
        if not rule.editable:
            self.set_status(f"{rule.rule} comes from {SOURCE_NAMES.get(rule.source)}, which "
                            "cannot be changed here.", error=True)
            return
        self.selected_rule = index - 1
        self.state = "confirm"
        self.selected = 0
        self.redraw()

    async def on_input_submitted(self, message: Input.Submitted) -> None:
        message.stop()
        text = message.value.strip()
        if not text:
            return
        try:
            for rule in split_rules(text):
                parse_rule(rule)
        except ValueError as exc:  # said here, before asking where to save it
            self.set_status(f"Not a rule: {exc}", error=True)
            return
        self.set_status("")
        self.new_rule = text
        await message.input.remove()
        self.state = "destination"
        self.selected = 0
        self.focus()
        self.redraw()

    async def back(self) -> bool:
        if self.state == "list":
            return False
        for box in self.query("#new-rule"):
            await box.remove()
        self.state = "list"
        self.selected = 0
        self.focus()
        self.redraw()
        return True

    def _relist(self, status: str) -> None:
        self.state = "list"
        self.selected = 0
        self.set_status(status)
        self.submit(ListPermissionRules())
        self.redraw()

    def listed(self, listing: PermissionRulesListed) -> None:
        self.listing = listing
        self.redraw()

    selected_rule = 0


def _where(rule: RuleRow) -> str:
    name = SOURCE_NAMES.get(rule.source, rule.source)
    return f"{name} · {rule.path}" if rule.path else name
