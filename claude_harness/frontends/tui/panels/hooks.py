"""/hooks in the app, read-only as in Claude Code 2.1: every hook event with how many hooks it
has; Enter lists an event's hooks (matcher, command, source file), Enter again shows one in full;
Esc steps back. Hooks are changed by editing settings.json, as the footer says."""

from __future__ import annotations

from claude_harness.frontends.tui.panels.base import Close, Panel, Submit
from claude_harness.protocol.panels import HookRow, HooksListed

READ_ONLY = ("This menu is read-only. To add or change a hook, edit settings.json or ask "
             "Claude.")


class HooksPanel(Panel):
    def __init__(self, listing: HooksListed, submit: Submit, close: Close) -> None:
        super().__init__(submit, close, name="hooks")
        self.listing = listing
        self.event: str | None = None
        self.hook: HookRow | None = None
        self._event_index = 0
        self._hook_index = 0

    def _hooks(self, event: str) -> list[HookRow]:
        return [h for h in self.listing.hooks if h.event == event]

    def title_text(self) -> str:
        if self.hook is not None:
            return f"Hooks › {self.hook.event} › {self.hook.matcher or '*'}"
        if self.event is not None:
            return f"Hooks › {self.event}"
        total = len(self.listing.hooks)
        return f"Hooks ({total} configured)" + (
            " · disableAllHooks is set: none of them run" if self.listing.disabled else "")

    def row_texts(self) -> list[tuple[str, str]]:
        hook = self.hook
        if hook is not None:
            rows = [(f"Event: {hook.event}", ""), (f"Matcher: {hook.matcher or '*'}", ""),
                    (f"Command: {hook.command}", ""), (f"Source: {hook.source}", "")]
            return rows + ([(f"Note: {hook.note}", "")] if hook.note else [])
        if self.event is not None:
            return [(f"[{h.matcher or '*'}] {h.command}", h.source + (
                f" · {h.note}" if h.note else "")) for h in self._hooks(self.event)] or [
                ("No hooks for this event yet", "")]
        return [(event, f"{len(self._hooks(event))} hook(s)" if self._hooks(event) else "")
                for event in self.events]

    @property
    def events(self) -> list[str]:
        """Events with hooks first (in Claude Code's order), then the rest."""
        used = {h.event for h in self.listing.hooks}
        return [e for e in self.listing.events if e in used] + [
            e for e in self.listing.events if e not in used]

    @property
    def plain_rows(self) -> bool:
        return self.hook is not None

    def hint_text(self) -> str:
        return f"{READ_ONLY}\n↑↓ choose · Enter open · Esc back"

    async def chosen(self, index: int) -> None:
        if self.hook is not None:
            return
        if self.event is None:
            self._event_index = index
            self.event = self.events[index]
            self.selected = 0
        else:
            hooks = self._hooks(self.event)
            if not hooks:
                return
            self._hook_index = index
            self.hook = hooks[index]
            self.selected = 0
        self.redraw()

    async def back(self) -> bool:
        if self.hook is not None:
            self.hook, self.selected = None, self._hook_index
        elif self.event is not None:
            self.event, self.selected = None, self._event_index
        else:
            return False
        self.redraw()
        return True
