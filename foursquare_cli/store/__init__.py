"""The store layer: what is kept on disk.

`files` (records written atomically, checked and locked first), `locking` (one
writer at a time, on every platform), `logs` (the JSON Lines results logs of long
runs), `history` (the games kept in the data folder and their SQLite index),
`totals` (their figures) and `config` (the settings file). It imports only `errors`,
`rules` and `formats`; it never deletes or changes a file that is not its own,
and it never prints: what it has to say comes back as values (`History.notes`)
or as errors.
"""
