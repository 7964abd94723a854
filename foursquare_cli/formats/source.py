"""What a game record or a move log says (protocol.md section 4), read but not yet played.

`read_source` turns bytes into a `Source` (what the file says, with the line of
everything in it) and records every problem of form it finds; `records.judge`
then plays the moves. A hostile file can make the reader do little: only regular
files (and standard input) are read, at most 1 MiB of them, and the YAML goes
through `safe_yaml`, whose limits are checked before anything is built.

A file is a game record when its YAML is a mapping, and otherwise a move log. A
file that is not YAML at all is a move log too, unless one of its lines looks
like a YAML key (`word:`) or it starts a flow mapping: then the YAML error is
what the author needs to see.
"""

from __future__ import annotations

import difflib
import enum
import io
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidInput, display_name, quoted
from ..rules.cards import SEED_MAX, Card, InvalidCardError, check_deck, deal
from . import safe_yaml
from .lines import MAX_INPUT_BYTES, UnreadableLine, iter_lines, move_text, read_bytes
from .record_numbers import PLAIN_NUMBER, capital_x, not_plain, number_form
from .safe_yaml import ConstructorError, MappingNode, Node, ScalarNode, SequenceNode, YAMLError

RECORD_FORMAT_VERSION = 1
KEYS = ("foursquare", "seed", "deck", "moves", "result", "score", "undos", "hints", "meta")
RESULTS = ("won", "lost", "playing")

_LOOKS_LIKE_KEY = re.compile(r"^\s*(?:[\w-]+\s*:(?:\s|$)|\{|---)", re.MULTILINE)
_YAML_TYPE_NAMES = {
    "str": "a string",
    "int": "a number",
    "float": "a number",
    "bool": "a boolean",
    "list": "a list",
    "dict": "a mapping",
    "date": "a date",
    "datetime": "a date",
    "bytes": "binary data",
    "set": "a set",
}


def _kind(value: object) -> str:
    if value is None:
        return "nothing (null)"
    return _YAML_TYPE_NAMES.get(type(value).__name__, type(value).__name__)


def _shown(value: object) -> str:
    """A value as a message quotes it: its repr, cut short; `null` for nothing."""
    if value is None:
        return "null"
    text = repr(value)  # a text's count is its own, not its quotes' too
    length = len(value) if isinstance(value, str) else len(text)
    return text if len(text) <= 40 else text[:40] + f"... ({length:,} characters)"


def _got(value: object) -> str:
    """`a number (12)`, `a mapping ({'B2': 'top'})`, `nothing (null)`: what a YAML value is, once."""
    return _kind(value) if value is None else f"{_kind(value)} ({_shown(value)})"


class SourceKind(enum.StrEnum):
    RECORD = "record"
    LOG = "log"
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, where it is (line 1-based; column when known), and why."""

    line: int | None
    message: str
    move_number: int | None = None
    move_text: str | None = None
    column: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "move": self.move_number, "move_text": self.move_text, "message": self.message}

    def located(self, name: str) -> str:
        """`file:line:column: message`, as much of the place as is known: how `check` reports it."""
        where = name
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"


@dataclass(frozen=True)
class MoveLine:
    """A move as written in a file, with its line; `text` is None where the item is no string."""

    text: str | None
    line: int


class RawMeta(str):
    """A record's `meta:` entry exactly as written in its file, to be written back unchanged."""


@dataclass
class Source:
    """What a file holds, parsed but not yet played; `problems` are those of form."""

    path: str
    kind: SourceKind
    seed: int | None = None
    deck: tuple[Card, ...] | None = None
    moves: list[MoveLine] = field(default_factory=list)
    result: str | None = None
    score: int | None = None
    undos: int = 0
    hints: int = 0
    meta: RawMeta | None = None  # the text of the `meta:` entry, when it is a block of its own
    meta_value: Any = None  # the `meta` mapping as constructed (a list of pairs for an !!omap)
    lines: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def display_name(self) -> str:
        return display_name(self.path)


# -- sources --------------------------------------------------------------------


def read_source(path: str, data: bytes | None = None) -> Source:
    """Parse a game record or a move log. Problems of form are in `Source.problems`.

    ReadError (a missing or unreadable file) is raised, not reported: it is a usage error.
    """
    if data is None:
        data = read_bytes(path)
    source = Source(path=path, kind=SourceKind.UNREADABLE)
    if len(data) > MAX_INPUT_BYTES:
        source.problems.append(Problem(None, f"larger than {MAX_INPUT_BYTES >> 20} MiB; refused before parsing"))
        return source
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        source.problems.append(
            Problem(line, f"not UTF-8 text (byte 0x{data[error.start]:02x}); save the file as UTF-8", column=column)
        )
        return source
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        source.problems.append(Problem(1, "empty file; expected a game record or a move log"))
        return source
    try:
        value, node = safe_yaml.parse(text)
    except InvalidInput as error:
        source.problems.append(Problem(error.line, error.message))
        return source
    except RecursionError:
        source.problems.append(Problem(None, "nested too deeply; refused"))
        return source
    except YAMLError as error:
        if not _LOOKS_LIKE_KEY.search(text):
            return _read_move_log(source, data)
        source.problems.append(_yaml_problem(error, text))
        return source
    if isinstance(value, dict) and isinstance(node, MappingNode):
        return _read_record(source, value, node, text)
    return _read_move_log(source, data)


def _yaml_problem(error: YAMLError, text: str) -> Problem:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    position = getattr(error, "position", None)  # the reader's errors (a NUL, a control character) have no mark
    if mark is None and isinstance(position, int) and 0 <= position <= len(text):
        column = position - text.rfind("\n", 0, position)
        said = str(error).splitlines()[0]  # `unacceptable character #x0000: control characters are not allowed`
        return Problem(text.count("\n", 0, position) + 1, f"YAML syntax error: {said}", column=column)
    detail = " ".join(str(part) for part in (getattr(error, "context", None), getattr(error, "problem", None)) if part)
    detail = detail or str(error).splitlines()[0]
    # a tag a record never uses (`!!python/object/apply:...`): well formed, and refused (nothing of it is run)
    kind = "YAML tag not allowed" if isinstance(error, ConstructorError) else "YAML syntax error"
    if mark is None:
        return Problem(None, f"{kind}: {detail}")
    return Problem(mark.line + 1, f"{kind}: {detail}", column=mark.column + 1)


def _read_move_log(source: Source, data: bytes) -> Source:
    source.kind = SourceKind.LOG
    try:
        for number, line in iter_lines(io.BytesIO(data)):
            text = move_text(line)
            if text:
                source.moves.append(MoveLine(text, number))
    except UnreadableLine as error:
        source.problems.append(Problem(error.number, str(error)))
    return source


def _read_record(source: Source, value: dict[Any, Any], node: MappingNode, text: str) -> Source:
    source.kind = SourceKind.RECORD
    problems = source.problems
    value_nodes: dict[str, Node] = {}
    key_nodes: dict[str, Node] = {}
    for key_node, value_node in node.value:
        key = key_node.value if isinstance(key_node, ScalarNode) else None
        line = key_node.start_mark.line + 1
        if key not in KEYS:
            close = difflib.get_close_matches(str(key), KEYS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; keys are {', '.join(KEYS)}"
            problems.append(Problem(line, f"unknown key {quoted(str(key))}{hint}"))
            continue
        source.lines[key] = line
        value_nodes[key] = value_node
        key_nodes[key] = key_node

    if "foursquare" not in source.lines:
        problems.append(Problem(1, "missing required key 'foursquare' (the format version: foursquare: 1)"))
    else:
        version_node = value_nodes["foursquare"]
        if not (isinstance(version_node, ScalarNode) and version_node.value == "1" and not version_node.style):
            plain = isinstance(version_node, ScalarNode) and not version_node.style
            written = version_node.value[:40] if plain else _shown(value["foursquare"])
            said = f"foursquare: {written} is not a supported format version; it must be 1"
            if isinstance(version_node, ScalarNode) and version_node.value == "1":  # "1", '1' or !!int "1"
                said = "foursquare: the version is the plain number 1, written without quotes or a tag"
            problems.append(Problem(source.lines["foursquare"], said))

    if "seed" in source.lines:
        source.seed = _read_seed(value["seed"], value_nodes["seed"], source.lines["seed"], problems)
    if "deck" in source.lines:
        source.deck = _read_deck(value["deck"], source.lines["deck"], problems)
    if source.seed is not None and source.deck is not None and deal(source.seed) != source.deck:
        dealt = deal(source.seed)
        first = next(i for i in range(40) if dealt[i] != source.deck[i])
        problems.append(
            Problem(
                source.lines["deck"],
                f"deck: disagrees with seed {source.seed}: card {first + 1} is {source.deck[first]}, "
                f"the deal gives {dealt[first]}",
            )
        )

    if "moves" not in source.lines:
        problems.append(Problem(1, "missing required key 'moves' (a list of moves; it may be empty: moves: [])"))
    else:
        _read_moves(source, value["moves"], value_nodes["moves"])

    if "result" in source.lines:
        result = value["result"]
        if not isinstance(result, str) or result not in RESULTS:
            problems.append(
                Problem(source.lines["result"], f"result: {_shown(result)} is not one of won, lost, playing")
            )
        else:
            source.result = result
    if "score" in source.lines:
        score = value["score"]
        if type(score) is not int or not 0 <= score <= 24:
            problems.append(
                Problem(
                    source.lines["score"],
                    f"score: {_shown(score)} is not a score; a score is a whole number from 0 to 24",
                )
            )
        elif form_refused := not_plain("score", value_nodes["score"]):
            problems.append(Problem(source.lines["score"], form_refused))
        else:
            source.score = score
    source.undos = _count_of("undos", "a count of undone moves", value, value_nodes, source.lines, problems)
    source.hints = _count_of("hints", "a count of hints asked for", value, value_nodes, source.lines, problems)
    if "meta" in source.lines:
        meta = value["meta"]
        ordered = value_nodes["meta"].tag == "tag:yaml.org,2002:omap"  # an ordered mapping is a mapping
        if not isinstance(meta, dict) and not ordered:
            problems.append(
                Problem(source.lines["meta"], f"meta: expected a mapping (like 'player: ada'), got {_got(meta)}")
            )
        else:
            source.meta = _raw_meta(text, key_nodes["meta"], value_nodes["meta"])
            source.meta_value = meta
    return source


def _count_of(
    key: str, what: str, value: dict[Any, Any], nodes: dict[str, Node], lines: dict[str, int], problems: list[Problem]
) -> int:
    """An optional count of the record (`undos`, `hints`): a whole number from 0, absent meaning 0."""
    if key not in lines:
        return 0
    count = value[key]
    if type(count) is not int or count < 0:
        problems.append(Problem(lines[key], f"{key}: {_shown(count)} is not {what}; it is a whole number from 0"))
        return 0
    if said := not_plain(key, nodes[key]):
        problems.append(Problem(lines[key], said))
        return 0
    return count


def _raw_meta(text: str, key_node: Node, value_node: Node) -> RawMeta | None:
    """The `meta:` entry as written, when it stands as a block of its own (not inside a flow mapping)."""
    if key_node.start_mark.column != 0:
        return None
    return RawMeta(text[key_node.start_mark.index : value_node.end_mark.index].rstrip() + "\n")


def keepable_meta(source: Source) -> RawMeta | None:
    """`meta` as it can be written back unchanged: the text as read when it reads back alone as the same
    mapping (no alias to elsewhere), else the mapping dumped afresh when that reads back the same; None if
    neither (then resuming would change it). Checked only when a record is to be written again."""
    if source.meta_value is None:
        return None
    wanted = {"meta": source.meta_value}
    if source.meta and safe_yaml.reads_back(source.meta, wanted):
        return source.meta
    dumped = safe_yaml.dump(wanted)
    return RawMeta(dumped) if dumped and safe_yaml.reads_back(dumped, wanted) else None


def _read_seed(seed: Any, node: Node, line: int, problems: list[Problem]) -> int | None:
    if isinstance(seed, bool) or not isinstance(seed, int):
        what = "has no value" if seed is None else f"{_shown(seed)} is {_kind(seed)}"
        problems.append(Problem(line, f"seed: {what}{capital_x(seed)}; a seed is a whole number from 0 to {SEED_MAX}"))
        return None
    written = node.value if isinstance(node, ScalarNode) else ""
    if written.startswith("-"):
        sign = "is negative" if seed < 0 else "is written with a sign"  # -0 is 0, but no deal number has a sign
        problems.append(Problem(line, f"seed: {written[:40]} {sign}; seeds are 0 to {SEED_MAX}"))
        return None
    if not PLAIN_NUMBER.fullmatch(written):
        problems.append(
            Problem(
                line,
                f"seed: {written[:40]} is a YAML 1.1 number form ({number_form(written)}) that readers disagree "
                "on; write the deal number in decimal digits (or 0x hex)",
            )
        )
        return None
    if seed > SEED_MAX:
        problems.append(Problem(line, f"seed: {written[:40]} is out of range; seeds are 0 to {SEED_MAX}"))
        return None
    return seed


def _read_deck(deck: Any, line: int, problems: list[Problem]) -> tuple[Card, ...] | None:
    if isinstance(deck, str):
        deck = deck.replace(",", " ").split()
    if not isinstance(deck, list):
        problems.append(Problem(line, f"deck: expected the 40 cards as a list or one string, got {_kind(deck)}"))
        return None
    cards = []
    for number, word in enumerate(deck, start=1):
        if not isinstance(word, str):
            problems.append(Problem(line, f"deck: card {number} is {_got(word)}, not a card"))
            return None
        try:
            cards.append(Card.from_str(word))
        except InvalidCardError as error:
            problems.append(Problem(line, f"deck: card {number}: {error}"))
            return None
    try:
        check_deck(tuple(cards))
    except InvalidCardError as error:
        problems.append(Problem(line, f"deck: {error}"))
        return None
    return tuple(cards)


def _read_moves(source: Source, moves: Any, node: Node) -> None:
    if not isinstance(moves, list) or not isinstance(node, SequenceNode):
        hint = " (for no moves yet, write moves: [])" if moves is None else ""
        source.problems.append(
            Problem(source.lines["moves"], f"moves: expected a list of moves, got {_kind(moves)}{hint}")
        )
        return
    for number, (move, item) in enumerate(zip(moves, node.value, strict=True), start=1):
        line = item.start_mark.line + 1
        if not isinstance(move, str):
            source.problems.append(
                Problem(
                    line,
                    f"move {number}: expected a move like 'B2' or 'shift up', got {_got(move)}",
                    move_number=number,
                )
            )
            source.moves.append(MoveLine(None, line))
            continue
        source.moves.append(MoveLine(move, line))
