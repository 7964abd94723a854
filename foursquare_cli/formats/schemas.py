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

from ..errors import UsageError
from ..rules.cards import RANK_NAMES
from .schema_parts import (
    ANY_CASE_CARD,
    ANY_CASE_MOVE,
    ANY_NUMBER,
    RESULTS_VERSION,
    SCORE_VALUE,
    SECONDS,
    SEED_VALUE,
    SHARE,
    SPRT_RESULTS_VERSION,
    STATE_PROPERTIES,
    STATUS_VALUE,
    JsonSchema,
    SchemaEntry,
    closed_object,
    or_null,
    whole_number,
)
from .source import KEYS as RECORD_KEYS
from .source import RECORD_FORMAT_VERSION

_PLAN_PROPERTIES: dict[str, JsonSchema] = {
    "foursquare_results": {"const": RESULTS_VERSION},
    "command": {"enum": ["stats", "compare"]},
    "players": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1, "maxItems": 16},
    "start": SEED_VALUE,
    "games": whole_number(1),
    "player_seed": SEED_VALUE,
    "playouts": whole_number(1),
    "think": or_null({"type": "number", "exclusiveMinimum": 0}),
    "move_time": {"type": "number", "exclusiveMinimum": 0},
    "shard": {"type": "array", "items": whole_number(1), "minItems": 2, "maxItems": 2},
    "sealed": {"type": "boolean"},
}
_PLAN = closed_object(_PLAN_PROPERTIES)
_SPRT_PLAN = closed_object(
    _PLAN_PROPERTIES
    | {
        "foursquare_results": {"const": SPRT_RESULTS_VERSION},
        "command": {"const": "compare"},
        "sprt": closed_object({"points": {"type": "number", "exclusiveMinimum": 0}, "alpha": SHARE, "beta": SHARE}),
    }
)
_ANALYSIS_PLAN = closed_object(
    {
        "foursquare_results": {"const": RESULTS_VERSION},
        "command": {"const": "analyze"},
        "seed": or_null(SEED_VALUE),
        "player_seed": SEED_VALUE,
        "playouts": whole_number(1),
        "think": or_null({"type": "number", "exclusiveMinimum": 0}),
        "solve_budget": whole_number(1),
    }
)

_PAIR_OF_NUMBERS = {"type": "array", "items": ANY_NUMBER, "minItems": 2, "maxItems": 2}
_SPRT = closed_object(  # `compare --sprt`: the sequential test where it stopped the run (runs.sprt.Sprt)
    {
        "points": {"type": "number", "exclusiveMinimum": 0, "maximum": 24},
        "alpha": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 0.5},
        "beta": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 0.5},
        "deals": whole_number(0),
        "mean_score_difference": {"type": "number", "minimum": -24, "maximum": 24},
        "interval_95": _PAIR_OF_NUMBERS,
        "first_llr": ANY_NUMBER,
        "second_llr": ANY_NUMBER,
        "bounds": _PAIR_OF_NUMBERS,
        "verdict": {"enum": ["first", "second", "neither", "undecided"]},
    }
)

_LEGAL = {"type": "array", "items": {"$ref": "#/$defs/move"}, "uniqueItems": True}
_PROTOCOL_STATE = STATE_PROPERTIES | {"legal": _LEGAL}

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
                closed_object(_PROTOCOL_STATE),
                closed_object(
                    _PROTOCOL_STATE
                    | {
                        "protocol": {"const": 2},
                        "move_time": SECONDS,
                        "unseen": closed_object({rank: whole_number(0, 4) for rank in RANK_NAMES}),
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
                "seed": SEED_VALUE,
                "deck": {
                    "anyOf": [
                        {"type": "string", "pattern": rf"^\s*(({ANY_CASE_CARD})\s+){{39}}({ANY_CASE_CARD})\s*$"},
                        {
                            "type": "array",
                            "items": {"type": "string", "pattern": rf"^\s*({ANY_CASE_CARD})\s*$"},
                            "minItems": 40,
                            "maxItems": 40,
                            "uniqueItems": True,
                        },
                    ]
                },
                "moves": {"type": "array", "items": {"type": "string", "pattern": rf"^\s*({ANY_CASE_MOVE})\s*$"}},
                "result": STATUS_VALUE,
                "score": SCORE_VALUE,
                "undos": whole_number(0),
                "hints": whole_number(0),
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
        closed_object(
            {
                "player": {"type": "string", "minLength": 1},
                "deal": SEED_VALUE,
                "seed": SEED_VALUE,
                "won": {"type": "boolean"},
                "score": or_null(SCORE_VALUE),
                "moves": whole_number(0, 1000),
                "played": {"type": "string"},
                "move_seconds": {"type": "array", "items": SECONDS, "maxItems": 1000},
                "seconds_per_move": SECONDS,
                "forfeit": or_null({"type": "string"}),
            }
        ),
    ),
    SchemaEntry(
        "check",
        1,
        "A line of `check --format json`: one file's verdict",
        closed_object(
            {
                "path": {"type": "string"},
                "valid": {"type": "boolean"},
                "outcome": or_null(
                    closed_object(
                        {
                            "status": STATUS_VALUE,
                            "score": or_null(SCORE_VALUE),
                            "moves": whole_number(0),
                            "undos": whole_number(0),
                        }
                    )
                ),
                "problems": {
                    "type": "array",
                    "items": closed_object(
                        {
                            "line": or_null(whole_number(1)),
                            "move": or_null(whole_number(1)),
                            "move_text": or_null({"type": "string"}),
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
        closed_object(
            {
                "move": {"$ref": "#/$defs/move"},
                "then": or_null({"$ref": "#/$defs/move"}),
                "player": {"type": "string"},
                "ratings": {
                    "type": "array",
                    "items": closed_object(
                        {
                            "move": {"$ref": "#/$defs/move"},
                            "then": or_null({"$ref": "#/$defs/move"}),
                            "wins": whole_number(0),
                            "samples": whole_number(0),
                            "win_rate": SHARE,
                            "expected_score": {"type": "number", "minimum": 0, "maximum": 24},
                            "futures_won": SHARE,
                            "futures_expected_score": {"type": "number", "minimum": 0, "maximum": 24},
                            "futures_mean_score_of_wins": or_null({"type": "number", "minimum": 0, "maximum": 24}),
                            "worth": ANY_NUMBER,
                            "unsafe_next": or_null(whole_number(0)),
                            "cards_to_come": or_null(whole_number(0, 40)),
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
        closed_object(
            {
                "seed": or_null(SEED_VALUE),
                "status": {"enum": ["winnable", "unwinnable", "gave up"]},
                "score": or_null(SCORE_VALUE),
                "proven": {"type": "boolean"},
                "moves": {"type": "array", "items": {"$ref": "#/$defs/move"}},
                "nodes": whole_number(0),
                "seconds": SECONDS,
                "stopped_by": or_null({"enum": ["nodes", "time"]}),
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
        2,
        "`compare --format json` (and `summarize` of a `compare` run): each player's figures, then each pair's "
        "(version 2: with `--sprt`, the sequential test too)",
        closed_object(
            {
                "complete": {"type": "boolean"},
                "players": {"type": "array", "items": {"$ref": "#/$defs/stats"}, "minItems": 1},
                "pairs": {
                    "type": "array",
                    "items": closed_object(
                        {
                            "first": {"type": "string"},
                            "second": {"type": "string"},
                            "win_rate_difference": {"type": "number", "minimum": -1, "maximum": 1},
                            "only_first_won": whole_number(0),
                            "only_second_won": whole_number(0),
                            "wins_test": {"const": "mcnemar_exact"},
                            "wins_p": SHARE,
                            "mean_score_difference": {"type": "number", "minimum": -24, "maximum": 24},
                            "scores_test": {"const": "wilcoxon_signed_rank"},
                            "scores_p": SHARE,
                            "scores_differing": whole_number(0),
                            "scores_approximate": {"type": "boolean"},
                            "finding": {"enum": ["wins", "scores", "none"]},
                            "better": or_null({"type": "string"}),
                        }
                    ),
                },
                "sprt": _SPRT,
            },
            optional=("sprt",),
        ),
    ),
    SchemaEntry(
        "history",
        1,
        "`history --format json`: the games kept, the most recent first, and the totals of all",
        closed_object(
            {
                "games": {
                    "type": "array",
                    "items": closed_object(
                        {
                            "path": {"type": "string"},
                            "seed": or_null(SEED_VALUE),
                            "daily": {"type": "boolean"},
                            "started": {"type": "string"},
                            "status": STATUS_VALUE,
                            "score": or_null(SCORE_VALUE),
                            "moves": whole_number(0),
                            "undos": whole_number(0),
                            "hints": whole_number(0),
                            "seconds": or_null(SECONDS),
                            "grade": or_null({"enum": ["easy", "medium", "hard"]}),
                            "day": or_null({"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"}),
                            "piped": {"type": "boolean"},
                            "practice": {"type": "boolean"},
                        }
                    ),
                },
                "totals": closed_object(
                    {
                        "played": whole_number(0),
                        "won": whole_number(0),
                        "best_score": or_null(SCORE_VALUE),
                        "mean_score_of_wins": or_null({"type": "number", "minimum": 0, "maximum": 24}),
                        "streak": whole_number(0),
                        "longest_streak": whole_number(0),
                        "daily_played": whole_number(0),
                        "daily_won": whole_number(0),
                        "unfinished": whole_number(0),
                        "clean_wins": whole_number(0),
                        "daily_streak": whole_number(0),
                        "longest_daily_streak": whole_number(0),
                        "seconds": SECONDS,
                        "fastest_win": or_null(SECONDS),
                        "practice": whole_number(0),
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
                closed_object(
                    {
                        "type": {"const": "move"},
                        "ply": whole_number(1),
                        "move": {"$ref": "#/$defs/move"},
                        "mark": or_null({"enum": ["?!", "?", "??", "!"]}),
                        "agreed": {"type": "boolean"},
                        "given_up": closed_object(
                            {"expected_score": {"type": "number", "minimum": 0}, "win_rate": SHARE}
                        ),
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
