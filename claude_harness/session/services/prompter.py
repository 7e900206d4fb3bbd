"""Where a permission answer goes: the session's Prompter.

The pipeline's `ask_user` registers a PermissionRequest here (`expect`) and emits it as an
event; a front end (or a program on the SDK pipe) answers with the `AnswerPermission` op, which
`Session.submit` hands to `answer()`: the waiting call wakes with the answer. An abort answers
every open request "no". "Yes, and don't ask again" saves the request's suggested rule through
the one settings writer (`config.local_rules.update_local_rules`) and adds it to the rules every
later call sees (`rules()`); on a file edit in the project it saves nothing and the pipeline
switches the session to acceptEdits instead (protocol/edit_choice.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from claude_harness.config.local_rules import update_local_rules
from claude_harness.permissions.rules import parse_rule, split_rules
from claude_harness.protocol.context import AbortSignal
from claude_harness.protocol.edit_choice import offers_session_edits
from claude_harness.protocol.events import (
    Notice,
    PermissionAnswer,
    PermissionRequest,
    PermissionSettled,
    SessionEvent,
)
from claude_harness.protocol.permission_data import PermissionRule


class Prompter:
    def __init__(self, cwd: Path, emit: Callable[[SessionEvent], None],
                 rules_changed: Callable[[], None]) -> None:
        self.cwd = cwd
        self._emit = emit
        self._rules_changed = rules_changed
        self._waiting: dict[str, tuple[PermissionRequest, asyncio.Future[PermissionAnswer]]] = {}
        self._rules: list[PermissionRule] = []

    # ── the pipeline's side ─────────────────────────────────────────────────────────────────

    def expect(self, request: PermissionRequest,
               abort: AbortSignal) -> asyncio.Future[PermissionAnswer]:
        future: asyncio.Future[PermissionAnswer] = asyncio.get_running_loop().create_future()
        if abort.aborted:
            future.set_result(PermissionAnswer("no", "interrupted"))
            return future
        self._waiting[request.request_id] = (request, future)
        remove = abort.add_listener(lambda: self._settle(request.request_id,
                                                         PermissionAnswer("no")))
        future.add_done_callback(lambda _f: remove())
        return future

    def rules(self) -> tuple[PermissionRule, ...]:
        return tuple(self._rules)

    # ── the session's side ──────────────────────────────────────────────────────────────────

    def answer(self, request_id: str, answer: PermissionAnswer) -> None:
        """An AnswerPermission op arrived; an unknown or settled id is ignored."""
        waiting = self._waiting.get(request_id)
        if waiting is None:
            return
        request = waiting[0]
        if answer.choice == "always" and offers_session_edits(request):
            pass  # as Claude Code: no saved rule; the pipeline switches to acceptEdits
        elif answer.choice == "always" and request.suggestion:
            self.save_rule("allow", request.suggestion, announce=False)
        self._settle(request_id, answer)

    def cancel_all(self) -> None:
        for request_id in list(self._waiting):
            self._settle(request_id, PermissionAnswer("no", "interrupted"))

    def _settle(self, request_id: str, answer: PermissionAnswer) -> None:
        waiting = self._waiting.pop(request_id, None)
        if waiting is None:
            return
        if not waiting[1].done():
            waiting[1].set_result(answer)
        self._emit(PermissionSettled(request_id, answer.choice))

    # ── rules the user adds during the session ──────────────────────────────────────────────

    def save_rule(self, behavior: str, rule: str, *, announce: bool = True,
                  persist: bool = True) -> bool:
        """Save rule(s) to .claude/settings.local.json (unless `persist` is False: this session
        only) and apply them from now on (a compound command's suggestion may hold several)."""
        if persist:
            try:
                update_local_rules(self.cwd, add=rule, behavior=behavior)  # type: ignore[arg-type]
            except (OSError, ValueError) as exc:
                self._emit(Notice(f"Could not save rule {rule}: {exc}",
                                  "error" if announce else "warning"))
                return False
        source = "localSettings" if persist else "session"
        for text in split_rules(rule):
            try:
                self._rules.append(PermissionRule(source, behavior,  # type: ignore[arg-type]
                                                  parse_rule(text)))
            except ValueError:
                continue
        if announce:
            where = "to .claude/settings.local.json" if persist else "for this session"
            self._emit(Notice(f"Saved {behavior} rule {rule} {where}."))
        self._rules_changed()
        return True

    def drop_rule(self, rule: str, source: str | None = None) -> None:
        """Forget `rule` (only where it came from `source`, when given)."""
        self._rules = [r for r in self._rules
                       if str(r.value) != rule or (source is not None and r.source != source)]

    def keep_rules(self, rules: list[PermissionRule]) -> None:
        """Rules /permissions saved to a file of the person's choice: every later call (this
        turn's too) sees them, with the source they were saved to."""
        self._rules.extend(rules)
        self._rules_changed()

    def describe_rules(
        self, configured: tuple[PermissionRule, ...]
    ) -> tuple[tuple[str, str, str], ...]:
        """(behavior, rule, source) of the configured rules, then this session's."""
        listed = [(r.behavior, str(r.value), r.source) for r in configured]
        listed += [(r.behavior, str(r.value), f"{r.source}, this session") for r in self._rules]
        return tuple(listed)
