"""The store layer: what is kept on disk.

`files` (records written atomically, checked and locked first) and `history` (the
games kept in the data folder and their SQLite index). It imports only `errors`,
`rules` and `formats`; it never deletes or changes a file that is not its own,
and it never prints: what it has to say comes back as values (`History.notes`)
or as errors.
"""
