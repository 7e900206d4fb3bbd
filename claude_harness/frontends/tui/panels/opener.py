"""Opens the /config, /permissions and /hooks panels in the dock and hands them the session's
answers. `open(name)` asks the session for the listing (an op); the listing, when it arrives,
is drawn as the panel; later answers (a setting saved, the rules listed again) go to the open
panel. The theme is the app's own: a saved `theme` change is applied here.
"""

from __future__ import annotations

from typing import Any

from claude_harness.frontends.tui.panels.base import Panel
from claude_harness.protocol.panels import (
    HooksListed,
    ListHooks,
    ListPermissionRules,
    ListSettings,
    PermissionRulesListed,
    SettingChanged,
    SettingsListed,
)

ASKS = {"config": ListSettings, "permissions": ListPermissionRules, "hooks": ListHooks}


class PanelOpener:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.wanted: set[str] = set()

    def open(self, name: str) -> None:
        app = self.app
        if not app.has_session or not app.ready:
            app.notify("Still starting; try again in a moment.")
            return
        self.wanted.add(name)
        app.submit(ASKS[name]())

    def _open_panel(self, name: str) -> Panel | None:
        dock = self.app.dock
        return next((c for c in dock.children if isinstance(c, Panel) and c.name == name), None) \
            if dock is not None else None

    async def _close(self, panel: Panel) -> None:
        await self.app.dock.close(panel)

    async def _show(self, name: str, make: Any) -> None:
        """Draw the listing as a new panel when one was asked for (else refresh an open one)."""
        if name not in self.wanted:
            return
        self.wanted.discard(name)
        old = self._open_panel(name)
        if old is not None:
            await old.remove()
        await self.app.dock.show(make())

    async def on_event(self, event: Any) -> None:
        submit, close = self.app.submit, self._close
        match event:
            case SettingsListed(rows=rows):
                from claude_harness.frontends.tui.panels.config import ConfigPanel

                await self._show("config", lambda: ConfigPanel(rows, submit, close))
            case SettingChanged():
                await self._setting_changed(event)
            case PermissionRulesListed():
                from claude_harness.frontends.tui.panels.permissions import PermissionsPanel

                panel = self._open_panel("permissions")
                if panel is not None and "permissions" not in self.wanted:
                    panel.listed(event)  # type: ignore[attr-defined]
                    return
                await self._show("permissions", lambda: PermissionsPanel(event, submit, close))
            case HooksListed():
                from claude_harness.frontends.tui.panels.hooks import HooksPanel

                await self._show("hooks", lambda: HooksPanel(event, submit, close))

    async def _setting_changed(self, event: SettingChanged) -> None:
        """The theme, and verbose (the app's details: tool output and thinking shown in full,
        as Ctrl+O shows them), are the front end's to apply; the rest the session applied."""
        if event.key == "theme" and not event.error:
            self.app.apply_theme(str(event.value))
        if event.key == "verbose" and not event.error and self.app.details != bool(event.value):
            self.app.action_toggle_details()
        panel = self._open_panel("config")
        if panel is not None:
            panel.changed(event)  # type: ignore[attr-defined]
        elif not event.error:  # `/config key=value` (a refusal came as a Notice too)
            await self.app.post_notice(event.message)


def opener_for(app: Any) -> PanelOpener:
    """The app's one opener, made on the first panel."""
    opener = getattr(app, "_panel_opener", None)
    if opener is None:
        opener = PanelOpener(app)
        app._panel_opener = opener
    return opener
