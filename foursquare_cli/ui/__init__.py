"""The ui layer: people at a terminal, and the text and JSON every command prints.

`board` (the board), `reports`, `history_report` and `review` (every command's
text, pure functions of the core's values), `prompt` (commands, help, completion,
readline), `session_text` (a session's words), `terminal` (the prompt at a
terminal), `play` (the prompt and the pipe loop: saved after every move, Ctrl-C),
`about` (config and --version) and `output` (standard streams, colour and the
terminal through rich, rich's progress bar). The only layer besides `cli` that may
import rich or write to a terminal. It reaches the store only through `app`: the
values it turns into text are the core's and the application layer's.
"""
