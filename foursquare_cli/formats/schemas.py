"""JSON Schemas (draft 2020-12) of every format a program reads or writes: `foursquare schema NAME` prints one.

The schemas are built here from shared pieces (a card, a move, a pile, a rating), so
that a card is spelled one way in all of them; each printed schema is whole (its own
`$defs`), so a program can validate with it alone. A schema's `$id` carries its
format's version (`urn:foursquare:schema:state:1`): a schema changes only with a new
version, which tests/test_schemas.py holds to. The meaning of every field is in
docs/protocol.md; the schemas say the kinds and the ranges.

What the tool writes is canonical (`7H`, `B3 top`); a record written by hand may use
any case, `T` for 10 and the suit symbols, and the record schema accepts exactly what
the reader does.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..errors import UsageError
from ..rules.cards import RANK_NAMES, SEED_MAX
from .source import KEYS as RECORD_KEYS
from .source import RECORD_FORMAT_VERSION

DRAFT = "https://json-schema.org/draft/2020-12/schema"
RESULTS_VERSION = 2  # `foursquare_results` of a results file's first line (runs.plans.RESULTS_FORMAT_VERSION)
SPRT_RESULTS_VERSION = 3  # ...of a run of `compare --sprt` (runs.plans.SPRT_FORMAT_VERSION)

_CARD = "(A|[2-9]|10)[SHDC]"
_MOVE = "[A-D][1-4]( top)?|shift (up|down|left|right)"
_ANY_CASE_CARD = "([Aa2-9Tt]|10)[SHDCshdc\u2660\u2665\u2666\u2663]"
_ANY_CASE_PLACEMENT = r"[A-Da-d][1-4](\s+[Tt][Oo][Pp])?"
_ANY_CASE_SHIFT = r"[Ss][Hh][Ii][Ff][Tt]\s+([Uu][Pp]|[Dd][Oo][Ww][Nn]|[Ll][Ee][Ff][Tt]|[Rr][Ii][Gg][Hh][Tt])"
_ANY_CASE_MOVE = f"{_ANY_CASE_PLACEMENT}|{_ANY_CASE_SHIFT}"

JsonSchema = dict[str, Any]


def _whole(low: int, high: int | None = None) -> JsonSchema:
    return {"type": "integer", "minimum": low} | ({"maximum": high} if high is not None else {})


def _or_null(schema: JsonSchema) -> JsonSchema:
    return {"anyOf": [schema, {"type": "null"}]}


def _object(properties: dict[str, JsonSchema], optional: tuple[str, ...] = ()) -> JsonSchema:
    """An object with exactly these keys (those in `optional` may be missing)."""
    return {
        "type": "object",
        "properties": properties,
        "required": [key for key in properties if key not in optional],
        "additionalProperties": False,
    }


_NUMBER = {"type": "number"}
_SECONDS = {"type": "number", "minimum": 0}
_SHARE = {"type": "number", "minimum": 0, "maximum": 1}
_SCORE = _whole(0, 24)
_SEED = _whole(0, SEED_MAX)
_STATUS = {"enum": ["playing", "won", "lost"]}

_STATE_PROPERTIES: dict[str, JsonSchema] = {
    "ply": _whole(0),
    "move": _or_null({"$ref": "#/$defs/move"}),
    "card": _or_null({"$ref": "#/$defs/card"}),
    "next": _or_null({"$ref": "#/$defs/card"}),
    "stock": _whole(0, 40),
    "face_down": _whole(0, 16),
    "status": _STATUS,
    "score": _or_null(_SCORE),
    "grid": {
        "type": "array",
        "minItems": 4,
        "maxItems": 4,
        "items": {"type": "array", "minItems": 4, "maxItems": 4, "items": _or_null({"$ref": "#/$defs/pile"})},
    },
}

_SHARED: dict[str, JsonSchema] = {
    "card": {"type": "string", "pattern": f"^{_CARD}$", "description": "a card, canonical: 7H, 10D, AS"},
    "move": {"type": "string", "pattern": f"^({_MOVE})$", "description": "a move, canonical: B3, B3 top, shift up"},
    "pile": _object(
        {
            "card": {"$ref": "#/$defs/card"},
            "up": {"type": "boolean"},
            "height": _whole(1, 4),
        }
    )
    | {"description": "a pile: its top card, whether that card is face up, how many cards it holds"},
    "state": _object(_STATE_PROPERTIES),
    "rating": _object(
        {
            "move": _or_null({"$ref": "#/$defs/move"}),
            "then": _or_null({"$ref": "#/$defs/move"}),
            "win_rate": _SHARE,
            "expected_score": {"type": "number", "minimum": 0, "maximum": 24},
            "futures": _whole(0),
        }
    ),
    "stats": _object(
        {
            "player": {"type": "string"},
            "start": _SEED,
            "games": _whole(0),
            "wins": _whole(0),
            "win_rate": _SHARE,
            "win_rate_95": {"type": "array", "items": _SHARE, "minItems": 2, "maxItems": 2},
            "mean_score_of_wins": _or_null({"type": "number", "minimum": 0, "maximum": 24}),
            "mean_score": {"type": "number", "minimum": 0, "maximum": 24},
            "forfeits": {"type": "object", "additionalProperties": _whole(1)},
            "seconds_per_move": _SECONDS,
            "median_seconds_per_move": _SECONDS,
            "games_per_second": _SECONDS,
            "lost_deals": {"type": "array", "items": _SEED},
            "sealed": {"type": "boolean"},
            "shard": {"type": "array", "items": _whole(1), "minItems": 2, "maxItems": 2},
            "missing": _whole(1),
            "first_missing": {"type": "array", "items": _SEED},
        },
        optional=("shard", "missing", "first_missing"),
    ),
    "analysis_summary": _object(
        {
            "type": {"const": "summary"},
            "path": {"type": "string"},
            "status": _STATUS,
            "score": _or_null(_SCORE),
            "moves": _whole(0),
            "best_score": _or_null(_SCORE),
            "best_score_proven": {"type": "boolean"},
            "marks": _object({mark: _whole(0) for mark in ("?!", "?", "??", "!")}),
            "accuracy": _or_null(_SHARE),
            "start": _or_null({"$ref": "#/$defs/rating"}),
            "now": _or_null({"$ref": "#/$defs/rating"}),
            "lost_after": _or_null(_whole(0)),
            "lost_at_best": _or_null({"$ref": "#/$defs/rating"}),
        }
    ),
}


def _with_shared(root: JsonSchema) -> JsonSchema:
    """`root` with the shared definitions it refers to (and those they refer to), so it stands alone."""
    needed: set[str] = set()

    def visit(node: object) -> None:
        if isinstance(node, dict):
            reference = node.get("$ref")
            if isinstance(reference, str) and reference.startswith("#/$defs/"):
                name = reference.removeprefix("#/$defs/")
                if name not in needed:
                    needed.add(name)
                    visit(_SHARED[name])
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(root)
    return root | ({"$defs": {name: _SHARED[name] for name in sorted(needed)}} if needed else {})


class SchemaEntry(NamedTuple):
    """One format's schema: its name (`foursquare schema NAME`), version, title and root."""

    name: str
    version: int
    title: str
    root: JsonSchema

    def document(self) -> JsonSchema:
        """The whole schema, as printed and as a validator takes it."""
        return {
            "$schema": DRAFT,
            "$id": f"urn:foursquare:schema:{self.name}:{self.version}",
            "title": self.title,
        } | _with_shared(self.root)


_PLAN_PROPERTIES: dict[str, JsonSchema] = {
    "foursquare_results": {"const": RESULTS_VERSION},
    "command": {"enum": ["stats", "compare"]},
    "players": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1, "maxItems": 16},
    "start": _SEED,
    "games": _whole(1),
    "player_seed": _SEED,
    "playouts": _whole(1),
    "think": _or_null({"type": "number", "exclusiveMinimum": 0}),
    "move_time": {"type": "number", "exclusiveMinimum": 0},
    "shard": {"type": "array", "items": _whole(1), "minItems": 2, "maxItems": 2},
    "sealed": {"type": "boolean"},
}
_PLAN = _object(_PLAN_PROPERTIES)
_SPRT_PLAN = _object(
    _PLAN_PROPERTIES
    | {
        "foursquare_results": {"const": SPRT_RESULTS_VERSION},
        "command": {"const": "compare"},
        "sprt": _object({"points": {"type": "number", "exclusiveMinimum": 0}, "alpha": _SHARE, "beta": _SHARE}),
    }
)
_ANALYSIS_PLAN = _object(
    {
        "foursquare_results": {"const": RESULTS_VERSION},
        "command": {"const": "analyze"},
        "seed": _or_null(_SEED),
        "player_seed": _SEED,
        "playouts": _whole(1),
        "think": _or_null({"type": "number", "exclusiveMinimum": 0}),
        "solve_budget": _whole(1),
    }
)

_LEGAL = {"type": "array", "items": {"$ref": "#/$defs/move"}, "uniqueItems": True}
_PROTOCOL_STATE = _STATE_PROPERTIES | {"legal": _LEGAL}

SCHEMAS: tuple[SchemaEntry, ...] = (
    SchemaEntry(
        "state",
        1,
        "A state: a line of `replay`, `play` and `auto --format json`",
        {"$ref": "#/$defs/state"},
    ),
    SchemaEntry(
        "protocol-state",
        2,
        "A state as an outside program is sent it: the state and `legal`, every legal move (version 2 of the "
        "protocol: `protocol`, `move_time` and `unseen` too)",
        {
            "oneOf": [
                _object(_PROTOCOL_STATE),
                _object(
                    _PROTOCOL_STATE
                    | {
                        "protocol": {"const": 2},
                        "move_time": _SECONDS,
                        "unseen": _object({rank: _whole(0, 4) for rank in RANK_NAMES}),
                    }
                ),
            ]
        },
    ),
    SchemaEntry(
        "record",
        RECORD_FORMAT_VERSION,
        "A game record (YAML, read as data)",
        {
            "type": "object",
            "properties": {
                "foursquare": {"const": RECORD_FORMAT_VERSION},
                "seed": _SEED,
                "deck": {
                    "anyOf": [
                        {"type": "string", "pattern": rf"^\s*(({_ANY_CASE_CARD})\s+){{39}}({_ANY_CASE_CARD})\s*$"},
                        {
                            "type": "array",
                            "items": {"type": "string", "pattern": rf"^\s*({_ANY_CASE_CARD})\s*$"},
                            "minItems": 40,
                            "maxItems": 40,
                            "uniqueItems": True,
                        },
                    ]
                },
                "moves": {"type": "array", "items": {"type": "string", "pattern": rf"^\s*({_ANY_CASE_MOVE})\s*$"}},
                "result": _STATUS,
                "score": _SCORE,
                "undos": _whole(0),
                "hints": _whole(0),
                "meta": {"type": "object"},
            },
            "required": ["foursquare", "moves"],
            "anyOf": [{"required": ["seed"]}, {"required": ["deck"]}],
            "propertyNames": {"enum": list(RECORD_KEYS)},
        },
    ),
    SchemaEntry(
        "results-plan",
        SPRT_RESULTS_VERSION,
        "The first line of a results file: the plan of a run of `stats`, `compare` or `analyze` (version 3: of "
        "`compare --sprt`, with its test)",
        {"oneOf": [_PLAN, _SPRT_PLAN, _ANALYSIS_PLAN]},
    ),
    SchemaEntry(
        "results-game",
        RESULTS_VERSION,
        "A game's line in a results file of `stats` or `compare`",
        _object(
            {
                "player": {"type": "string", "minLength": 1},
                "deal": _SEED,
                "seed": _SEED,
                "won": {"type": "boolean"},
                "score": _or_null(_SCORE),
                "moves": _whole(0, 1000),
                "played": {"type": "string"},
                "move_seconds": {"type": "array", "items": _SECONDS, "maxItems": 1000},
                "seconds_per_move": _SECONDS,
                "forfeit": _or_null({"type": "string"}),
            }
        ),
    ),
    SchemaEntry(
        "check",
        1,
        "A line of `check --format json`: one file's verdict",
        _object(
            {
                "path": {"type": "string"},
                "valid": {"type": "boolean"},
                "outcome": _or_null(
                    _object({"status": _STATUS, "score": _or_null(_SCORE), "moves": _whole(0), "undos": _whole(0)})
                ),
                "problems": {
                    "type": "array",
                    "items": _object(
                        {
                            "line": _or_null(_whole(1)),
                            "move": _or_null(_whole(1)),
                            "move_text": _or_null({"type": "string"}),
                            "message": {"type": "string"},
                        }
                    ),
                },
            }
        ),
    ),
    SchemaEntry(
        "hint",
        1,
        "`hint --format json`: the move, then the figures of every move weighed",
        _object(
            {
                "move": {"$ref": "#/$defs/move"},
                "then": _or_null({"$ref": "#/$defs/move"}),
                "player": {"type": "string"},
                "ratings": {
                    "type": "array",
                    "items": _object(
                        {
                            "move": {"$ref": "#/$defs/move"},
                            "then": _or_null({"$ref": "#/$defs/move"}),
                            "wins": _whole(0),
                            "samples": _whole(0),
                            "win_rate": _SHARE,
                            "expected_score": {"type": "number", "minimum": 0, "maximum": 24},
                            "futures_won": _SHARE,
                            "futures_expected_score": {"type": "number", "minimum": 0, "maximum": 24},
                            "futures_mean_score_of_wins": _or_null({"type": "number", "minimum": 0, "maximum": 24}),
                            "worth": _NUMBER,
                            "unsafe_next": _or_null(_whole(0)),
                            "cards_to_come": _or_null(_whole(0, 40)),
                        }
                    ),
                },
            },
            optional=("then", "player"),
        ),
    ),
    SchemaEntry(
        "solve",
        1,
        "`solve --format json`: the best score the search found for a deal, and its moves",
        _object(
            {
                "seed": _or_null(_SEED),
                "status": {"enum": ["winnable", "unwinnable", "gave up"]},
                "score": _or_null(_SCORE),
                "proven": {"type": "boolean"},
                "moves": {"type": "array", "items": {"$ref": "#/$defs/move"}},
                "nodes": _whole(0),
                "seconds": _SECONDS,
                "stopped_by": _or_null({"enum": ["nodes", "time"]}),
            }
        ),
    ),
    SchemaEntry(
        "stats",
        1,
        "`stats --format json` (and `summarize` of a `stats` run): one player's figures",
        {"$ref": "#/$defs/stats"},
    ),
    SchemaEntry(
        "compare",
        1,
        "`compare --format json` (and `summarize` of a `compare` run): each player's figures, then each pair's",
        _object(
            {
                "complete": {"type": "boolean"},
                "players": {"type": "array", "items": {"$ref": "#/$defs/stats"}, "minItems": 1},
                "pairs": {
                    "type": "array",
                    "items": _object(
                        {
                            "first": {"type": "string"},
                            "second": {"type": "string"},
                            "win_rate_difference": {"type": "number", "minimum": -1, "maximum": 1},
                            "only_first_won": _whole(0),
                            "only_second_won": _whole(0),
                            "wins_test": {"const": "mcnemar_exact"},
                            "wins_p": _SHARE,
                            "mean_score_difference": {"type": "number", "minimum": -24, "maximum": 24},
                            "scores_test": {"const": "wilcoxon_signed_rank"},
                            "scores_p": _SHARE,
                            "scores_differing": _whole(0),
                            "scores_approximate": {"type": "boolean"},
                            "finding": {"enum": ["wins", "scores", "none"]},
                            "better": _or_null({"type": "string"}),
                        }
                    ),
                },
            }
        ),
    ),
    SchemaEntry(
        "history",
        1,
        "`history --format json`: the games kept, the most recent first, and the totals of all",
        _object(
            {
                "games": {
                    "type": "array",
                    "items": _object(
                        {
                            "path": {"type": "string"},
                            "seed": _or_null(_SEED),
                            "daily": {"type": "boolean"},
                            "started": {"type": "string"},
                            "status": _STATUS,
                            "score": _or_null(_SCORE),
                            "moves": _whole(0),
                            "undos": _whole(0),
                            "hints": _whole(0),
                            "seconds": _or_null(_SECONDS),
                            "grade": _or_null({"enum": ["easy", "medium", "hard"]}),
                            "day": _or_null({"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}),
                            "piped": {"type": "boolean"},
                            "practice": {"type": "boolean"},
                        }
                    ),
                },
                "totals": _object(
                    {
                        "played": _whole(0),
                        "won": _whole(0),
                        "best_score": _or_null(_SCORE),
                        "mean_score_of_wins": _or_null({"type": "number", "minimum": 0, "maximum": 24}),
                        "streak": _whole(0),
                        "longest_streak": _whole(0),
                        "daily_played": _whole(0),
                        "daily_won": _whole(0),
                        "unfinished": _whole(0),
                        "clean_wins": _whole(0),
                        "daily_streak": _whole(0),
                        "longest_daily_streak": _whole(0),
                        "seconds": _SECONDS,
                        "fastest_win": _or_null(_SECONDS),
                        "practice": _whole(0),
                    }
                ),
            }
        ),
    ),
    SchemaEntry(
        "analyze",
        2,
        "A line of `analyze --format json` (a move's, or the summary; a results file of `analyze` has summaries)",
        {
            "oneOf": [
                _object(
                    {
                        "type": {"const": "move"},
                        "ply": _whole(1),
                        "move": {"$ref": "#/$defs/move"},
                        "mark": _or_null({"enum": ["?!", "?", "??", "!"]}),
                        "agreed": {"type": "boolean"},
                        "given_up": _object({"expected_score": {"type": "number", "minimum": 0}, "win_rate": _SHARE}),
                        "played": {"$ref": "#/$defs/rating"},
                        "best": {"$ref": "#/$defs/rating"},
                    }
                ),
                {"$ref": "#/$defs/analysis_summary"},
            ]
        },
    ),
)

SCHEMA_NAMES = tuple(entry.name for entry in SCHEMAS)


def schema_entry(name: str) -> SchemaEntry:
    """The schema named `name`; UsageError naming the schemas there are."""
    for entry in SCHEMAS:
        if entry.name == name:
            return entry
    raise UsageError(f"{name[:40]!r}: no such schema; schemas are {', '.join(SCHEMA_NAMES)}")
