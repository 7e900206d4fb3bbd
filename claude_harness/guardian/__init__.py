"""The process guardian: every process the harness starts for the user (Bash commands, hooks,
MCP stdio servers) is its child, so none outlives the harness, even after a `kill -9`.

client.py  the harness's side: start the guardian, ask it to spawn, learn how children exited
main.py    the guardian itself (a child subreaper, standard library only, run by path)
spawn.py   start a process under the guardian (or directly where it cannot run)
"""
