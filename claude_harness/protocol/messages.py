"""Texts the harness itself writes into the conversation (shared by the loop, the executor,
the pipeline and MCP tools; kept here so none of them imports another for a string)."""

# A tool_result when the user's interrupt stopped the call, or kept it from starting.
INTERRUPTED_MESSAGE = "Interrupted by user: the tool call was stopped before it finished."
CANCELLED_MESSAGE = "The tool call was not run: the turn was interrupted by user."
