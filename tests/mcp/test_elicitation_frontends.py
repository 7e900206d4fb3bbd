"""Elicitation forms as a user meets them: the schema read into fields, the REPL's line prompts,
the Textual widget driven by a pilot, and what the router lets through to the server."""

from __future__ import annotations

import asyncio
from typing import Any

from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import Checkbox, Select, SelectionList

from claude_harness.frontends.plain.elicitation import PlainElicitationHandler, field_prompt
from claude_harness.frontends.tui.widgets.elicitation_form import (
    ElicitationForm,
    WidgetElicitationHandler,
)
from claude_harness.mcp.elicitation import (
    ElicitationAnswer,
    ElicitationRequest,
    ElicitationRouter,
    apply_defaults,
    form_fields,
)
from tests.tui.helpers import wait_for

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Name", "description": "Your full name",
                 "minLength": 2},
        "age": {"type": "integer", "minimum": 0, "maximum": 150, "default": 30},
        "subscribe": {"type": "boolean", "default": True},
        "pet": {"type": "string", "enum": ["pet-1", "pet-2"], "enumNames": ["Cats", "Dogs"],
                "default": "pet-1"},
        "size": {"type": "string", "oneOf": [{"const": "s", "title": "Small"},
                                              {"const": "l", "title": "Large"}]},
        "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]},
                 "default": ["a"]},
    },
    "required": ["name"],
}
REQUEST = ElicitationRequest("crm", "Tell us about you", "form", SCHEMA)


def test_the_schema_read_into_fields() -> None:
    fields = {f.name: f for f in form_fields(SCHEMA)}
    assert list(fields) == ["name", "age", "subscribe", "pet", "size", "tags"]
    assert fields["name"].required and fields["name"].kind == "string"
    assert fields["age"].kind == "integer" and fields["age"].maximum == 150
    assert fields["pet"].kind == "choice" and fields["pet"].labels == ("Cats", "Dogs")
    assert fields["size"].options == ("s", "l") and fields["size"].labels == ("Small", "Large")
    assert fields["tags"].kind == "multi_choice" and fields["tags"].default == ["a"]
    assert apply_defaults(SCHEMA, {"name": "Al"}) == {"name": "Al", "age": 30, "subscribe": True,
                                                      "pet": "pet-1", "tags": ["a"]}
    assert field_prompt(fields["pet"]) == "pet [Cats] (1. Cats  2. Dogs): "
    assert field_prompt(fields["name"]) == "Name *: "


async def test_the_router_never_sends_content_the_schema_refuses() -> None:
    class Sloppy:
        async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer:
            return ElicitationAnswer.accept({"name": "A", "age": 900})

    router = ElicitationRouter(front_end=Sloppy())
    assert await router.answer(REQUEST) == ElicitationAnswer.cancel()

    async def reviewer(request: ElicitationRequest, answer: ElicitationAnswer) -> Any:
        return ElicitationAnswer.decline()  # an ElicitationResult hook overriding the user

    fine = ElicitationRouter(answerers=[_fixed({"name": "Bo"})], reviewers=[reviewer])
    assert await fine.answer(REQUEST) == ElicitationAnswer.decline()
    fine.reviewers.clear()
    assert (await fine.answer(REQUEST)).content == {"name": "Bo", "age": 30, "subscribe": True,
                                                     "pet": "pet-1", "tags": ["a"]}


def _fixed(content: dict[str, Any]) -> Any:
    async def answer(request: ElicitationRequest) -> ElicitationAnswer:
        return ElicitationAnswer.accept(content)

    return answer


class Lines:
    """A person at the REPL typing these lines in turn (None: Esc)."""

    def __init__(self, *lines: str | None) -> None:
        self.lines = list(lines)
        self.prompts: list[str] = []
        self.output: list[str] = []

    async def read(self, prompt: str) -> str | None:
        self.prompts.append(prompt)
        return self.lines.pop(0)


async def test_repl_form_reasks_bad_values_and_keeps_defaults() -> None:
    user = Lines("A", "Ada", "two hundred", "200", "44", "n", "dogs", "-", "1, 3")
    handler = PlainElicitationHandler(user.read, user.output.append)
    answer = await handler.elicit(REQUEST)
    assert answer == ElicitationAnswer.accept({"name": "Ada", "age": 44, "subscribe": False,
                                               "pet": "pet-2", "tags": ["a", "c"]})
    assert user.output[0] == "MCP server crm asks: Tell us about you"
    assert "  Name: at least 2 characters" in user.output
    assert "  age: enter a whole number" in user.output
    assert "  age: at most 150" in user.output
    assert user.prompts.count("Name *: ") == 2


async def test_repl_decline_cancel_and_url() -> None:
    declined = await PlainElicitationHandler(Lines(":decline").read, lambda _: None).elicit(
        REQUEST)
    assert declined == ElicitationAnswer.decline()
    cancelled = await PlainElicitationHandler(Lines("Ada", None).read, lambda _: None).elicit(
        REQUEST)
    assert cancelled == ElicitationAnswer.cancel()
    shown: list[str] = []
    link = ElicitationRequest("pay", "Confirm the payment", "url", url="https://pay.example/x")
    opened = await PlainElicitationHandler(Lines("").read, shown.append).elicit(link)
    assert opened == ElicitationAnswer.accept() and any("https://pay.example/x" in s
                                                        for s in shown)


class Host(App[None]):
    """An app with a place for the form, as the real app puts it where the input was."""

    def compose(self) -> ComposeResult:
        yield Vertical(id="dock")

    async def show(self, form: ElicitationForm) -> None:
        await self.query_one("#dock").mount(form)

    async def hide(self, form: ElicitationForm) -> None:
        await form.remove()


async def form_with_focus(pilot: Any, app: App[None]) -> ElicitationForm:
    """The form once it is up and its first field has the focus (given after the mount): the
    keys a test presses go to the form, not to whatever had the focus before."""
    def ready() -> ElicitationForm | None:
        forms = app.query(ElicitationForm)
        focused = app.focused
        return forms.first() if forms and focused is not None and \
            forms.first() in focused.ancestors_with_self else None

    return await wait_for(pilot, ready, what="the form, focused")


async def test_textual_form_submit_with_defaults_and_a_fix() -> None:
    app = Host()
    async with app.run_test(size=(100, 50)) as pilot:
        handler = WidgetElicitationHandler(app.show, app.hide)
        pending = asyncio.ensure_future(handler.elicit(REQUEST))
        form = await form_with_focus(pilot, app)
        assert app.focused is form.query_one("#eli-field-0")
        await pilot.press("A", "ctrl+s")  # too short: stays open and says why
        await pilot.pause()
        assert not pending.done()
        assert "at least 2 characters" in str(form.query_one("#eli-error").render())
        await pilot.press("d", "a")
        form.query_one("#eli-field-2", Checkbox).value = False
        form.query_one("#eli-field-4", Select).value = "l"
        form.query_one("#eli-field-5", SelectionList).select("b")
        await pilot.press("ctrl+s")
        answer = await asyncio.wait_for(pending, 5)
        await pilot.pause()
        assert answer == ElicitationAnswer.accept({"name": "Ada", "subscribe": False,
                                                   "pet": "pet-1", "size": "l",
                                                   "tags": ["a", "b"]})
        assert not app.query(ElicitationForm)  # gone once answered


async def test_textual_form_escape_cancels_and_ctrl_d_declines() -> None:
    app = Host()
    async with app.run_test(size=(100, 50)) as pilot:
        handler = WidgetElicitationHandler(app.show, app.hide)
        first = asyncio.ensure_future(handler.elicit(REQUEST))
        await form_with_focus(pilot, app)
        await pilot.press("escape")
        assert await asyncio.wait_for(first, 5) == ElicitationAnswer.cancel()
        link = ElicitationRequest("pay", "Confirm", "url", url="https://pay.example/x")
        second = asyncio.ensure_future(handler.elicit(link))
        await form_with_focus(pilot, app)
        assert "https://pay.example/x" in str(app.query_one(".eli-url").render())
        await pilot.press("ctrl+d")
        assert await asyncio.wait_for(second, 5) == ElicitationAnswer.decline()
