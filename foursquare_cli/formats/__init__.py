"""The formats layer: the public formats (docs/protocol.md), read and written.

`safe_yaml` (YAML with limits, a safe loader only), `lines` (files and lines from
outside), `source` and `records` (game records and move logs, protocol.md section 4), and
`protocol` (the JSON states of section 5, the lines of section 7). It imports only
`errors` and `rules`; it turns bytes into values and values into text of the
formats, and never prints or talks to a terminal.
"""
