"""The application layer: one module for each command, as pipx's `commands/`: typed options in, a value out.

`play` (with `session`, a game being played and all it owns; `opening`, how one is
opened; `table`, the prompt loop; `pipe`, the loop of a pipe; `interrupts`, Ctrl-C that
never cuts a move in half; `events`, what a game shows), `replay`, `check`, `hint`,
`solve`, `auto`, `stats`, `compare` (with `runs`, what the two share), `summarize`,
`analyze`, `history`, `deal`, `config`, `schema`; and `loading` (a record read for a
command), `players` (the player of a command's options) and `parsing` (the options'
values as the core reads them). Each command is a function that takes a typed request
and returns a value (or yields values as they come, or shows them through a callback);
`ui` turns the values into text and JSON. The loops of `play` turn keys into calls on
the session, and their view (`ui`'s) reads the keys and draws. This layer uses the core
and the store, never typer or rich, and makes no sentence for people (error messages
aside); `cli` reaches the core only through it (and `ui`, for the words).
"""
