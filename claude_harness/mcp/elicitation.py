"""The `elicitation` client capability: a server asks the user for input in the middle of a call.

Form mode carries a flat JSON Schema (strings, numbers, integers, booleans, single and multiple
choice, each with an optional default); URL mode carries a link the user should open. Who answers,
in order (the first that gives an answer wins):

  1. `Elicitation` hooks (Claude Code's hook event: `hookSpecificOutput.action` / `content`)
  2. a program driving the session (the Agent SDK's `onElicitation`, sent as a control request)
  3. the front end's form (the app's widget, the REPL's line prompt): an `ElicitationHandler`
  4. nobody: the request is cancelled (`-p` without hooks or an SDK callback), as Claude Code does

Then `ElicitationResult` hooks may override the answer before it goes back. An accepted form's
content gets the schema's defaults for the fields left out and is checked against the schema;
content that does not fit is never sent (the server gets a `cancel`).

Front ends implement `ElicitationHandler` and render `request.fields()`; they call `parse_value`
for each typed answer and `ElicitationAnswer.accept(values)`; `apply_defaults` is done here.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

if TYPE_CHECKING:
    from mcp.client.session import ElicitationFnT

Action = Literal["accept", "decline", "cancel"]
Mode = Literal["form", "url"]
Kind = Literal["string", "number", "integer", "boolean", "choice", "multi_choice"]


@dataclass(frozen=True)
class FormField:
    """One property of a form-mode schema, ready to render."""

    name: str
    kind: Kind
    title: str
    description: str = ""
    required: bool = False
    default: Any = None
    options: tuple[str, ...] = ()  # choice / multi_choice values
    labels: tuple[str, ...] = ()  # their display names (same length as options)
    minimum: float | None = None
    maximum: float | None = None
    min_length: int | None = None
    max_length: int | None = None
    format: str | None = None  # email, uri, date, date-time

    @property
    def has_default(self) -> bool:
        return self.default is not None

    def label_of(self, value: str) -> str:
        return self.labels[self.options.index(value)] if value in self.options else value


@dataclass(frozen=True)
class ElicitationRequest:
    """What a server asked, as front ends, hooks and the SDK bridge see it."""

    server: str
    message: str
    mode: Mode = "form"
    schema: dict[str, Any] = field(default_factory=dict)
    url: str | None = None
    elicitation_id: str | None = None

    def fields(self) -> list[FormField]:
        return form_fields(self.schema)

    def hook_payload(self) -> dict[str, Any]:
        """The `Elicitation` hook input (Claude Code's field names)."""
        payload: dict[str, Any] = {"mcp_server_name": self.server, "message": self.message,
                                   "mode": self.mode}
        if self.mode == "url":
            payload["url"] = self.url
        else:
            payload["requested_schema"] = self.schema
        if self.elicitation_id:
            payload["elicitation_id"] = self.elicitation_id
        return payload

    def control_request(self) -> dict[str, Any]:
        """The Agent SDK's `elicitation` control request body."""
        body = {"subtype": "elicitation", **self.hook_payload()}
        properties = self.schema.get("properties")
        if self.mode == "form" and isinstance(properties, dict):
            body["property_order"] = list(properties)
        return body


@dataclass(frozen=True)
class ElicitationAnswer:
    action: Action
    content: dict[str, Any] | None = None

    @classmethod
    def accept(cls, content: dict[str, Any] | None = None) -> ElicitationAnswer:
        return cls("accept", dict(content or {}))

    @classmethod
    def decline(cls) -> ElicitationAnswer:
        return cls("decline")

    @classmethod
    def cancel(cls) -> ElicitationAnswer:
        return cls("cancel")

    @classmethod
    def from_json(cls, data: Any) -> ElicitationAnswer | None:
        """`{"action": ..., "content": {...}}` from a hook or the SDK; None when malformed."""
        if not isinstance(data, dict) or data.get("action") not in ("accept", "decline", "cancel"):
            return None
        content = data.get("content")
        return cls(data["action"], dict(content) if isinstance(content, dict) else None)


class ElicitationHandler(Protocol):
    """What a front end implements: show the request, return the user's answer."""

    async def elicit(self, request: ElicitationRequest) -> ElicitationAnswer: ...


# An answerer that may pass: hooks and the SDK bridge return None when they have no answer.
Answerer = Callable[[ElicitationRequest], Awaitable[ElicitationAnswer | None]]
# An ElicitationResult hook: sees the answer, may return another one.
Reviewer = Callable[[ElicitationRequest, ElicitationAnswer], Awaitable[ElicitationAnswer | None]]


# ── the schema ────────────────────────────────────────────────────────────────────────────────


def _choices(prop: dict[str, Any]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(values, labels) of `enum` (+ legacy `enumNames`) or `oneOf`/`anyOf` of `{const, title}`."""
    if isinstance(prop.get("enum"), list):
        values = tuple(str(v) for v in prop["enum"])
        names = prop.get("enumNames")
        labels = (tuple(str(n) for n in names) if isinstance(names, list)
                  and len(names) == len(values) else values)
        return values, labels
    for key in ("oneOf", "anyOf"):
        items = prop.get(key)
        if isinstance(items, list) and all(isinstance(i, dict) and "const" in i for i in items):
            values = tuple(str(i["const"]) for i in items)
            return values, tuple(str(i.get("title", i["const"])) for i in items)
    return (), ()


def _field(name: str, prop: dict[str, Any], required: bool) -> FormField:
    kind: Kind
    options: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    typ = prop.get("type")
    if typ == "array":
        given = prop.get("items")
        items: dict[str, Any] = given if isinstance(given, dict) else {}
        options, labels = _choices(items)
        kind = "multi_choice"
    elif typ in ("number", "integer", "boolean"):
        kind = typ
    else:
        options, labels = _choices(prop)
        kind = "choice" if options else "string"
    minimum = prop.get("minimum", prop.get("minItems"))
    maximum = prop.get("maximum", prop.get("maxItems"))
    return FormField(
        name=name, kind=kind, title=str(prop.get("title") or name),
        description=str(prop.get("description") or ""), required=required,
        default=prop.get("default"), options=options, labels=labels,
        minimum=minimum if isinstance(minimum, int | float) else None,
        maximum=maximum if isinstance(maximum, int | float) else None,
        min_length=prop.get("minLength"), max_length=prop.get("maxLength"),
        format=prop.get("format"),
    )


def form_fields(schema: dict[str, Any]) -> list[FormField]:
    """The schema's properties in the order the server listed them."""
    properties = schema.get("properties") if isinstance(schema, dict) else None
    if not isinstance(properties, dict):
        return []
    required = set(schema.get("required") or [])
    return [_field(name, prop if isinstance(prop, dict) else {}, name in required)
            for name, prop in properties.items()]


def apply_defaults(schema: dict[str, Any], content: dict[str, Any] | None) -> dict[str, Any]:
    """`content` with every property the user left out set to its schema default."""
    filled = dict(content or {})
    for item in form_fields(schema):
        if item.name not in filled and item.has_default:
            filled[item.name] = item.default
    return filled


def schema_problems(schema: dict[str, Any], content: dict[str, Any]) -> list[str]:
    """Why `content` does not fit `schema` (empty when it does)."""
    import jsonschema  # a few ms; only when an answer is checked

    try:
        validator = jsonschema.Draft202012Validator(schema)
        return [_problem(e) for e in validator.iter_errors(content)]
    except jsonschema.SchemaError:
        return []  # a broken schema from the server: nothing to check against


def _problem(error: Any) -> str:
    where = ".".join(str(p) for p in error.absolute_path)
    return f"{where}: {error.message}" if where else error.message


def parse_value(item: FormField, text: str) -> Any:
    """A typed value from what the user typed; ValueError with a reason a person can act on.
    Empty text means "not given" (None): the default applies, or a required field complains."""
    text = text.strip()
    if not text:
        if item.required and not item.has_default:
            raise ValueError(f"{item.title} is required")
        return None
    if item.kind == "boolean":
        lowered = text.lower()
        if lowered in ("y", "yes", "true", "1", "on"):
            return True
        if lowered in ("n", "no", "false", "0", "off"):
            return False
        raise ValueError(f"{item.title}: answer yes or no")
    if item.kind in ("number", "integer"):
        return _number(item, text)
    if item.kind == "choice":
        return _one_choice(item, text)
    if item.kind == "multi_choice":
        picked = [_one_choice(item, part) for part in text.split(",") if part.strip()]
        return list(dict.fromkeys(picked))
    if item.min_length is not None and len(text) < item.min_length:
        raise ValueError(f"{item.title}: at least {item.min_length} characters")
    if item.max_length is not None and len(text) > item.max_length:
        raise ValueError(f"{item.title}: at most {item.max_length} characters")
    return text


def _number(item: FormField, text: str) -> int | float:
    try:
        value: int | float = int(text) if item.kind == "integer" else float(text)
    except ValueError:
        kind = "a whole number" if item.kind == "integer" else "a number"
        raise ValueError(f"{item.title}: enter {kind}") from None
    if item.minimum is not None and value < item.minimum:
        raise ValueError(f"{item.title}: at least {item.minimum:g}")
    if item.maximum is not None and value > item.maximum:
        raise ValueError(f"{item.title}: at most {item.maximum:g}")
    return value


def _one_choice(item: FormField, text: str) -> str:
    """A choice by its value, its label, or its 1-based number in the list."""
    text = text.strip()
    if text.isdigit() and 1 <= int(text) <= len(item.options):
        return item.options[int(text) - 1]
    for value, label in zip(item.options, item.labels, strict=False):
        if text.lower() in (value.lower(), label.lower()):
            return value
    raise ValueError(f"{item.title}: choose one of {', '.join(item.labels)}")


# ── who answers ───────────────────────────────────────────────────────────────────────────────


class ElicitationRouter:
    """Asks the answerers in order and returns what the server gets back.

    `answerers` are hooks and SDK callbacks (may pass); `front_end` is the user's form (None in
    `-p`); `reviewers` are ElicitationResult hooks. The session sets these as it learns them.
    """

    def __init__(self, answerers: Sequence[Answerer] = (), front_end: ElicitationHandler | None
                 = None, reviewers: Sequence[Reviewer] = ()) -> None:
        self.answerers: list[Answerer] = list(answerers)
        self.front_end = front_end
        self.reviewers: list[Reviewer] = list(reviewers)

    async def answer(self, request: ElicitationRequest) -> ElicitationAnswer:
        answer = await self._first_answer(request)
        for review in self.reviewers:
            answer = await review(request, answer) or answer
        return self._checked(request, answer)

    async def _first_answer(self, request: ElicitationRequest) -> ElicitationAnswer:
        for answerer in self.answerers:
            answer = await answerer(request)
            if answer is not None:
                return answer
        if self.front_end is not None:
            return await self.front_end.elicit(request)
        return ElicitationAnswer.cancel()

    @staticmethod
    def _checked(request: ElicitationRequest, answer: ElicitationAnswer) -> ElicitationAnswer:
        if answer.action != "accept":
            return ElicitationAnswer(answer.action)
        if request.mode == "url":
            return ElicitationAnswer("accept")
        content = apply_defaults(request.schema, answer.content)
        if schema_problems(request.schema, content):
            return ElicitationAnswer.cancel()  # never send the server what it did not ask for
        return ElicitationAnswer.accept(content)

    def callback(self, server: str) -> ElicitationFnT:
        """The SDK's ElicitationFnT for one server."""

        async def elicit(context: Any, params: Any) -> Any:
            from mcp_types import ElicitResult

            answer = await self.answer(request_from_params(server, params))
            return ElicitResult(action=answer.action, content=answer.content)

        return elicit


def request_from_params(server: str, params: Any) -> ElicitationRequest:
    """mcp_types.ElicitRequestFormParams / ElicitRequestURLParams -> ElicitationRequest."""
    mode = getattr(params, "mode", None) or "form"
    if mode == "url":
        return ElicitationRequest(server, params.message, "url", url=str(params.url),
                                  elicitation_id=getattr(params, "elicitation_id", None))
    schema = getattr(params, "requested_schema", None)
    if schema is not None and hasattr(schema, "model_dump"):
        schema = schema.model_dump(mode="json", by_alias=True, exclude_none=True)
    return ElicitationRequest(server, params.message, "form",
                              schema=dict(schema) if isinstance(schema, dict) else {})


# ── answerers the session plugs in ────────────────────────────────────────────────────────────


def hook_answerer(hooks: Any) -> Answerer:
    """`Elicitation` hooks (a HookRunner) as an answerer: the first hook's `action`/`content`
    answers; exit 2 declines; no hook or no answer passes to the next answerer."""

    async def answer(request: ElicitationRequest) -> ElicitationAnswer | None:
        if hooks is None or not hooks.has_hooks("Elicitation"):
            return None
        outcome = await hooks.run("Elicitation", request.hook_payload(),
                                  matcher_value=request.server)
        if outcome.blocked:
            return ElicitationAnswer.decline()
        return ElicitationAnswer.from_json(outcome.elicitation)

    return answer


def hook_reviewer(hooks: Any) -> Reviewer:
    """`ElicitationResult` hooks: they see the answer and may replace it."""

    async def review(request: ElicitationRequest,
                     answer: ElicitationAnswer) -> ElicitationAnswer | None:
        if hooks is None or not hooks.has_hooks("ElicitationResult"):
            return None
        payload = {"mcp_server_name": request.server, "mode": request.mode,
                   "action": answer.action, "content": answer.content}
        if request.elicitation_id:
            payload["elicitation_id"] = request.elicitation_id
        outcome = await hooks.run("ElicitationResult", payload, matcher_value=request.server)
        if outcome.blocked:
            return ElicitationAnswer.decline()
        return ElicitationAnswer.from_json(outcome.elicitation)

    return review


# (the control request body) -> the SDK's answer `{"action", "content"}`, or None
SendControl = Callable[[dict[str, Any]], Awaitable[Any]]


def sdk_answerer(send: SendControl) -> Answerer:
    """A program driving the session (the Agent SDK's `onElicitation`): the request goes out as
    an `elicitation` control request; its response answers. An error or a malformed response
    cancels (the program was asked and gave nothing usable)."""

    async def answer(request: ElicitationRequest) -> ElicitationAnswer | None:
        try:
            response = await send(request.control_request())
        except Exception:  # noqa: BLE001 - a failed exchange must not hang the server's call
            return ElicitationAnswer.cancel()
        return ElicitationAnswer.from_json(response) or ElicitationAnswer.cancel()

    return answer
