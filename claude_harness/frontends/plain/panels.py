"""/config, /permissions and /hooks in the REPL: numbered lists with actions, the line form of
the app's panels. Each asks the session for its listing (an op), prints it, reads a number or
a letter, and sends the change as an op; the session applies and saves it as it does for the
app. `/config <n>` and `/permissions remove <n>` act on the last list printed.
"""

from __future__ import annotations

from typing import Any

from claude_harness.frontends.plain.answers import Answers
from claude_harness.protocol.ops import AddRule, RemoveRule
from claude_harness.protocol.panels import (
    ChangeSetting,
    HooksListed,
    ListHooks,
    ListPermissionRules,
    ListSettings,
    PermissionRulesListed,
    SettingChanged,
    SettingRow,
    SettingsListed,
)

ACTIONS = {"config", "permissions", "hooks"}
KINDS = ("allow", "ask", "deny")
SOURCE_NAMES = {
    "userSettings": "User settings", "projectSettings": "Project settings",
    "localSettings": "Project settings (local)", "policySettings": "Managed settings",
    "cliArg": "Command line", "flagSettings": "--settings", "session": "This session only"}
HOOKS_READ_ONLY = ("This list is read-only. To add or change a hook, edit settings.json or "
                   "ask Claude.")


def shown(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def file_name(path: str) -> str:
    """A short name for a settings file, explained once under the list."""
    if path.endswith("settings.local.json"):
        return "local settings"
    if path.endswith(".claude.json"):
        return "global config"
    return "user settings"


class PlainPanels:
    def __init__(self, repl: Any) -> None:
        self.repl = repl  # the PlainRepl: its session (submit only), output and input side
        self.answers = Answers(repl)
        self.settings: tuple[SettingRow, ...] = ()
        self.rules: list[Any] = []

    @property
    def out(self) -> Any:
        return self.repl.out

    async def on_event(self, event: Any) -> None:
        if isinstance(event, SettingChanged) and not event.error:
            self._apply(event)
        if self.answers.take(event):
            return
        if isinstance(event, SettingChanged):  # `/config key=value`
            self.out.line(event.message, "ch.error" if event.error else "ch.dim")

    def _apply(self, event: SettingChanged) -> None:
        """What the REPL itself draws from a setting: verbose (thinking text and server tools'
        URLs printed) and the theme's colours for what is printed from now on; the session
        applied the rest. Before, /config saved both but the REPL went on as it was."""
        if event.key == "verbose":
            self.out.verbose = bool(event.value)
        elif event.key == "theme":
            from claude_harness.frontends.plain.theme import load_theme  # a rare change

            theme, warning = load_theme(str(event.value))
            if warning is None:
                self.out.console.push_theme(theme.rich_theme())

    async def ask(self, prompt: str) -> str:
        return ((await self.repl.input.ask_line(prompt)) or "").strip()

    async def run(self, action: str, args: str) -> None:
        if action == "config":
            await self.config(args)
        elif action == "permissions":
            await self.permissions(args)
        elif action == "hooks":
            await self.hooks()

    # ── /config ─────────────────────────────────────────────────────────────────────────────

    async def config(self, args: str) -> None:
        words = args.split(maxsplit=1)
        if words and words[0].isdigit():  # `/config 3 [value]`: a row of the last list
            await self._change(int(words[0]), words[1] if len(words) > 1 else None)
            return
        while await self._print_settings():
            answer = await self.ask(f"Change which (1-{len(self.settings)}, Enter to finish): ")
            if not answer.isdigit():
                return
            await self._change(int(answer), None)

    async def _print_settings(self) -> bool:
        listed = await self.answers.request(ListSettings(), SettingsListed)
        if listed is None:
            return False
        self.settings = listed.rows
        width = max(len(r.label) for r in listed.rows)
        self.out.line("Settings (saved where Claude Code saves them):", "ch.accent")
        for number, row in enumerate(listed.rows, 1):
            self.out.line(f"  {number:>2}. {row.label:<{width}}  {shown(row.value):<18} "
                          f"({file_name(row.path)})")
            if row.note:
                self.out.line(f"      {row.note}", "ch.dim")
        for path in dict.fromkeys(row.path for row in listed.rows):
            self.out.line(f"  {file_name(path)}: {path}", "ch.dim")
        return True

    async def _change(self, number: int, value: str | None) -> None:
        if not 1 <= number <= len(self.settings):
            self.out.line("No such setting: /config lists them.", "ch.error")
            return
        row = self.settings[number - 1]
        new: Any = value
        if new is None and isinstance(row.value, bool):
            new = not row.value
        elif new is None and row.options:
            for index, option in enumerate(row.options, 1):
                mark = " ✔" if option == row.value else ""
                self.out.line(f"     {index}. {shown(option)}{mark}")
            picked = await self.ask(f"{row.label} (1-{len(row.options)}, Enter to keep): ")
            if not (picked.isdigit() and 1 <= int(picked) <= len(row.options)):
                return
            new = row.options[int(picked) - 1]
        elif new is None:
            new = await self.ask(f"{row.label}: ")
            if not new:
                return
        answer = await self.answers.request(ChangeSetting(row.key, new), SettingChanged)
        if answer is not None:
            self.out.line(answer.message, "ch.error" if answer.error else "ch.dim")

    # ── /permissions ────────────────────────────────────────────────────────────────────────

    async def permissions(self, args: str) -> None:
        verb, _, rest = args.partition(" ")
        if verb == "remove" and rest.strip().isdigit():
            if not self.rules:
                await self._print_rules()
            await self._remove(int(rest.strip()))
            return
        while (listed := await self._print_rules()) is not None:
            answer = (await self.ask("a add a rule · a rule's number removes it · Enter "
                                     "done: ")).lower()
            if answer == "a":
                await self._add(listed)
            elif answer.isdigit():
                await self._remove(int(answer))
            else:
                return

    async def _print_rules(self) -> PermissionRulesListed | None:
        listed = await self.answers.request(ListPermissionRules(), PermissionRulesListed)
        if listed is None:
            return None
        self.rules = []
        self.out.line(f"Permission rules (mode {listed.mode}):", "ch.accent")
        for kind in KINDS:
            rows = [r for r in listed.rules if r.behavior == kind]
            self.out.line(f"  {kind.capitalize()}:" + ("" if rows else " (none)"))
            for row in rows:
                self.rules.append(row)
                where = SOURCE_NAMES.get(row.source) or row.source
                where += f" · {row.path}" if row.path else ""
                lock = "" if row.editable else " · read-only"
                self.out.line(f"    {len(self.rules)}. {row.rule}  ({where}{lock})")
        return listed

    async def _add(self, listed: PermissionRulesListed) -> None:
        kind = await self.ask("Kind: 1 allow · 2 ask · 3 deny: ")
        if kind not in ("1", "2", "3"):
            return
        rule = await self.ask("Rule, e.g. Bash(npm test:*): ")
        if not rule:
            return
        for number, place in enumerate(listed.destinations, 1):
            self.out.line(f"     {number}. {place.label}" + (f"  ({place.path})"
                                                              if place.path else ""))
        where = await self.ask(f"Save to (1-{len(listed.destinations)}): ")
        if not (where.isdigit() and 1 <= int(where) <= len(listed.destinations)):
            return
        destination = listed.destinations[int(where) - 1].source
        await self.repl.follow(AddRule(KINDS[int(kind) - 1], rule,  # type: ignore[arg-type]
                                       destination=destination))

    async def _remove(self, number: int) -> None:
        if not 1 <= number <= len(self.rules):
            self.out.line("No such rule: /permissions lists them.", "ch.error")
            return
        row = self.rules[number - 1]
        if not row.editable:
            self.out.line(f"{row.rule} comes from {SOURCE_NAMES.get(row.source)}, which "
                          "cannot be changed here.", "ch.error")
            return
        await self.repl.follow(RemoveRule(row.rule, row.source))

    # ── /hooks ──────────────────────────────────────────────────────────────────────────────

    async def hooks(self) -> None:
        listed = await self.answers.request(ListHooks(), HooksListed)
        if listed is None:
            return
        if not listed.hooks:
            self.out.line("No hooks are configured.", "ch.dim")
        if listed.disabled:
            self.out.line("disableAllHooks is set: none of these run.", "ch.warning")
        number = 0
        for event in listed.events:
            rows = [h for h in listed.hooks if h.event == event]
            if rows:
                self.out.line(f"  {event}:", "ch.accent")
            for row in rows:
                number += 1
                self.out.line(f"    {number}. [{row.matcher or '*'}] {row.command}")
                note = f" · {row.note}" if row.note else ""
                self.out.line(f"       from {row.source}{note}", "ch.dim")
        self.out.line(HOOKS_READ_ONLY, "ch.dim")
