"""The pieces every JSON Schema of the tool is built from (`schemas`): a card, a move, a pile, a state, a
rating, spelled once; `SchemaEntry` makes a whole schema of one, with the shared definitions it refers to."""

from __future__ import annotations

from typing import Any, NamedTuple

from ..rules.cards import SEED_MAX

DRAFT = "https://json-schema.org/draft/2020-12/schema"
RESULTS_VERSION = 2  # `foursquare_results` of a results file's first line (runs.plans.RESULTS_FORMAT_VERSION)
SPRT_RESULTS_VERSION = 3  # ...of a run of `compare --sprt` (runs.plans.SPRT_FORMAT_VERSION)

CARD_PATTERN = "(A|[2-9]|10)[SHDC]"
MOVE_PATTERN = "[A-D][1-4]( top)?|shift (up|down|left|right)"
ANY_CASE_CARD = "([Aa2-9Tt]|10)[SHDCshdc\u2660\u2665\u2666\u2663]"
ANY_CASE_PLACEMENT = r"[A-Da-d][1-4](\s+[Tt][Oo][Pp])?"
ANY_CASE_SHIFT = r"[Ss][Hh][Ii][Ff][Tt]\s+([Uu][Pp]|[Dd][Oo][Ww][Nn]|[Ll][Ee][Ff][Tt]|[Rr][Ii][Gg][Hh][Tt])"
ANY_CASE_MOVE = f"{ANY_CASE_PLACEMENT}|{ANY_CASE_SHIFT}"

JsonSchema = dict[str, Any]


def whole_number(low: int, high: int | None = None) -> JsonSchema:
    return {"type": "integer", "minimum": low} | ({"maximum": high} if high is not None else {})


def or_null(schema: JsonSchema) -> JsonSchema:
    return {"anyOf": [schema, {"type": "null"}]}


def closed_object(properties: dict[str, JsonSchema], optional: tuple[str, ...] = ()) -> JsonSchema:
    """An object with exactly these keys (those in `optional` may be missing)."""
    return {
        "type": "object",
        "properties": properties,
        "required": [key for key in properties if key not in optional],
        "additionalProperties": False,
    }


ANY_NUMBER = {"type": "number"}
SECONDS = {"type": "number", "minimum": 0}
SHARE = {"type": "number", "minimum": 0, "maximum": 1}
SCORE_VALUE = whole_number(0, 24)
SEED_VALUE = whole_number(0, SEED_MAX)
STATUS_VALUE = {"enum": ["playing", "won", "lost"]}

STATE_PROPERTIES: dict[str, JsonSchema] = {
    "ply": whole_number(0),
    "move": or_null({"$ref": "#/$defs/move"}),
    "card": or_null({"$ref": "#/$defs/card"}),
    "next": or_null({"$ref": "#/$defs/card"}),
    "stock": whole_number(0, 40),
    "face_down": whole_number(0, 16),
    "status": STATUS_VALUE,
    "score": or_null(SCORE_VALUE),
    "grid": {
        "type": "array",
        "minItems": 4,
        "maxItems": 4,
        "items": {"type": "array", "minItems": 4, "maxItems": 4, "items": or_null({"$ref": "#/$defs/pile"})},
    },
}

SHARED_DEFINITIONS: dict[str, JsonSchema] = {
    "card": {"type": "string", "pattern": f"^{CARD_PATTERN}$", "description": "a card, canonical: 7H, 10D, AS"},
    "move": {
        "type": "string",
        "pattern": f"^({MOVE_PATTERN})$",
        "description": "a move, canonical: B3, B3 top, shift up",
    },
    "pile": closed_object(
        {
            "card": {"$ref": "#/$defs/card"},
            "up": {"type": "boolean"},
            "height": whole_number(1, 4),
        }
    )
    | {"description": "a pile: its top card, whether that card is face up, how many cards it holds"},
    "state": closed_object(STATE_PROPERTIES),
    "rating": closed_object(
        {
            "move": or_null({"$ref": "#/$defs/move"}),
            "then": or_null({"$ref": "#/$defs/move"}),
            "win_rate": SHARE,
            "expected_score": {"type": "number", "minimum": 0, "maximum": 24},
            "futures": whole_number(0),
        }
    ),
    "stats": closed_object(
        {
            "player": {"type": "string"},
            "start": SEED_VALUE,
            "games": whole_number(0),
            "wins": whole_number(0),
            "win_rate": SHARE,
            "win_rate_95": {"type": "array", "items": SHARE, "minItems": 2, "maxItems": 2},
            "mean_score_of_wins": or_null({"type": "number", "minimum": 0, "maximum": 24}),
            "mean_score": {"type": "number", "minimum": 0, "maximum": 24},
            "forfeits": {"type": "object", "additionalProperties": whole_number(1)},
            "seconds_per_move": SECONDS,
            "median_seconds_per_move": SECONDS,
            "games_per_second": SECONDS,
            "lost_deals": {"type": "array", "items": SEED_VALUE},
            "sealed": {"type": "boolean"},
            "shard": {"type": "array", "items": whole_number(1), "minItems": 2, "maxItems": 2},
            "missing": whole_number(1),
            "first_missing": {"type": "array", "items": SEED_VALUE},
        },
        optional=("shard", "missing", "first_missing"),
    ),
    "analysis_summary": closed_object(
        {
            "type": {"const": "summary"},
            "path": {"type": "string"},
            "status": STATUS_VALUE,
            "score": or_null(SCORE_VALUE),
            "moves": whole_number(0),
            "best_score": or_null(SCORE_VALUE),
            "best_score_proven": {"type": "boolean"},
            "marks": closed_object({mark: whole_number(0) for mark in ("?!", "?", "??", "!")}),
            "accuracy": or_null(SHARE),
            "start": or_null({"$ref": "#/$defs/rating"}),
            "now": or_null({"$ref": "#/$defs/rating"}),
            "lost_after": or_null(whole_number(0)),
            "lost_at_best": or_null({"$ref": "#/$defs/rating"}),
        }
    ),
}


def with_shared(root: JsonSchema) -> JsonSchema:
    """`root` with the shared definitions it refers to (and those they refer to), so it stands alone."""
    needed: set[str] = set()

    def visit(node: object) -> None:
        if isinstance(node, dict):
            reference = node.get("$ref")
            if isinstance(reference, str) and reference.startswith("#/$defs/"):
                name = reference.removeprefix("#/$defs/")
                if name not in needed:
                    needed.add(name)
                    visit(SHARED_DEFINITIONS[name])
            for value in node.values():
                visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(root)
    return root | ({"$defs": {name: SHARED_DEFINITIONS[name] for name in sorted(needed)}} if needed else {})


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
        } | with_shared(self.root)
