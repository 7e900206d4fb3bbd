"""The protocol: the one language every part of claude-harness speaks, and the leaf they share.

    ops.py       what a front end asks of the session (`Session.submit(op)`)
    events.py    what the session reports back (`async for event in session.events()`),
                 frozen plain data: deltas, tool start/progress/result, permission requests,
                 state changes (mode, model, totals, denials, todos)
    progress.py  the typed payloads of ToolProgress
    view.py      SessionView: what a front end knows, folded from events (its status line)
    tool.py      the Tool interface, build_tool() and its fail-closed defaults, ToolResult
    context.py   ToolUseContext and its parts (abort signal, read-file cache, shell state),
                 plus the two services a session lends every call: a permission prompter and
                 a sub-agent spawner
    permission_data.py  the plain permission data: modes, rules, decisions, the context
    questions.py the AskUserQuestion input and the answers a person gives

Nothing here imports anything of ours outside this package (not even under TYPE_CHECKING:
tests/test_protocol_is_a_leaf.py holds that), so tools, permissions, the loop, the session and
every front end can depend on it without cycles. This `__init__` imports nothing: the app's first
paint pulls in `events.py` alone, never pydantic.
"""
