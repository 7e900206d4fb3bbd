"""/mcp in the app: the MCP servers by scope, each with its status (connected, failed and why,
needs authentication, disabled, pending approval, connecting) and tool count; Enter opens a
server (where it is configured, what it offers) with its actions: view tools, reconnect,
disable in this project / enable (saved as Claude Code saves it), approve, authenticate.

The panel only sends ops and draws the Reports that answer `Describe("mcp_servers")`; it asks
again every second while open, so a server that connects or fails shows without a key.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from claude_harness.protocol import ops
from claude_harness.protocol.events import Notice, Report

TOPIC = "mcp_servers"
GLYPHS = {"connected": "✔", "failed": "✘", "needs-auth": "△", "disabled": "◯",
          "needs-approval": "?", "pending": "…", "closed": "◯"}
SCOPES = (("local", "Local MCPs"), ("project", "Project MCPs (.mcp.json)"),
          ("user", "User MCPs"), ("cli", "--mcp-config MCPs"), ("sdk", "SDK MCPs"))
ACTION_LABELS = {"tools": "View tools", "reconnect": "Reconnect",
                 "disable": "Disable in this project", "enable": "Enable",
                 "approve": "Approve (start it in this project)",
                 "authenticate": "Authenticate", "back": "Back"}
HINTS = {"list": "↑/↓ choose · Enter to view · Esc to close",
         "server": "↑/↓ choose · Enter to select · Esc to go back",
         "tools": "↑/↓ choose a tool to read its description · Esc to go back"}


def status_label(row: dict[str, Any]) -> str:
    """`✔ connected`, `✘ failed`, `△ needs authentication`..."""
    return f"{GLYPHS.get(row['status'], '·')} {row['status_text']}"


def list_label(row: dict[str, Any]) -> str:
    """One server in the list: its glyph, name, then tools or what keeps it from them."""
    count = len(row["tools"])
    tail = f"{count} tool{'s' if count != 1 else ''}" if row["status"] == "connected" \
        else row["status_text"]
    return f"{GLYPHS.get(row['status'], '·')} {row['name']}   {tail}"


def server_details(row: dict[str, Any]) -> str:
    """The open server's facts, as lines of `Label:  value`."""
    offers = [f"{len(row['tools'])} tools"] + (["resources"] if row["resources"] else [])
    lines = [row["name"], "MCP server", "",
             f"Status:           {status_label(row)}",
             f"{'URL:' if row['transport'] != 'stdio' else 'Command:':<18}{row['target']}",
             f"Transport:        {row['transport']}", f"Scope:            {row['scope']}",
             f"Config location:  {row['location']}"]
    if row["status"] == "connected":
        lines.append(f"Capabilities:     {' · '.join(offers)}")
    if row["error"]:
        lines.append(f"Error:            {row['error'].splitlines()[0]}")
        lines += [f"                  {more}" for more in row["error"].splitlines()[1:4]]
    return "\n".join(lines)


class McpPanel(ModalScreen[None]):
    DEFAULT_CSS = """
    McpPanel { align: center middle; }
    McpPanel > Vertical {
        width: 90%; max-width: 120; height: auto; max-height: 90%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    McpPanel .panel-title { text-style: bold; color: $primary; }
    McpPanel #mcp-body { height: auto; }
    McpPanel #mcp-message { height: auto; color: $warning; }
    McpPanel #mcp-choices { height: auto; max-height: 24; border: none; }
    McpPanel .panel-hint { color: $text-muted; }
    """
    BINDINGS = [Binding("escape", "back", "Back")]

    def __init__(self, submit: Callable[[ops.Op], None]) -> None:
        super().__init__()
        self.submit = submit
        self.rows: list[dict[str, Any]] = []
        self.mode = "list"  # list -> server -> tools
        self.server = ""  # the open server's name
        self.message = ""
        self._drawn: tuple[Any, ...] = ()

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("MCP servers", classes="panel-title", id="mcp-title")
            yield Static("Asking the session…", id="mcp-body")
            yield Static("", id="mcp-message")
            yield OptionList(id="mcp-choices")
            yield Static(HINTS["list"], classes="panel-hint", id="mcp-hint")

    def on_mount(self) -> None:
        self.submit(ops.Describe(TOPIC))
        self.set_interval(1.0, lambda: self.submit(ops.Describe(TOPIC)))
        self.query_one(OptionList).focus()

    # ── what the session answers ───────────────────────────────────────────────────────────

    def receive(self, event: Any) -> bool:
        if isinstance(event, Report) and event.topic == TOPIC:
            self.rows = list(event.data or [])
            self._draw()
            return True
        if isinstance(event, Notice) and self.is_attached:
            self.message = event.text
            self.query_one("#mcp-message", Static).update(self.message)
        return False

    def _row(self) -> dict[str, Any] | None:
        return next((r for r in self.rows if r["name"] == self.server), None)

    def _draw(self) -> None:
        row = self._row()
        if self.mode != "list" and row is None:
            self.mode = "list"
        key = (self.mode, self.server, repr(self.rows) if self.mode == "list" else repr(row))
        if key == self._drawn:
            return  # the same picture: keep the highlight where the person left it
        self._drawn = key
        body, options = {"list": self._list, "server": self._server,
                         "tools": self._tools}[self.mode](row)
        self.query_one("#mcp-body", Static).update(body)
        self.query_one("#mcp-hint", Static).update(HINTS[self.mode])
        choices = self.query_one(OptionList)
        keep = choices.highlighted
        choices.clear_options()
        choices.add_options(options)
        enabled = [i for i, o in enumerate(options) if not o.disabled]
        if enabled:
            choices.highlighted = keep if keep in enabled else enabled[0]

    def _list(self, _row: Any) -> tuple[str, list[Option]]:
        if not self.rows:
            return ("No MCP servers configured. Add one with `claude-harness mcp add`, in "
                    ".mcp.json, or with --mcp-config.", [])
        count = len(self.rows)
        options: list[Option] = []
        known = {s for s, _ in SCOPES}
        groups = [*SCOPES, *((s, f"{s} MCPs") for s in dict.fromkeys(
            r["scope"] for r in self.rows) if s not in known)]
        for scope, heading in groups:
            members = [r for r in self.rows if r["scope"] == scope]
            if not members:
                continue
            where = f" ({members[0]['location']})" if scope in ("local", "user") else ""
            options.append(Option(f"{heading}{where}", disabled=True))
            options += [Option("  " + list_label(r), id=f"server:{r['name']}") for r in members]
        return f"{count} server{'s' if count != 1 else ''}", options

    def _server(self, row: Any) -> tuple[str, list[Option]]:
        actions = [*row["actions"], "back"]
        return server_details(row), [Option(ACTION_LABELS[a], id=f"act:{a}") for a in actions]

    def _tools(self, row: Any) -> tuple[str, list[Option]]:
        tools = row["tools"]
        if not tools:
            return f"{row['name']} offers no tools.", []
        return (f"Tools of {row['name']} ({len(tools)})",
                [Option(t["name"], id=f"tool:{i}") for i, t in enumerate(tools)])

    # ── what the person does ───────────────────────────────────────────────────────────────

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        row = self._row()
        key = event.option.id or ""
        if self.mode == "tools" and row is not None and key.startswith("tool:"):
            tool = row["tools"][int(key.split(":", 1)[1])]
            self.query_one("#mcp-message", Static).update(
                tool["description"] or "(no description)")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        kind, _, value = (event.option.id or "").partition(":")
        if kind == "server":
            self._open("server", value)
        elif kind == "act":
            self._act(value)

    def _open(self, mode: str, server: str | None = None) -> None:
        self.mode = mode
        if server is not None:
            self.server = server
        self.message = ""
        self.query_one("#mcp-message", Static).update("")
        self._drawn = ()
        self.query_one(OptionList).highlighted = None
        self._draw()

    def _act(self, action: str) -> None:
        name = self.server
        if action == "back":
            self._open("list")
        elif action == "tools":
            self._open("tools")
        elif action == "authenticate":
            self.submit(ops.McpAuthenticate(name))
            self.dismiss(None)  # the link to open shows in the conversation
        else:
            self.submit(ops.McpServer(action, name))  # type: ignore[arg-type]
            self.submit(ops.Describe(TOPIC))

    def action_back(self) -> None:
        if self.mode == "tools":
            self._open("server")
        elif self.mode == "server":
            self._open("list")
        else:
            self.dismiss(None)
