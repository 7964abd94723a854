"""The ui layer: values in, text out; keys in.

`output` (the one way out: `Screen`, which owns the streams, the width and the style,
and `emit`, which writes any value as text or JSON), `fit` (lines fitted to the
terminal, commands to paste), `board` (the board), the words of each command's values
(`records_text`, `deal_text`, `rules_text`, `hint_text`, `runs_text`, `solve_text`, `analyze_text`,
`history_text`, `play_text`, `about`), `prompt` (suggestions, completion, line
editing) and `terminal` (the views a game is played through: the prompt and the pipe).
The only layer besides `cli` that may import rich or write to a stream. It reaches the
store only through `app`: the values it turns into text are the core's and the
application layer's.

"""
