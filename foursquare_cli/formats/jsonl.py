"""JSON as the tool writes it, everywhere: one compact object on one line (JSON Lines).

The one set of JSON settings (`json_document` indents, for a document people read too):
what `--format json` prints, a state sent to an outside
player, a line of a results file, and an entry of the history's `elsewhere.txt` are all
written by `json_line`, so they never differ in spacing, escaping or NaN handling (a NaN
or an infinity is refused: it is not JSON).
"""

from __future__ import annotations

import json


def json_line(value: object) -> str:
    """`value` as one compact JSON line, with its newline; ValueError for a NaN or an infinity."""
    return json.dumps(value, separators=(",", ":"), allow_nan=False) + "\n"


def json_document(value: object) -> str:
    """`value` as indented JSON for people to read (a schema), with its newline; the same settings otherwise."""
    return json.dumps(value, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
