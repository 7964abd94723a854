"""The ui layer: people at a terminal, and the text and JSON every command prints.

`board` (the board), `reports` (every command's text and JSON, pure functions of
the core's values), `prompt` (commands, help, completion, readline), `session` (a
game being played and where it is kept), `play` (the prompt and the pipe loop:
saved after every move, Ctrl-C) and `output` (standard streams, colour, rich's
progress bar). The only layer besides `cli.py` that may import rich or write to a
terminal; it imports every layer below it.
"""
