"""The hook types other than `command`: `http`, `prompt` and `agent`.

http    POST the event JSON to `url` (headers may use `$VAR`/`${VAR}` of the variables named in
        `allowedEnvVars`; any other variable becomes empty, so a repository cannot read your
        secrets into a header). A 2xx response body is read exactly like a command hook's
        stdout (JSON decisions included); another status, a timeout or a refused connection is
        a non-blocking error.
prompt  `prompt` (with `$ARGUMENTS` replaced by the event JSON, or the JSON appended) goes to a
        small, fast model; it answers `{"ok": true}` or `{"ok": false, "reason": "..."}`.
        ok false blocks like exit code 2 with the reason (a PreToolUse call is denied, a Stop
        keeps the model working, ...); ok true lets the action proceed.
agent   the same question answered by a sub-agent that may use read-only tools.

The model calls are the session's: it passes `ModelEvaluator` callbacks to the runner, so the
hooks package never imports the API client.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claude_harness.hooks.outcome import HookResult
from claude_harness.hooks.output import MAX_TEXT, Verdict, clip, interpret

if TYPE_CHECKING:
    from claude_harness.hooks.config import HookEntry

# (prompt text, model or None, timeout seconds) -> the model's answer text
ModelEvaluator = Callable[[str, "str | None", float], Awaitable[str]]

MODEL_HOOK_SYSTEM_PROMPT = (
    "You evaluate a hook in a coding agent. Read the event and the instruction, then answer "
    'with JSON only: {"ok": true} when the action may proceed, or {"ok": false, "reason": '
    '"why, in one or two sentences"} when it must not.'
)
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _result(entry: HookEntry, started: float, *, code: int | None, out: str = "",
            err: str = "", error: str | None = None, timed_out: bool = False) -> HookResult:
    return HookResult(command=entry.command, source=entry.origin, exit_code=code,
                      duration_s=time.monotonic() - started, stdout=out[:MAX_TEXT],
                      stderr=err[:MAX_TEXT], timed_out=timed_out, error=error)


@dataclass(frozen=True)
class HttpHookPolicy:
    """`allowedHttpHookUrls` and `httpHookAllowedEnvVars`, as Claude Code applies them.

    Each list is the union of every settings source that sets it (None: no source does, no
    restriction). `allowedHttpHookUrls` patterns use `*` as a wildcard; a hook whose URL
    matches none is not sent (an empty list sends none). `httpHookAllowedEnvVars` narrows each
    hook's own `allowedEnvVars` to the names it lists. Hooks that managed settings define obey
    only lists that managed settings set: a user's or repository's list cannot switch off the
    organisation's hooks.
    """

    urls: tuple[str, ...] | None = None
    env_vars: tuple[str, ...] | None = None
    managed_sets_urls: bool = False
    managed_sets_env_vars: bool = False

    @classmethod
    def from_sources(cls, sources: list[tuple[str, dict[str, Any]]]) -> HttpHookPolicy:
        """(source name, that source's raw settings) pairs, any order."""
        def union(key: str) -> tuple[str, ...] | None:
            lists = [data[key] for _, data in sources if isinstance(data.get(key), list)]
            if not lists:
                return None
            return tuple(dict.fromkeys(v for one in lists for v in one if isinstance(v, str)))

        def managed(key: str) -> bool:
            return any(name == "policySettings" and isinstance(data.get(key), list)
                       for name, data in sources)

        return cls(union("allowedHttpHookUrls"), union("httpHookAllowedEnvVars"),
                   managed("allowedHttpHookUrls"), managed("httpHookAllowedEnvVars"))

    def _applies(self, entry: HookEntry, managed_sets: bool) -> bool:
        return entry.source != "policySettings" or managed_sets

    def blocked(self, entry: HookEntry) -> str | None:
        """Why this hook's URL may not be sent to, or None."""
        if self.urls is None or not self._applies(entry, self.managed_sets_urls):
            return None
        if any(_url_matches(entry.command, pattern) for pattern in self.urls):
            return None
        return (f"HTTP hook blocked: {entry.command} does not match any pattern in "
                "allowedHttpHookUrls")

    def env_vars_for(self, entry: HookEntry) -> tuple[str, ...]:
        """The hook's `allowedEnvVars` that `httpHookAllowedEnvVars` also lists."""
        if self.env_vars is None or not self._applies(entry, self.managed_sets_env_vars):
            return entry.allowed_env_vars
        return tuple(v for v in entry.allowed_env_vars if v in self.env_vars)


def _url_matches(url: str, pattern: str) -> bool:
    regex = ".*".join(re.escape(part) for part in pattern.split("*"))
    return re.fullmatch(regex, url) is not None


def interpolate_header(value: str, allowed: tuple[str, ...]) -> str:
    """`$VAR` / `${VAR}` from the environment, only for the allowed names."""
    def sub(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return os.environ.get(name, "") if name in allowed else ""

    return _VAR.sub(sub, value)


def _post(url: str, body: bytes, headers: dict[str, str], timeout: float) -> tuple[int, str]:
    request = urllib.request.Request(url, data=body, method="POST", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return response.status, response.read(256 * 1024).decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(64 * 1024).decode("utf-8", "replace")


async def run_http(event: str, entry: HookEntry, body: bytes, label: str,
                   policy: HttpHookPolicy | None = None) -> tuple[HookResult, Verdict]:
    started = time.monotonic()
    policy = policy or HttpHookPolicy()
    if not entry.command.startswith(("http://", "https://")):
        return _result(entry, started, code=None,
                       error=f"{event} hook {label}: url must start with http:// or https://"), \
            Verdict()
    blocked = policy.blocked(entry)
    if blocked is not None:
        return _result(entry, started, code=None, error=f"{event} {blocked}"), Verdict()
    allowed = policy.env_vars_for(entry)
    headers = {"Content-Type": "application/json",
               **{k: interpolate_header(v, allowed) for k, v in entry.headers}}
    try:
        status, text = await asyncio.wait_for(
            asyncio.to_thread(_post, entry.command, body, headers, entry.timeout),
            entry.timeout + 1)
    except TimeoutError:
        return _result(entry, started, code=None, timed_out=True,
                       error=f"{event} hook {label} timed out after {entry.timeout:g}s; it made "
                             "no decision"), Verdict()
    except (OSError, ValueError) as exc:
        reason = getattr(exc, "reason", exc)
        return _result(entry, started, code=None,
                       error=f"{event} hook {label} could not be reached: {reason}"), Verdict()
    if not 200 <= status < 300:
        return _result(entry, started, code=status, out=text,
                       error=f"{event} hook {label} answered HTTP {status}; the action "
                             f"proceeds: {clip(text.strip(), 500) or '(no body)'}"), Verdict()
    return _result(entry, started, code=0, out=text), interpret(event, label, 0, text, "")


def model_prompt(entry: HookEntry, payload_json: str) -> str:
    if "$ARGUMENTS" in entry.command:
        return entry.command.replace("$ARGUMENTS", payload_json)
    return f"{entry.command}\n\nEvent:\n{payload_json}"


def parse_model_answer(text: str) -> tuple[bool, str] | None:
    """(ok, reason) from the model's answer; None when it is not the expected JSON."""
    match = re.search(r"\{.*\}", text, re.S)
    if match is None:
        return None
    try:
        data = json.loads(match.group(0))
    except json.JSONDecodeError:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("ok"), bool):
        return None
    reason = data.get("reason")
    return data["ok"], reason if isinstance(reason, str) else ""


async def run_model_hook(event: str, entry: HookEntry, body: bytes, label: str,
                         evaluator: ModelEvaluator | None) -> tuple[HookResult, Verdict]:
    started = time.monotonic()
    if evaluator is None:
        return _result(entry, started, code=None,
                       error=f"{event} hook {label}: {entry.kind} hooks need the model, which "
                             "this session did not provide; it made no decision"), Verdict()
    prompt = model_prompt(entry, body.decode("utf-8", "replace"))
    try:
        answer = await asyncio.wait_for(evaluator(prompt, entry.model, entry.timeout),
                                        entry.timeout)
    except TimeoutError:
        return _result(entry, started, code=None, timed_out=True,
                       error=f"{event} hook {label} timed out after {entry.timeout:g}s; it made "
                             "no decision"), Verdict()
    except Exception as exc:  # noqa: BLE001 - an API failure must not take the session down
        return _result(entry, started, code=None,
                       error=f"{event} hook {label} failed: {exc}; it made no decision"), Verdict()
    parsed = parse_model_answer(answer)
    if parsed is None:
        return _result(entry, started, code=None, out=answer,
                       error=f"{event} hook {label}: the model did not answer with "
                             '{"ok": ...}; it made no decision'), Verdict()
    ok, reason = parsed
    if ok:
        return _result(entry, started, code=0, out=answer), interpret(event, label, 0, "", "")
    reason = reason or f"refused by {entry.kind} hook {label}"
    return _result(entry, started, code=2, out=answer, err=reason), \
        interpret(event, label, 2, "", reason)
