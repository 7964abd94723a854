"""Game records and move logs (SPEC section 4): read, validate, replay, write.

Reading is in two steps. `read_source` turns bytes into a `Source` (what the file
says, with the line of everything in it) and records every problem of form it
finds. `judge` then plays the moves on the deal, through a `Game`, and adds every
problem of substance: an illegal move (after which later moves cannot be judged),
a claim (`result`, `score`) that the moves contradict.

A hostile file can make the reader do little: only regular files (and standard
input) are read, at most 1 MiB of them; YAML goes through PyYAML's safe loader
(the C one where available) with duplicate and merge keys refused; a document of
more than 10,000 nodes, one whose aliases expand to more than 10,000 nodes (a
"billion laughs"), one nested deeper than 50 levels, one with an alias inside the
node it names, or with a number of more than 40 characters is refused from the
parser's events, before any of it is built. The writer checks what it writes
against the same limits, so whatever the tool writes, it reads back.

A file is a game record when its YAML is a mapping, and otherwise a move log. A
file that is not YAML at all is a move log too, unless one of its lines looks
like a YAML key (`word:`) or it starts a flow mapping: then the YAML error is
what the author needs to see.
"""

from __future__ import annotations

import enum
import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any

import yaml

from .cards import SEED_MAX, Card, InvalidCardError, check_deck, deal
from .engine import WON, IllegalMoveError, InvalidMoveError, Move, State
from .game import Game, Step

FORMAT_VERSION = 1
MAX_BYTES = 1 << 20
MAX_NODES = 10_000
MAX_ALIAS_NODES = 10_000
MAX_DEPTH = 50
MAX_NUMBER_LENGTH = 40
MAX_LINE_BYTES = 4096
KEYS = ("foursquare", "seed", "deck", "moves", "result", "score", "undos", "meta")
RESULTS = ("won", "lost", "playing")
STDIN = "-"

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_LOOKS_LIKE_KEY = re.compile(r"^\s*(?:[\w-]+\s*:(?:\s|$)|\{|---)", re.MULTILINE)
_INT_LIKE = re.compile(r"[-+]?(?:0[xob]?)?[0-9a-fA-F_:]+")
_PLAIN_SEED = re.compile(r"0|[1-9][0-9]*|0x[0-9a-fA-F]+")
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


def shorten(text: str, limit: int = 40) -> str:
    """`text` quoted, at most `limit` characters of it: messages never echo a whole hostile input."""
    if len(text) <= limit:
        return repr(text)
    return repr(text[:limit]) + f"... ({len(text):,} characters)"


def _kind(value: object) -> str:
    if value is None:
        return "nothing (null)"
    return _YAML_TYPE_NAMES.get(type(value).__name__, type(value).__name__)


def _shown(value: object) -> str:
    """A value as a message quotes it: its repr, cut short; `null` for nothing."""
    if value is None:
        return "null"
    text = repr(value)
    return text if len(text) <= 40 else text[:40] + f"... ({len(text):,} characters)"


def _got(value: object) -> str:
    """`a number (12)`, `a mapping ({'B2': 'top'})`, `nothing (null)`: what a YAML value is, once."""
    return _kind(value) if value is None else f"{_kind(value)} ({_shown(value)})"


class SourceKind(enum.StrEnum):
    RECORD = "record"
    LOG = "log"
    UNREADABLE = "unreadable"


class ReadError(Exception):
    """A path that cannot be read as a file: missing, a FIFO or a device, closed standard input."""


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a file, where it is (line 1-based; column when known), and why."""

    line: int | None
    message: str
    move_number: int | None = None
    move_text: str | None = None
    column: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"line": self.line, "move": self.move_number, "move_text": self.move_text, "message": self.message}


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
    meta: RawMeta | None = None  # the text of the `meta:` entry, when it is a block of its own
    meta_value: Any = None  # the `meta` mapping as constructed (a list of pairs for an !!omap)
    lines: dict[str, int] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)

    @property
    def display_name(self) -> str:
        return display_name(self.path)


def display_name(path: str) -> str:
    """How a path is named in messages: `<stdin>` for `-`, quoted when it holds control characters."""
    if path == STDIN:
        return "<stdin>"
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in path):
        return repr(path)
    return path


class _StrictLoader(_Loader):  # type: ignore[misc, valid-type]
    """The safe loader, refusing a key repeated in one mapping (PyYAML keeps the last), merge keys and keys
    that are collections."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            line = key_node.start_mark.line + 1
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise _Refused(line, "merge keys ('<<') are not allowed in a record; write the keys out")
            if not isinstance(key_node, yaml.ScalarNode):
                raise _Refused(line, "a key must be a plain word, not a list or a mapping")
            key = self.construct_object(key_node)
            if key in seen:
                raise _Refused(
                    line, f"duplicate key {shorten(str(key))} (first at line {seen[key]}); a key may appear once"
                )
            seen[key] = line
        mapping: dict[Any, Any] = super().construct_mapping(node, deep)
        return mapping


class _Refused(Exception):
    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


def _line_of(event: yaml.Event) -> int:
    return event.start_mark.line + 1 if event.start_mark is not None else 1


def _prescan(text: str) -> int:
    """Count what the document would build, from the parser's events, before building any of it.

    Raises _Refused (with the line where a limit is passed) for a document of more
    than MAX_NODES nodes as written, more than MAX_ALIAS_NODES nodes added by its
    aliases, nested deeper than MAX_DEPTH, an alias inside the node it names, or a
    number longer than MAX_NUMBER_LENGTH. Events come one at a time, so this
    costs no memory; the nodes are built only for a document that passes.
    """
    sizes: dict[str, int] = {}
    open_anchors: set[str] = set()
    stack: list[list[Any]] = []  # [anchor, expanded nodes so far] for each open collection
    written = aliased = 0
    for event in yaml.parse(text, Loader=_Loader):
        if isinstance(event, yaml.CollectionStartEvent):
            if len(stack) >= MAX_DEPTH:
                raise _Refused(_line_of(event), f"nested deeper than {MAX_DEPTH} levels; refused")
            stack.append([event.anchor, 1])
            if event.anchor:
                open_anchors.add(event.anchor)
            written += 1
            size = 0
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, size = stack.pop()
            if anchor:
                sizes[anchor] = size
                open_anchors.discard(anchor)
        elif isinstance(event, yaml.ScalarEvent):
            value = event.value
            if event.implicit[0] and len(value) > MAX_NUMBER_LENGTH and _INT_LIKE.fullmatch(value):
                raise _Refused(
                    _line_of(event), f"a number of {len(value):,} characters; refused (a deal number has at most 20)"
                )
            size = 1
            written += 1
            if event.anchor:
                sizes[event.anchor] = 1
        elif isinstance(event, yaml.AliasEvent):
            if event.anchor in open_anchors:
                raise _Refused(_line_of(event), "an alias refers to the node that contains it; refused")
            size = sizes.get(event.anchor or "", 1)  # an undefined alias is the composer's to report
            aliased += size
            if aliased > MAX_ALIAS_NODES:
                raise _Refused(
                    _line_of(event),
                    f"its aliases expand to more than {MAX_ALIAS_NODES:,} nodes; refused (a 'billion laughs' file?)",
                )
        else:
            continue
        if written > MAX_NODES:
            raise _Refused(
                _line_of(event),
                f"more than {MAX_NODES:,} YAML nodes; refused (a record of a whole game has a few dozen)",
            )
        if stack:
            stack[-1][1] += size
    return written


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


# -- reading files and lines ----------------------------------------------------


def open_input(path: str) -> IO[bytes]:
    """A binary stream of `path`: standard input for `-`, else a regular file (never a FIFO or device).

    ReadError saying why, in one line, for anything else.
    """
    if path == STDIN:
        stdin = sys.stdin
        if stdin is None or stdin.closed:
            raise ReadError("standard input is closed")
        return stdin.buffer
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise ReadError(f"cannot read: {error.strerror or error}") from None
    opened = False
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise ReadError(f"not a regular file ({_file_type(mode)}); give a file, or - for standard input")
        os.set_blocking(fd, True)
        stream = os.fdopen(fd, "rb")
        opened = True
        return stream
    finally:
        if not opened:
            os.close(fd)


def _file_type(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def read_bytes(path: str) -> bytes:
    """At most MAX_BYTES + 1 bytes of `path` (see `open_input`); ReadError when it cannot be read."""
    stream = open_input(path)
    try:
        return stream.read(MAX_BYTES + 1)
    except OSError as error:
        raise ReadError(f"cannot read: {error.strerror or error}") from None
    finally:
        if path != STDIN:
            stream.close()


class LineTooLong(ValueError):
    def __init__(self, number: int) -> None:
        super().__init__(f"line {number} is longer than {MAX_LINE_BYTES:,} bytes; refused")
        self.number = number


class NotUtf8(ValueError):
    def __init__(self, number: int) -> None:
        super().__init__("not UTF-8 text")
        self.number = number


def iter_lines(stream: IO[bytes]) -> Iterator[tuple[int, str]]:
    """(line number, text) of a binary stream, as soon as each line is complete.

    The one way moves are read, by `play` from a pipe and `replay` from a log: lines
    end in LF, CRLF or CR; a byte-order mark at the start is dropped; a line longer
    than MAX_LINE_BYTES raises LineTooLong without being read whole; bytes that are
    not UTF-8 raise NotUtf8 with their line.
    """
    read = getattr(stream, "read1", stream.read)
    pending = b""
    number = 0
    skip_lf = False
    first = True
    while True:
        chunk = read(MAX_LINE_BYTES)
        if not chunk:
            if pending:
                number += 1
                yield number, _decode(pending, number, first)
            return
        if skip_lf and chunk.startswith(b"\n"):
            chunk = chunk[1:]
        skip_lf = False
        pending += chunk
        while True:
            cut = _line_end(pending)
            if cut < 0:
                break
            line, ending = pending[:cut], pending[cut : cut + 1]
            pending = pending[cut + 1 :]
            if ending == b"\r":
                if pending.startswith(b"\n"):
                    pending = pending[1:]
                elif not pending:
                    skip_lf = True
            number += 1
            yield number, _decode(line, number, first)
            first = False
        if len(pending) > MAX_LINE_BYTES:
            raise LineTooLong(number + 1)


def _line_end(data: bytes) -> int:
    lf, cr = data.find(b"\n"), data.find(b"\r")
    if lf < 0:
        return cr
    if cr < 0:
        return lf
    return min(lf, cr)


def _decode(line: bytes, number: int, first: bool) -> str:
    if len(line) > MAX_LINE_BYTES:
        raise LineTooLong(number)
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise NotUtf8(number) from None
    return text[1:] if first and text.startswith("\ufeff") else text


def move_text(line: str) -> str:
    """The move on a line of a log: `#` starts a comment; white space around it is dropped."""
    return line.split("#", 1)[0].strip()


# -- sources --------------------------------------------------------------------


def read_source(path: str, data: bytes | None = None) -> Source:
    """Parse a game record or a move log. Problems of form are in `Source.problems`.

    ReadError (a missing or unreadable file) is raised, not reported: it is a usage error.
    """
    if data is None:
        data = read_bytes(path)
    source = Source(path=path, kind=SourceKind.UNREADABLE)
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
    except _Refused as error:
        source.problems.append(Problem(error.line, error.message))
        return source
    except RecursionError:
        source.problems.append(Problem(None, "nested too deeply; refused"))
        return source
    except yaml.YAMLError as error:
        if not _LOOKS_LIKE_KEY.search(text):
            return _read_move_log(source, data)
        source.problems.append(_yaml_problem(error))
        return source
    if isinstance(value, dict) and isinstance(node, yaml.MappingNode):
        return _read_record(source, value, node, text)
    return _read_move_log(source, data)


def _yaml_problem(error: yaml.YAMLError) -> Problem:
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    detail = " ".join(str(part) for part in (getattr(error, "context", None), getattr(error, "problem", None)) if part)
    detail = detail or str(error).splitlines()[0]
    if mark is None:
        return Problem(None, f"YAML syntax error: {detail}")
    return Problem(mark.line + 1, f"YAML syntax error: {detail}", column=mark.column + 1)


def _read_move_log(source: Source, data: bytes) -> Source:
    source.kind = SourceKind.LOG
    try:
        for number, line in iter_lines(io.BytesIO(data)):
            text = move_text(line)
            if text:
                source.moves.append(MoveLine(text, number))
    except (LineTooLong, NotUtf8) as error:
        source.problems.append(Problem(error.number, str(error)))
    return source


def _read_record(source: Source, value: dict[Any, Any], node: yaml.MappingNode, text: str) -> Source:
    source.kind = SourceKind.RECORD
    problems = source.problems
    value_nodes: dict[str, yaml.Node] = {}
    key_nodes: dict[str, yaml.Node] = {}
    for key_node, value_node in node.value:
        key = key_node.value if isinstance(key_node, yaml.ScalarNode) else None
        line = key_node.start_mark.line + 1
        if key not in KEYS:
            import difflib

            close = difflib.get_close_matches(str(key), KEYS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else f"; keys are {', '.join(KEYS)}"
            problems.append(Problem(line, f"unknown key {shorten(str(key))}{hint}"))
            continue
        source.lines[key] = line
        value_nodes[key] = value_node
        key_nodes[key] = key_node

    if "foursquare" not in source.lines:
        problems.append(Problem(1, "missing required key 'foursquare' (the format version: foursquare: 1)"))
    else:
        version_node = value_nodes["foursquare"]
        if not (isinstance(version_node, yaml.ScalarNode) and version_node.value == "1" and not version_node.style):
            plain = isinstance(version_node, yaml.ScalarNode) and not version_node.style
            written = version_node.value[:40] if plain else _shown(value["foursquare"])
            problems.append(
                Problem(
                    source.lines["foursquare"],
                    f"foursquare: {written} is not a supported format version; it must be 1",
                )
            )

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
        else:
            source.score = score
    if "undos" in source.lines:
        undos = value["undos"]
        if type(undos) is not int or undos < 0:
            problems.append(
                Problem(
                    source.lines["undos"],
                    f"undos: {_shown(undos)} is not a count of undone moves; it is a whole number from 0",
                )
            )
        else:
            source.undos = undos
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


def _raw_meta(text: str, key_node: yaml.Node, value_node: yaml.Node) -> RawMeta | None:
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
    if source.meta and _reads_back(source.meta, wanted):
        return source.meta
    dumped = _dumped(wanted)
    return RawMeta(dumped) if dumped and _reads_back(dumped, wanted) else None


def _reads_back(text: str, wanted: dict[str, Any]) -> bool:
    loader = _Loader(str(text))  # the safe loader; libyaml takes an exact str
    try:
        return bool(loader.get_single_data() == wanted)
    except yaml.YAMLError:
        return False
    finally:
        loader.dispose()


def _dumped(value: dict[str, Any]) -> str:
    try:
        return yaml.safe_dump(value, default_flow_style=False, sort_keys=False, allow_unicode=True)
    except yaml.YAMLError:
        return ""


def _read_seed(seed: Any, node: yaml.Node, line: int, problems: list[Problem]) -> int | None:
    if isinstance(seed, bool) or not isinstance(seed, int):
        what = "has no value" if seed is None else f"{_shown(seed)} is {_kind(seed)}"
        problems.append(Problem(line, f"seed: {what}; a seed is a whole number from 0 to {SEED_MAX}"))
        return None
    written = node.value if isinstance(node, yaml.ScalarNode) else ""
    if written.startswith("-"):
        problems.append(Problem(line, f"seed: {written[:40]} is negative; seeds are 0 to {SEED_MAX}"))
        return None
    if not _PLAIN_SEED.fullmatch(written):
        problems.append(
            Problem(
                line,
                f"seed: {written[:40]} is a YAML 1.1 number form ({_number_form(written)}) that readers disagree "
                "on; write the deal number in decimal digits (or 0x hex)",
            )
        )
        return None
    if seed > SEED_MAX:
        problems.append(Problem(line, f"seed: {written[:40]} is out of range; seeds are 0 to {SEED_MAX}"))
        return None
    return seed


def _number_form(written: str) -> str:
    if ":" in written:
        return "base 60"
    if "_" in written:
        return "digits with underscores"
    if written.lower().startswith(("0b", "+0b")):
        return "binary"
    if written.startswith("+"):
        return "a plus sign"
    if written.startswith("0"):
        return "a leading 0 means octal"
    return "not plain decimal"


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


def _read_moves(source: Source, moves: Any, node: yaml.Node) -> None:
    if not isinstance(moves, list) or not isinstance(node, yaml.SequenceNode):
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


# -- judging --------------------------------------------------------------------


@dataclass
class Verdict:
    """What playing a source's moves showed: the problems, and the game as far as it was legal."""

    source: Source
    problems: list[Problem]
    game: Game | None  # None when there is no deal

    @property
    def valid(self) -> bool:
        return not self.problems

    @property
    def state(self) -> State | None:
        return self.game.state if self.game is not None else None

    @property
    def moves(self) -> list[Move]:
        return self.game.moves if self.game is not None else []

    def as_dict(self) -> dict[str, Any]:
        outcome = self.state.outcome if self.state is not None else None
        return {
            "path": self.source.path,
            "valid": self.valid,
            "outcome": None
            if outcome is None
            else {
                "status": str(outcome.status),
                "score": outcome.score,
                "moves": len(self.moves),
                "undos": self.source.undos,
            },
            "problems": [problem.as_dict() for problem in self.problems],
        }


class DealConflict(ValueError):
    """A --seed or --deck given on the command line that the record contradicts."""


StepListener = Callable[[Step], None]


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
    on_step: StepListener | None = None,
) -> Verdict:
    """Play the moves of `source` on its deal and collect every problem, in file order.

    `on_step(step)` is called with the start (ply 0) and after every legal move.
    DealConflict if `seed`/`deck` contradict the record.
    """
    problems = list(source.problems)
    cards = resolve_deck(source, seed, deck)
    if source.kind is SourceKind.RECORD and cards is None and "seed" not in source.lines and "deck" not in source.lines:
        problems.append(Problem(1, "no deal: give 'seed' (a deal number) or 'deck' (the 40 cards in order)"))
    if cards is None or source.kind is SourceKind.UNREADABLE:
        for number, move_line in enumerate(source.moves, start=1):
            if move_line.text:
                try:
                    Move.from_str(move_line.text)
                except InvalidMoveError as error:
                    problems.append(_move_problem(number, move_line, error.reason))
        return Verdict(source, _in_file_order(problems), None)

    game = Game(cards, seed=source.seed if source.seed is not None else seed, meta=source.meta)
    game.undos = source.undos
    if on_step is not None:
        on_step(game.step)
    stopped = False
    for number, move_line in enumerate(source.moves, start=1):
        if move_line.text is None:
            stopped = True  # reported by read_source: not a string
            break
        try:
            step = game.play(Move.from_str(move_line.text))
        except (InvalidMoveError, IllegalMoveError) as error:
            problems.append(_move_problem(number, move_line, error.reason))
            stopped = True
            break
        if on_step is not None:
            on_step(step)
    if not stopped and source.kind is SourceKind.RECORD:
        problems.extend(_claim_problems(source, game.state))
    return Verdict(source, _in_file_order(problems), game)


def check_record(source: Source) -> Verdict:
    """Judge a file that must be a game record: a move log (YAML that is no mapping) is a problem."""
    if source.kind is SourceKind.LOG:
        problem = Problem(1, "not a game record: its YAML is not a mapping (a move log? replay it with --seed)")
        return Verdict(source, [problem], None)
    return judge(source)


def check_path(path: str) -> Verdict | ReadError:
    """Read and judge one record; a ReadError is returned, not raised, so a run goes on to the next file."""
    try:
        return check_record(read_source(path))
    except ReadError as error:
        return error


def _move_problem(number: int, move_line: MoveLine, reason: str) -> Problem:
    text = move_line.text or ""
    return Problem(
        move_line.line, f"move {number} {shorten(text)}: {reason}", move_number=number, move_text=move_line.text
    )


def _claim_problems(source: Source, state: State) -> list[Problem]:
    problems = []
    outcome = state.outcome
    if source.result is not None and source.result != outcome.status:
        problems.append(
            Problem(
                source.lines["result"],
                f"result: the record says {source.result!r}, the moves give {str(outcome.status)!r}",
            )
        )
    if source.score is not None:
        if outcome.status is not WON:
            problems.append(
                Problem(
                    source.lines["score"],
                    f"score: a score is only for a won game; the moves give {str(outcome.status)!r}",
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


def format_record(game: Game) -> str:
    """A game record in canonical form: the deal, the moves, the result (and score when won), undos, meta."""
    lines = [f"foursquare: {FORMAT_VERSION}"]
    if game.seed is not None:
        lines.append(f"seed: {game.seed}")
    else:
        lines.append("deck: " + " ".join(str(card) for card in game.deck))
    moves = game.moves
    if moves:
        lines.append("moves:")
        lines.extend(f"  - {move}" for move in moves)
    else:
        lines.append("moves: []")
    outcome = game.state.outcome
    lines.append(f"result: {outcome.status}")
    if outcome.score is not None:
        lines.append(f"score: {outcome.score}")
    if game.undos:
        lines.append(f"undos: {game.undos}")
    text = "\n".join(lines) + "\n"
    meta = game.meta
    if isinstance(meta, RawMeta):
        text += meta
    elif meta:
        text += _dumped({"meta": meta})
    return text


def meta_nodes(game: Game) -> int:
    """How many YAML nodes the game's `meta` adds to its record (0 without one): counted once per session."""
    text = format_record(Game(game.deck, meta=game.meta)) if game.meta else ""
    return _prescan(text) - _prescan(format_record(Game(game.deck))) if text else 0


def unreadable_reason(text: str, moves: int, meta: int) -> str | None:
    """Why the reader would refuse a record of `text` (`moves` moves, `meta` nodes of meta), or None.

    The writer's check, so that whatever the tool writes it reads back. A canonical
    record has 9 nodes besides its moves and meta (a mapping, four keys and values
    at most, and the list of moves).
    """
    if len(text.encode("utf-8")) > MAX_BYTES:
        return f"the record would be larger than {MAX_BYTES >> 20} MiB"
    if 13 + moves + meta > MAX_NODES:
        return f"the record would have more than {MAX_NODES:,} YAML nodes, more than a record may hold"
    return None


class NoDeal(ValueError):
    """A move log given with no deal to play it on."""


def load(
    path: str, seed: int | None = None, deck: tuple[Card, ...] | None = None, on_step: StepListener | None = None
) -> Verdict:
    """Read a record or a move log and play it on its deal: the one call of `replay`, `hint`, `play --resume`.

    ReadError, DealConflict and NoDeal are the caller's usage errors; problems of the file are in the verdict.
    """
    if seed is not None and deck is not None:
        raise DealConflict("give --seed or --deck, not both")
    source = read_source(path)
    if source.kind is SourceKind.LOG and seed is None and deck is None:
        raise NoDeal("a move log carries no deal; give --seed N or --deck CARDS")
    return judge(source, seed=seed, deck=deck, on_step=on_step)
