"""Game records and move logs (SPEC section 4): read, validate, replay, write.

Reading is in two steps. `read_source` turns bytes into a `Source` (what the file
says, with the line of everything in it) and records every problem of form it
finds. `judge` then plays the moves on the deal and adds every problem of
substance: an illegal move (after which later moves cannot be judged), a claim
(`result`, `score`) that the moves contradict.

A hostile file can make the reader do little: files over 1 MiB are refused before
parsing; YAML goes through PyYAML's safe loader (the C one where available) with
duplicate keys refused; a document of more than 10,000 nodes once its aliases
are expanded (a "billion laughs"), nested deeper than 50 levels, or with an alias
inside the node it names is refused from the parser's events, before any of it
is built, so reading a file costs a few megabytes at most.

A file is a game record when its YAML is a mapping, and otherwise a move log. A
file that is not YAML at all is a move log too, unless one of its lines looks
like a YAML key (`word:`) or it starts a flow mapping: then the YAML error is
what the author needs to see.
"""

from __future__ import annotations

import contextlib
import difflib
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from .cards import SEED_MAX, Card, InvalidCardError, check_deck, deal, format_cards
from .engine import WON, IllegalMoveError, InvalidMoveError, Move, Outcome, State

FORMAT_VERSION = 1
MAX_BYTES = 1 << 20
MAX_NODES = 10_000
MAX_DEPTH = 50
KEYS = ("foursquare", "seed", "deck", "moves", "result", "score", "meta")
RESULTS = ("won", "lost", "playing")
STDIN = "-"

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_LOOKS_LIKE_KEY = re.compile(r"^\s*(?:[\w-]+\s*:(?:\s|$)|\{|---)", re.MULTILINE)
_YAML_TYPE_NAMES = {
    "str": "a string",
    "int": "a number",
    "float": "a number",
    "bool": "a boolean",
    "NoneType": "nothing (null)",
    "list": "a list",
    "dict": "a mapping",
    "date": "a date",
    "datetime": "a date",
    "bytes": "binary data",
    "set": "a set",
}


def _kind(value: object) -> str:
    return _YAML_TYPE_NAMES.get(type(value).__name__, type(value).__name__)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, where it is (line 1-based; column when known), and why."""

    line: int | None
    message: str
    move_number: int | None = None
    move_text: str | None = None
    column: int | None = None

    def describe(self, path: str) -> str:
        where = path
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "move": self.move_number, "move_text": self.move_text, "message": self.message}


@dataclass(frozen=True)
class MoveLine:
    """A move as written in a file, with its line; `text` is None where the item is no string."""

    text: str | None
    line: int


@dataclass
class Source:
    """What a file holds, parsed but not yet played; `problems` are those of form."""

    path: str
    kind: str  # "record", "log", or "unreadable"
    seed: int | None = None
    deck: tuple[Card, ...] | None = None
    moves: list[MoveLine] = field(default_factory=list)
    result: str | None = None
    score: int | None = None
    meta: dict[str, Any] | None = None
    lines: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def display_name(self) -> str:
        return "<stdin>" if self.path == STDIN else self.path


class _StrictLoader(_Loader):  # type: ignore[misc, valid-type]
    """The safe loader, refusing a key repeated in one mapping (PyYAML keeps the last)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if isinstance(key_node, yaml.ScalarNode):
                key = self.construct_object(key_node)
                if key in seen:
                    raise _DuplicateKey(key, key_node.start_mark.line + 1, seen[key])
                seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep)


class _DuplicateKey(Exception):
    def __init__(self, key: Any, line: int, first_line: int) -> None:
        super().__init__(key)
        self.key, self.line, self.first_line = key, line, first_line


class _TooLarge(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


def _line_of(event: yaml.Event) -> int:
    return event.start_mark.line + 1 if event.start_mark is not None else 1


def _prescan(text: str) -> None:
    """Count what the document would build, from the parser's events, before building any of it.

    Refuses (with the line where the limit is passed) a document of more than
    MAX_NODES nodes once its aliases are expanded, one nested deeper than MAX_DEPTH,
    and an alias inside the node it names. Events come one at a time, so this costs
    no memory; the nodes are built only for a document that passes.
    """
    sizes: dict[str, int] = {}
    open_anchors: set[str] = set()
    stack: list[list[Any]] = []  # [anchor, nodes so far] for each open collection
    total = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionStartEvent):
            if len(stack) >= MAX_DEPTH:
                raise _TooLarge(_line_of(event), f"nested deeper than {MAX_DEPTH} levels; refused")
            stack.append([event.anchor, 1])
            if event.anchor:
                open_anchors.add(event.anchor)
            continue
        if isinstance(event, yaml.CollectionEndEvent):
            anchor, size = stack.pop()
            if anchor:
                sizes[anchor] = size
                open_anchors.discard(anchor)
        elif isinstance(event, yaml.ScalarEvent):
            size = 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor in open_anchors:
                raise _TooLarge(_line_of(event), "an alias refers to the node that contains it; refused")
            size = sizes.get(event.anchor or "", 1)  # an undefined alias is the composer's to report
        else:
            continue
        if stack:
            stack[-1][1] += size
            size = stack[-1][1]
        else:
            total += size
            size = total
        if size > MAX_NODES:
            raise _TooLarge(
                _line_of(event),
                f"more than {MAX_NODES:,} nodes once aliases are expanded; refused (a 'billion laughs' file?)",
            )


def _parse_yaml(text: str) -> tuple[Any, yaml.Node | None]:
    _prescan(text)
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None
        return loader.construct_document(node), node
    finally:
        loader.dispose()


def read_bytes(path: str) -> bytes:
    """Read at most MAX_BYTES + 1 bytes of `path` (`-` is standard input); OSError passes through."""
    if path == STDIN:
        import sys

        return sys.stdin.buffer.read(MAX_BYTES + 1)
    with open(path, "rb") as handle:
        return handle.read(MAX_BYTES + 1)


def read_source(path: str, data: bytes | None = None) -> Source:
    """Parse a game record or a move log. Problems of form are in `Source.problems`.

    OSError (a missing or unreadable file) is raised, not reported: it is a usage error.
    """
    if data is None:
        data = read_bytes(path)
    source = Source(path=path, kind="unreadable")
    if len(data) > MAX_BYTES:
        source.problems.append(Problem(None, f"larger than {MAX_BYTES >> 20} MiB; refused before parsing"))
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
        value, node = _parse_yaml(text)
    except _DuplicateKey as error:
        source.problems.append(
            Problem(
                error.line, f"duplicate key {error.key!r} (first at line {error.first_line}); a key may appear once"
            )
        )
        return source
    except _TooLarge as error:
        source.problems.append(Problem(error.line, error.message))
        return source
    except RecursionError:
        source.problems.append(Problem(None, "nested too deeply; refused"))
        return source
    except yaml.YAMLError as error:
        if not _LOOKS_LIKE_KEY.search(text):
            return _read_move_log(source, text)
        source.problems.append(_yaml_problem(error))
        return source
    if isinstance(value, dict) and isinstance(node, yaml.MappingNode):
        return _read_record(source, value, node)
    return _read_move_log(source, text)


def _yaml_problem(error: yaml.YAMLError) -> Problem:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    detail = " ".join(str(part) for part in (getattr(error, "context", None), getattr(error, "problem", None)) if part)
    detail = detail or str(error).splitlines()[0]
    if mark is None:
        return Problem(None, f"YAML syntax error: {detail}")
    return Problem(mark.line + 1, f"YAML syntax error: {detail}", column=mark.column + 1)


def _read_move_log(source: Source, text: str) -> Source:
    source.kind = "log"
    for number, line in enumerate(text.splitlines(), start=1):
        move_text = line.split("#", 1)[0].strip()
        if move_text:
            source.moves.append(MoveLine(move_text, number))
    return source


def _read_record(source: Source, value: dict[Any, Any], node: yaml.MappingNode) -> Source:
    source.kind = "record"
    problems = source.problems
    value_nodes: dict[str, yaml.Node] = {}
    for key_node, value_node in node.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        line = key_node.start_mark.line + 1
        if key not in KEYS:
            close = difflib.get_close_matches(str(key), KEYS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; keys are {', '.join(KEYS)}"
            problems.append(Problem(line, f"unknown key {key!r}{hint}"))
            continue
        source.lines[key] = line
        value_nodes[key] = value_node

    if "foursquare" not in source.lines:
        problems.append(Problem(1, "missing required key 'foursquare' (the format version: foursquare: 1)"))
    else:
        version = value["foursquare"]
        if type(version) is not int or version != FORMAT_VERSION:
            problems.append(
                Problem(
                    source.lines["foursquare"],
                    f"foursquare: {version!r} is not a supported format version; it must be 1",
                )
            )

    if "seed" in source.lines:
        source.seed = _read_seed(value["seed"], source.lines["seed"], problems)
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
        if result not in RESULTS or not isinstance(result, str):
            problems.append(Problem(source.lines["result"], f"result: {result!r} is not one of won, lost, playing"))
        else:
            source.result = result
    if "score" in source.lines:
        score = value["score"]
        if type(score) is not int or not 0 <= score <= 24:
            problems.append(
                Problem(
                    source.lines["score"], f"score: {score!r} is not a score; a score is a whole number from 0 to 24"
                )
            )
        else:
            source.score = score
    if "meta" in source.lines:
        meta = value["meta"]
        if not isinstance(meta, dict):
            problems.append(
                Problem(source.lines["meta"], f"meta: expected a mapping (like 'player: ada'), got {_kind(meta)}")
            )
        else:
            source.meta = meta
    return source


def _read_seed(seed: Any, line: int, problems: list[Problem]) -> int | None:
    if isinstance(seed, bool) or not isinstance(seed, int):
        problems.append(
            Problem(line, f"seed: {seed!r} is {_kind(seed)}; a seed is a whole number from 0 to {SEED_MAX}")
        )
        return None
    if seed < 0:
        problems.append(Problem(line, f"seed: {seed} is negative; seeds are 0 to {SEED_MAX}"))
        return None
    if seed > SEED_MAX:
        problems.append(Problem(line, f"seed: {seed} is out of range; seeds are 0 to {SEED_MAX}"))
        return None
    return seed


def _read_deck(deck: Any, line: int, problems: list[Problem]) -> tuple[Card, ...] | None:
    if isinstance(deck, str):
        words: list[Any] = deck.split()
    elif isinstance(deck, list):
        words = deck
    else:
        problems.append(Problem(line, f"deck: expected the 40 cards as a list or one string, got {_kind(deck)}"))
        return None
    cards = []
    for number, word in enumerate(words, start=1):
        if not isinstance(word, str):
            problems.append(Problem(line, f"deck: card {number} is {_kind(word)} ({word!r}), not a card"))
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


def _read_moves(source: Source, moves: Any, node: yaml.Node) -> None:
    if not isinstance(moves, list) or not isinstance(node, yaml.SequenceNode):
        source.problems.append(Problem(source.lines["moves"], f"moves: expected a list of moves, got {_kind(moves)}"))
        return
    for number, (move, item) in enumerate(zip(moves, node.value, strict=True), start=1):
        line = item.start_mark.line + 1
        if not isinstance(move, str):
            source.problems.append(
                Problem(
                    line,
                    f"move {number}: expected a move like 'B2' or 'shift up', got {_kind(move)} ({move!r})",
                    move_number=number,
                )
            )
            source.moves.append(MoveLine(None, line))
            continue
        source.moves.append(MoveLine(move, line))


# -- judging --------------------------------------------------------------------


@dataclass
class Verdict:
    """What playing a source's moves showed: the problems, how far it got, and the outcome."""

    source: Source
    problems: list[Problem]
    state: State | None  # the position after the last legal move; None when there is no deal
    moves: list[Move]  # the moves played, in order

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome if self.state is not None else None

    def summary(self) -> str:
        """`won, score 7, 29 moves`, `lost after 23 moves` or `playing, 12 moves`."""
        outcome = self.outcome
        count = len(self.moves)
        plural = "move" if count == 1 else "moves"
        if outcome is None:
            return "no deal"
        if outcome.status == WON:
            return f"won, score {outcome.score}, {count} {plural}"
        if outcome.status == "lost":
            return f"lost after {count} {plural} ({outcome.reason})"
        return f"playing, {count} {plural}"

    def as_dict(self) -> dict[str, Any]:
        outcome = self.outcome
        return {
            "path": self.source.path,
            "valid": self.valid,
            "outcome": None
            if outcome is None
            else {"status": outcome.status, "score": outcome.score, "moves": len(self.moves)},
            "problems": [problem.as_dict() for problem in self.problems],
        }


class DealConflict(ValueError):
    """A --seed or --deck given on the command line that the record contradicts."""


StateListener = Callable[[int, "MoveLine | None", "Move | None", "Card | None", State], None]


def resolve_deck(
    source: Source, seed: int | None = None, deck: tuple[Card, ...] | None = None
) -> tuple[Card, ...] | None:
    """The deal to play `source` on: the record's own, or the one given; DealConflict if they disagree."""
    given = deck if deck is not None else (deal(seed) if seed is not None else None)
    own = source.deck if source.deck is not None else (deal(source.seed) if source.seed is not None else None)
    if given is not None and own is not None and given != own:
        if seed is not None and source.seed is not None:
            raise DealConflict(f"--seed {seed} disagrees with the record's seed {source.seed}")
        raise DealConflict("the deal given on the command line disagrees with the record's")
    return own if own is not None else given


def judge(
    source: Source,
    seed: int | None = None,
    deck: tuple[Card, ...] | None = None,
    on_state: StateListener | None = None,
) -> Verdict:
    """Play the moves of `source` on its deal and collect every problem, in file order.

    `on_state(ply, move_line, move, card, state)` is called with the initial position
    (ply 0) and after every legal move. DealConflict if `seed`/`deck` contradict the record.
    """
    problems = list(source.problems)
    cards = resolve_deck(source, seed, deck)
    if source.kind == "record" and cards is None and "seed" not in source.lines and "deck" not in source.lines:
        problems.append(Problem(1, "no deal: give 'seed' (a deal number) or 'deck' (the 40 cards in order)"))
    played: list[Move] = []
    if cards is None or source.kind == "unreadable":
        for number, move_line in enumerate(source.moves, start=1):
            if move_line.text:
                try:
                    Move.from_str(move_line.text)
                except InvalidMoveError as error:
                    problems.append(_move_problem(number, move_line, error.reason))
        return Verdict(source, _in_file_order(problems), None, played)

    state = State(cards)
    if on_state is not None:
        on_state(0, None, None, None, state)
    stopped = False
    for number, move_line in enumerate(source.moves, start=1):
        if move_line.text is None:
            stopped = True  # reported by read_source: not a string
            break
        try:
            move = Move.from_str(move_line.text)
            card = state.next_card
            state.apply(move)
        except (InvalidMoveError, IllegalMoveError) as error:
            problems.append(_move_problem(number, move_line, error.reason))
            stopped = True
            break
        played.append(move)
        if on_state is not None:
            on_state(number, move_line, move, card if move < 32 else None, state)
    if not stopped and source.kind == "record":
        problems.extend(_claim_problems(source, state))
    return Verdict(source, _in_file_order(problems), state, played)


def check_record(source: Source) -> Verdict:
    """Judge a file that must be a game record: a move log (YAML that is no mapping) is a problem."""
    if source.kind == "log":
        problem = Problem(1, "not a game record: its YAML is not a mapping (a move log? replay it with --seed)")
        return Verdict(source, [problem], None, [])
    return judge(source)


def _move_problem(number: int, move_line: MoveLine, reason: str) -> Problem:
    return Problem(
        move_line.line, f"move {number} {move_line.text!r}: {reason}", move_number=number, move_text=move_line.text
    )


def _claim_problems(source: Source, state: State) -> list[Problem]:
    problems = []
    outcome = state.outcome
    if source.result is not None and source.result != outcome.status:
        problems.append(
            Problem(
                source.lines["result"], f"result: the record says {source.result!r}, the moves give {outcome.status!r}"
            )
        )
    if source.score is not None:
        if outcome.status != WON:
            problems.append(
                Problem(
                    source.lines["score"], f"score: a score is only for a won game; the moves give {outcome.status!r}"
                )
            )
        elif source.score != outcome.score:
            problems.append(
                Problem(source.lines["score"], f"score: the record says {source.score}, the moves give {outcome.score}")
            )
    return problems


def _in_file_order(problems: list[Problem]) -> list[Problem]:
    return sorted(problems, key=lambda problem: problem.line if problem.line is not None else 0)


# -- writing --------------------------------------------------------------------


def format_record(
    moves: list[Move] | list[str],
    state: State,
    seed: int | None = None,
    meta: dict[str, Any] | None = None,
) -> str:
    """A game record in canonical form: the deal, the moves, the result (and score when won)."""
    lines = [f"foursquare: {FORMAT_VERSION}"]
    if seed is not None:
        lines.append(f"seed: {seed}")
    else:
        lines.append(f"deck: {format_cards(state.deck)}")
    if moves:
        lines.append("moves:")
        lines.extend(f"  - {move}" for move in moves)
    else:
        lines.append("moves: []")
    outcome = state.outcome
    lines.append(f"result: {outcome.status}")
    if outcome.score is not None:
        lines.append(f"score: {outcome.score}")
    text = "\n".join(lines) + "\n"
    if meta:
        text += yaml.safe_dump({"meta": meta}, default_flow_style=False, sort_keys=False, allow_unicode=True)
    return text


def write_atomically(path: str, text: str) -> None:
    """Replace `path` with `text` so that a reader (or a crash) sees the old file or the new, whole."""
    directory = os.path.dirname(os.path.abspath(path))
    handle, temporary = tempfile.mkstemp(prefix=".foursquare-", suffix=".tmp", dir=directory)
    replaced = False
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
        replaced = True
    finally:
        if not replaced:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
