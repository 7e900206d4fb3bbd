"""/agents in the app: the sub-agent types by source (project `.claude/agents/`, user
`~/.claude/agents/`, plugins, `--agents`, built-in) with their tools and model; Enter opens
one (its file, description, prompt) where a project or user agent can be deleted; "Create new
agent" asks where (project or personal), then its name, description, tools, model and system
prompt, and writes the file in Claude Code's format (ops.CreateAgent).

The panel sends ops and draws the Reports answering `Describe("agent_list")`; the files are
written by the session (session/services/agent_panel.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from claude_harness.protocol import ops
from claude_harness.protocol.events import Notice, Report

TOPIC = "agent_list"
SOURCES = (("flag", "CLI agents (--agents)"), ("project", "Project agents (.claude/agents/)"),
           ("user", "Personal agents (~/.claude/agents/)"), ("plugin", "Plugin agents"),
           ("built-in", "Built-in agents"))
SCOPE_CHOICES = (("project", "Project (.claude/agents/)"),
                 ("user", "Personal (~/.claude/agents/)"))
HINTS = {"list": "↑/↓ choose · Enter to view · Esc to close",
         "agent": "↑/↓ choose · Enter to select · Esc to go back",
         "scope": "Where should the new agent live? · Enter to choose · Esc to go back",
         "form": "Tab next field · Ctrl+S create the agent · Esc to go back"}
FIELDS = (("agent-name", "name (lowercase-with-dashes)"),
          ("agent-description", "description: when should the model use this agent?"),
          ("agent-tools", "tools, comma-separated (empty: every tool)"),
          ("agent-model", "model: sonnet, opus, haiku or an id (empty: inherit)"))


def agent_details(row: dict[str, Any]) -> str:
    lines = [row["name"], "",
             f"Source:       {row['scope']}", f"File:         {row['path'] or '(none)'}",
             f"Description:  {row['description']}", f"Tools:        {row['tools']}",
             f"Model:        {row['model']}"]
    if row["color"]:
        lines.append(f"Colour:       {row['color']}")
    if not row["in_session"]:
        lines.append("(new: offered to the model from the next session)")
    prompt = (row["prompt"] or "(empty)").splitlines()
    lines += ["", "System prompt:", *prompt[:12]]
    if len(prompt) > 12:
        lines.append(f"… {len(prompt) - 12} more lines")
    return "\n".join(lines)


class AgentsPanel(ModalScreen[None]):
    DEFAULT_CSS = """
    AgentsPanel { align: center middle; }
    AgentsPanel > Vertical {
        width: 90%; max-width: 120; height: auto; max-height: 95%;
        border: round $primary; background: $surface; padding: 0 1;
    }
    AgentsPanel .panel-title { text-style: bold; color: $primary; }
    AgentsPanel #agents-body { height: auto; }
    AgentsPanel #agents-message { height: auto; color: $warning; }
    AgentsPanel OptionList { height: auto; max-height: 24; border: none; }
    AgentsPanel #agents-form { height: auto; display: none; }
    AgentsPanel #agents-form Input, AgentsPanel #agents-form Input:focus {
        border: none; height: 1; padding: 0; margin: 0 0 1 0; background: $boost;
    }
    AgentsPanel #agent-prompt { height: 6; border: none; background: $boost; }
    AgentsPanel .panel-hint { color: $text-muted; }
    """
    BINDINGS = [Binding("escape", "back", "Back"), Binding("ctrl+s", "create", "Create")]

    def __init__(self, submit: Callable[[ops.Op], None]) -> None:
        super().__init__()
        self.submit = submit
        self.rows: list[dict[str, Any]] = []
        self.mode = "list"  # list -> agent | scope -> form
        self.agent = ""
        self.scope = "project"
        self.confirming = False

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Agents", classes="panel-title", id="agents-title")
            yield Static("Asking the session…", id="agents-body")
            yield Static("", id="agents-message")
            yield OptionList(id="agents-choices")
            with Vertical(id="agents-form"):
                for widget_id, placeholder in FIELDS:
                    yield Input(placeholder=placeholder, id=widget_id)
                yield Static("System prompt:")
                yield TextArea(id="agent-prompt")
            yield Static(HINTS["list"], classes="panel-hint", id="agents-hint")

    def on_mount(self) -> None:
        self.submit(ops.Describe(TOPIC))
        self.query_one(OptionList).focus()

    # ── what the session answers ───────────────────────────────────────────────────────────

    def receive(self, event: Any) -> bool:
        if isinstance(event, Report) and event.topic == TOPIC:
            self.rows = list(event.data or [])
            if self.mode == "form":  # the new file is written: back to the list
                self.mode = "list"
            self._draw()
            return True
        if isinstance(event, Notice) and self.is_attached:
            self.query_one("#agents-message", Static).update(event.text)
        return False

    def _row(self) -> dict[str, Any] | None:
        return next((r for r in self.rows if r["name"] == self.agent), None)

    def _draw(self) -> None:
        row = self._row()
        if self.mode == "agent" and row is None:
            self.mode = "list"
        form = self.query_one("#agents-form")
        form.display = self.mode == "form"
        choices = self.query_one(OptionList)
        choices.display = self.mode != "form"
        body, options = {"list": self._list, "agent": self._agent, "scope": self._scopes,
                         "form": self._form}[self.mode](row)
        self.query_one("#agents-body", Static).update(body)
        self.query_one("#agents-hint", Static).update(HINTS[self.mode])
        choices.clear_options()
        choices.add_options(options)
        enabled = [i for i, o in enumerate(options) if not o.disabled]
        choices.highlighted = enabled[0] if enabled else None
        (self.query_one("#agent-name", Input) if self.mode == "form" else choices).focus()

    def _list(self, _row: Any) -> tuple[str, list[Option]]:
        options = [Option("Create new agent", id="create")]
        for scope, heading in SOURCES:
            members = [r for r in self.rows if r["scope"] == scope]
            if members:
                options.append(Option(heading, disabled=True))
                options += [Option(f"  {r['name']} · {r['tools']} · {r['model']}",
                                   id=f"agent:{r['name']}") for r in members]
        count = len(self.rows)
        return f"{count} agent{'s' if count != 1 else ''}", options

    def _agent(self, row: Any) -> tuple[str, list[Option]]:
        if self.confirming:
            return (f"Delete {row['path']}?",
                    [Option("Yes, delete", id="act:really-delete"), Option("No", id="act:back")])
        actions = ([Option("Delete agent", id="act:delete")] if row["deletable"] else [])
        return agent_details(row), [*actions, Option("Back", id="act:back")]

    def _scopes(self, _row: Any) -> tuple[str, list[Option]]:
        return "Create new agent", [Option(label, id=f"scope:{scope}")
                                    for scope, label in SCOPE_CHOICES]

    def _form(self, _row: Any) -> tuple[str, list[Option]]:
        where = dict(SCOPE_CHOICES)[self.scope]
        return f"New agent in {where}", []

    # ── what the person does ───────────────────────────────────────────────────────────────

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        kind, _, value = (event.option.id or "").partition(":")
        self.query_one("#agents-message", Static).update("")
        if kind == "create":
            self.mode = "scope"
        elif kind == "agent":
            self.mode, self.agent, self.confirming = "agent", value, False
        elif kind == "scope":
            self.mode, self.scope = "form", value
            for widget_id, _ in FIELDS:
                self.query_one(f"#{widget_id}", Input).value = ""
            self.query_one("#agent-prompt", TextArea).text = ""
        elif value == "delete":
            self.confirming = True
        elif value == "really-delete":
            self.submit(ops.DeleteAgent(self.agent))
            self.mode, self.confirming = "list", False
        elif value == "back":
            self.mode = "list" if not self.confirming else "agent"
            self.confirming = False
        self._draw()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a field moves on to the next one (the prompt's box last)."""
        event.stop()
        self.focus_next()

    def action_create(self) -> None:
        if self.mode != "form":
            return
        value = {widget_id: self.query_one(f"#{widget_id}", Input).value.strip()
                 for widget_id, _ in FIELDS}
        tools = tuple(t.strip() for t in value["agent-tools"].split(",") if t.strip())
        self.submit(ops.CreateAgent(
            self.scope, value["agent-name"], value["agent-description"],  # type: ignore[arg-type]
            self.query_one("#agent-prompt", TextArea).text, tools, value["agent-model"]))

    def action_back(self) -> None:
        if self.mode == "list":
            self.dismiss(None)
            return
        if self.mode == "agent" and self.confirming:
            self.confirming = False
        else:
            self.mode = {"agent": "list", "scope": "list", "form": "scope"}[self.mode]
        self._draw()
