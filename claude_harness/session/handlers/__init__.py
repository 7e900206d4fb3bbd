"""The session's op handlers, one small module per domain: conversation jobs, rewind, tasks,
output styles, memory, models, naming, context, reports, questions, permissions, MCP, hooks,
directories and slash commands. Each module exports `HANDLERS`, a table from op class to a
function `handler(services, op)`; `registry.HANDLERS` joins them once. A handler sees the
session only through its own narrow `Protocol` of the services it needs (emit an event, start a
job, the checkpoints...), which `services.OpServices` satisfies."""
