"""One harness a reader of the tool: each takes the fuzzer's bytes and feeds them to the reader as the tool does.

The invariant of every harness: the input is read, or refused with the tool's own error kinds
(`FoursquareError` subclasses, or the `ValueError` its API documents); anything else it raises is a crash
(atheris stops there and keeps the input). A harness also holds what the reader promises beyond that where it
is cheap to check (a record the tool writes reads back the same, a canonical player name is its own canonical
form, an answer taken from a bot is a legal move). Issues another change is fixing are `KNOWN`: counted and
said once each, never a crash, so the campaign can go on.

No harness needs atheris: `fuzz.atheris_main` runs one under libFuzzer, and the tests feed them the seed corpora
and mutations of them (`fuzz.mutate`).
"""

from __future__ import annotations

import copy
import importlib.machinery
import importlib.util
import io
import json
import math
import os
import sys
import tempfile
import traceback
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from foursquare_cli.api import state_from_protocol
from foursquare_cli.app.check import CheckedFile
from foursquare_cli.app.loading import Problems
from foursquare_cli.app.pipe import play_from_pipe
from foursquare_cli.app.session import Session
from foursquare_cli.app.summarize import summarized
from foursquare_cli.errors import ExitStatus, FoursquareError, PlayerError, UsageError
from foursquare_cli.formats.protocol import ProtocolState
from foursquare_cli.formats.records import (
    check_record,
    format_record,
    load,
    meta_nodes,
    unreadable_reason,
)
from foursquare_cli.formats.source import SourceKind, keepable_meta, read_source
from foursquare_cli.players.outside import _parse_move
from foursquare_cli.players.registry import PlayerSpec, parse_player_name
from foursquare_cli.rules.engine import State
from foursquare_cli.rules.game import Game, Step
from foursquare_cli.store.config import KINDS, read_settings
from foursquare_cli.ui.board import Style
from foursquare_cli.ui.output import OutputFormat, Screen, emit
from foursquare_cli.ui.terminal import PipeScreen

from .data import Reader

NAME = "fuzzed.yaml"  # how a record harness names its input (no file is read)
LOG_SEED = 5  # the deal of samples/opening.moves: the move logs of the corpus are its moves
PIPE_SEEDS = (92, 5, 7, 1)  # the deals of samples/: the first input byte picks one


class HarnessFailure(AssertionError):
    """A promise of a reader broken without an exception of its own (a record that does not read back)."""


# -- issues known, being fixed elsewhere ----------------------------------------------------------------

KNOWN: dict[str, tuple[type[BaseException], ...]] = {
    # A reader's failure found and being fixed by another change is counted here by kind and place, and
    # reported, not hidden. None today: `state_from_protocol`'s (KeyError, TypeError, IndexError,
    # AttributeError and a hang on an `unseen` count of 2**63) were fixed, and the harness holds it to ValueError.
}
known_seen: Counter[str] = Counter()


def known(where: str, error: BaseException) -> None:
    """An issue of `KNOWN` met: counted by its kind and the line of the tool it was raised at, and said on standard
    error (`fuzz: known issue ...`) the first time each is met."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if "foursquare_cli" in frame.filename]
    place = f" at {Path(frames[-1].filename).name}:{frames[-1].lineno}" if frames else ""
    signature = f"{where}: {type(error).__name__}{place}"
    known_seen[signature] += 1
    if known_seen[signature] == 1:
        print(f"fuzz: known issue {signature}: {str(error)[:80]!r}", file=sys.stderr, flush=True)


def _screen() -> Screen:
    return Screen(Style(), out=io.StringIO(), err=io.StringIO(), width=lambda: 80)


def _shown(value: object, screen: Screen) -> None:
    """`value` said as each command says it: as text, and as JSON."""
    emit(value, OutputFormat.TEXT, screen)
    emit(value, OutputFormat.JSON, screen)


# -- game records and move logs: `check`, `replay`, `play --resume` -------------------------------------


def records(data: bytes) -> None:
    """`check FILE` (read_source, check_record, its verdict said) and `replay FILE` (load, each step shown); a
    valid record written back as `play --resume` writes it must read back as the same game."""
    screen = _screen()
    source = read_source(NAME, data)  # problems of form are in the source: nothing may be raised
    verdict = check_record(source)
    _shown(Problems(verdict), screen)
    _shown(CheckedFile(NAME, verdict), screen)
    verdict.outcome_words()
    try:
        replayed = load(NAME, seed=LOG_SEED if source.kind is SourceKind.LOG else None, data=data)
    except UsageError:
        pass  # a log with no deal, a deal given twice: said in one line, exit 2
    else:
        for step in replayed.game.steps if replayed.game is not None else []:
            _shown(step, screen)
    if verdict.valid and verdict.game is not None:
        _reads_back(source, verdict.game)


def _reads_back(source: Any, game: Game) -> None:
    """The record `play --resume` would write of `game` reads back as the same game (or is refused before it is
    written, as the session refuses it: `unreadable_reason`)."""
    meta = source.meta_value
    if isinstance(meta, dict) and "started" in meta:
        game.meta = dict(meta)
    elif meta is not None:
        game.meta = keepable_meta(source)
        if game.meta is None:
            return  # resuming is refused: its meta cannot be written back as it was
    text = format_record(game)
    if unreadable_reason(text, len(game.moves), meta_nodes(game), game.hints) is not None:
        return
    back = check_record(read_source(NAME, text.encode("utf-8")))
    if not back.valid or back.game is None:
        raise HarnessFailure(f"the record written back is invalid: {[p.message for p in back.problems]}\n{text}")
    if back.moves != game.moves or back.game.deck != game.deck or back.source.undos != game.undos:
        raise HarnessFailure(f"the record written back is another game:\n{text}")


# -- results files: `summarize` -------------------------------------------------------------------------

_FOLDER: list[str] = []
SPLIT = b"\x1e"  # a record separator in the input: what comes after it is a second file


def _scratch(name: str) -> str:
    if not _FOLDER:
        base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
        _FOLDER.append(tempfile.mkdtemp(prefix="foursquare-fuzz-", dir=base))
    return os.path.join(_FOLDER[0], name)


def results(data: bytes) -> None:
    """`summarize FILE...`: the plan and every game line checked (its moves replayed), the files merged, the
    figures said. A separator byte (0x1e) splits the input into two files of one run; an input of even length
    is read with `--verify` (each line of greedy or random played again by its player)."""
    paths = []
    for number, part in enumerate(data.split(SPLIT, 1)):
        path = _scratch(f"results-{number}.jsonl")
        with open(path, "wb") as stream:
            stream.write(part)
        paths.append(path)
    try:
        values = summarized(paths, verify=len(data) % 2 == 0)
    except FoursquareError:
        return
    for value in values:
        _shown(value, _screen())


# -- settings: config.toml --------------------------------------------------------------------------------


def config(data: bytes) -> None:
    """The settings file as every command reads it (`read_settings`): ConfigError, or settings of their kinds."""
    path = Path(_scratch("config.toml"))
    path.write_bytes(data)
    try:
        settings = read_settings(path)
    except UsageError:
        return
    for key, value in settings.values.items():
        kind = KINDS[key]
        if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
            raise HarnessFailure(f"setting {key} read as {value!r}, not a {kind.__name__}")
        if isinstance(value, float) and not (math.isfinite(value) and value > 0):
            raise HarnessFailure(f"setting {key} read as {value!r}")


# -- player names: `--player NAME:key=value`, `fast=expert:playouts=500` ---------------------------------


def players(data: bytes) -> None:
    """A player's name as `--player` reads it (argv: surrogate escapes for bytes that are not UTF-8): its
    canonical form, which must be its own canonical form (results files compare names so), and its settings."""
    text = data.decode("utf-8", errors="surrogateescape")
    try:
        spec = PlayerSpec.parse(text)
    except PlayerError:
        return
    again = PlayerSpec.parse(spec.text)
    if again.text != spec.text:
        raise HarnessFailure(f"{text!r}: canonical {spec.text!r}, whose canonical form is {again.text!r}")
    if parse_player_name(spec.text) != (spec.label, spec.name):
        raise HarnessFailure(f"{text!r}: its canonical form {spec.text!r} names another player")
    spec.settings  # noqa: B018 - a registered player's settings, read from the name (PlayerError: a bug)
    spec.kind  # noqa: B018


# -- the move protocol: the states a bot is sent (read back by state_from_protocol), and its answers ----------

_VALUES: tuple[Any, ...] = (None, True, False, 0, 1, -1, 4, 5, 40, 2**63, -(2**70), 0.5, 1e308, math.nan, "", "A")
_VALUES += ("10", "7S", "10H", "AC", "XX", "playing", "won", "up", "top", [], {}, [None], [[]], {"card": "AS"})


def _position(reader: Reader) -> Step:
    """A step of a real game: a deal, and some moves each picked from the legal ones."""
    game = Game.from_seed(reader.number(0, 2**16))
    for _ in range(reader.number(0, 45)):
        legal = game.state.legal_moves()
        if not legal:
            break
        game.play(reader.pick(legal))
    return game.step


def _fuzzed_value(reader: Reader) -> Any:
    kind = reader.number(0, 3)
    if kind == 0:
        return reader.number(-300, 300)
    if kind == 1:
        return reader.chunk(8).decode("utf-8", errors="replace")
    return copy.deepcopy(reader.pick(_VALUES))  # a copy: a list of _VALUES changed in place stays as it was


def _places(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (the keys and indexes to it)."""
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _places(item, (*path, index))
    return found


def _mutated(sent: dict[str, Any], reader: Reader) -> dict[str, Any]:
    """A state of the protocol with a few values changed, taken away or added, each where the bytes say."""
    for _ in range(reader.number(1, 4)):
        path = reader.pick(_places(sent)[1:])
        parent: Any = sent
        for key in path[:-1]:
            parent = parent[key]
        action = reader.number(0, 3)
        if action == 0 and isinstance(parent, dict):
            del parent[path[-1]]
        elif action == 1 and isinstance(parent, list):
            parent.append(_fuzzed_value(reader))
        else:
            parent[path[-1]] = _fuzzed_value(reader)
    return sent


def protocol(data: bytes) -> None:
    """What the tool reads of the move protocol: a bot's answer line (`outside._parse_move`: a legal move or a
    forfeit), and a state read back into a position (`api.state_from_protocol`: a State, or ValueError), the
    state either as the bytes give it (JSON) or a real one of version 2 changed in a few places."""
    reader = Reader(data)
    mode = reader.number(0, 2)
    if mode == 0:  # an answer to a state (what `_receive` makes of the bytes: one line, stripped)
        step = _position(reader)
        if step.state.is_over:
            return
        answer = reader.rest().partition(b"\n")[0].decode("utf-8", errors="replace").strip()
        try:
            move = _parse_move(answer, step.state, step.ply + 1)
        except FoursquareError:
            return
        if not step.state.is_legal(move):
            raise HarnessFailure(f"answer {answer!r} taken as {move}, which is not legal")
        return
    if mode == 1:
        try:
            sent = json.loads(reader.rest())
        except (ValueError, RecursionError):
            return
        if not isinstance(sent, dict):
            return  # the API takes a mapping (a JSON object): anything else is its caller's mistake
    else:
        step = _position(reader)
        sent = ProtocolState(step, version=2, move_time=1.0).to_json()
        if reader.flag():
            sent = _mutated(sent, reader)
        elif not step.state.is_over:
            rebuilt = state_from_protocol(sent, seed=reader.byte())
            if [str(move) for move in rebuilt.legal_moves()] != sent["legal"]:
                raise HarnessFailure(f"state_from_protocol changed the legal moves of {sent}")
    try:
        state_from_protocol(sent, seed=reader.byte())
    except ValueError:
        return


# -- `play` from a pipe -----------------------------------------------------------------------------------


def pipe(data: bytes) -> None:
    """`play` with its moves piped in (`app.pipe.play_from_pipe`, in-process): the first byte picks the deal and
    the output (text boards or JSON lines), the rest is standard input. The loop says every end itself: it must
    return an exit status, never raise."""
    reader = Reader(data)
    choice = reader.byte()
    session = Session(Game.from_seed(PIPE_SEEDS[choice % len(PIPE_SEEDS)]))
    output = OutputFormat.JSON if choice & 0x80 else OutputFormat.TEXT
    view = PipeScreen(_screen(), output, io.BytesIO(reader.rest()), "<stdin>")
    status = play_from_pipe(session, view)
    if status not in (ExitStatus.SUCCESS, ExitStatus.INVALID):
        raise HarnessFailure(f"the pipe ended with {status!r}")


# -- the C playouts (`_playout`): fuzzed but type-correct arguments ----------------------------------------

PLAYOUT_MODULE = "FOURSQUARE_FUZZ_PLAYOUT"
"""The path of a `_playout` build to fuzz (fuzz/build_asan.py builds one under AddressSanitizer); else the one
installed."""

_MODULE: list[ModuleType] = []


def playout_module() -> ModuleType:
    if not _MODULE:
        path = os.environ.get(PLAYOUT_MODULE)
        if path:
            loader = importlib.machinery.ExtensionFileLoader("_playout", path)
            spec = importlib.util.spec_from_file_location("_playout", path, loader=loader)
            assert spec is not None
            module = importlib.util.module_from_spec(spec)
            loader.exec_module(module)
        else:
            from foursquare_cli.rules import _playout as module
        _MODULE.append(module)
    return _MODULE[0]


_INTS = (0, 1, -1, 2, 4, 15, 16, 24, 25, 39, 40, 41, 0xFFFF, 0x10000, 2**31 - 1, -(2**31), 2**40, 2**63, 2**64 - 1)


def _int(reader: Reader, usual: int) -> int:
    """`usual` most of the time, else a value near it or at an edge."""
    how = reader.number(0, 7)
    if how < 5:
        return usual
    if how == 5:
        return usual + reader.number(-3, 3)
    return reader.pick(_INTS)


def _bytes(reader: Reader, usual: bytes) -> bytes:
    """`usual`, or it with a few bytes changed, or cut, or made longer."""
    how = reader.number(0, 7)
    if how < 4:
        return usual
    changed = bytearray(usual)
    if how == 4:
        return bytes(changed[: reader.number(0, len(changed))])
    if how == 5:
        return bytes(changed + bytes([reader.byte()]))
    for _ in range(reader.number(1, 3)):
        if changed:
            changed[reader.number(0, len(changed) - 1)] = reader.pick((0, 1, 4, 5, 10, 11, 24, 40, 41, 255))
    return bytes(changed)


def playout(data: bytes) -> None:
    """Each function of `_playout` called with a real position's integers, a few of them changed (a position no
    game reaches, a length not the one asked for, a number beyond its range): an answer, or ValueError or
    OverflowError, never a read out of bounds (AddressSanitizer) nor a hang. What `deal`, `finish`, `safe_ranks`
    and `futures` answer is held to their twins in Python (`integer_playout`), move for move the same: a twin
    that raises where C answered means C read what is not there (a read ASan misses when it lands in the next
    array). Budgets are kept small, so that each call is quick."""
    from foursquare_cli.players.futures import EXPERTS_VALUATION, tail_arguments, worth_tables
    from foursquare_cli.rules import integer_playout as twin
    from foursquare_cli.rules import playout as python

    c = playout_module()
    reader = Reader(data)
    which = reader.number(0, 4)
    state = _position(reader).state
    if state.is_over:
        return
    stock = python.stock_of(state)
    drawn, occupied, down, ranks, heights = python.start_of(state)
    unseen = bytes(sorted(card.rank for card in state.unseen_cards()))
    won, lost = worth_tables(EXPERTS_VALUATION)
    tail, table = tail_arguments() if reader.flag() else (0, b"")
    card = state.next_card
    assert card is not None
    if which == 0:
        arguments: tuple[Any, ...] = (_bytes(reader, stock[: drawn + 1]), _bytes(reader, unseen), _int(reader, drawn))
        _held_to(c.deal, twin.deal_python, arguments)
    elif which == 1:
        arguments = (
            _bytes(reader, stock),
            _int(reader, drawn),
            _int(reader, occupied),
            _int(reader, down),
            _bytes(reader, ranks),
            _bytes(reader, heights),
            reader.flag(),
            _int(reader, 40),
        )
        _held_to(c.finish, twin.finish_python, arguments)
    elif which == 2:
        arguments = (_int(reader, occupied), _int(reader, down), _bytes(reader, ranks), _bytes(reader, heights))
        _held_to(c.safe_ranks, twin.safe_ranks_python, arguments)
    elif which == 3:
        starts = b"".join(
            _bytes(reader, python.candidate_record(_after(state, move)))
            for move in state.legal_moves()[: reader.number(0, 6)]
        )
        arguments = (
            _bytes(reader, stock[: drawn + 1]),
            _bytes(reader, unseen),
            reader.number(0, 2**64 - 1),
            _int(reader, reader.number(0, 1000)),
            min(_int(reader, reader.number(0, 3)), 6),
            starts,
            reader.flag(),
            _bytes(reader, won),
            _bytes(reader, lost),
            _int(reader, tail),
            _bytes(reader, table),
        )
        _held_to(c.futures, twin.futures_python, arguments)
    else:
        arguments = (
            _int(reader, occupied),
            _int(reader, down),
            _int(reader, drawn),
            _bytes(reader, ranks),
            _bytes(reader, heights),
            _int(reader, card.rank),
            _bytes(reader, unseen),
            min(_int(reader, reader.number(1, 40)), 200),
            reader.flag(),
            _bytes(reader, won),
            _bytes(reader, lost),
            min(_int(reader, reader.number(0, 3)), 4),
            min(_int(reader, reader.number(1, 8)), 16),
            _int(reader, tail),
            _bytes(reader, table),
        )
        _held_to(c.reply, None, arguments)


def _held_to(function: Callable[..., Any], python: Callable[..., Any] | None, arguments: tuple[Any, ...]) -> None:
    """`function(*arguments)` answers, or refuses with ValueError or OverflowError; what it answers, its twin in
    Python answers too (when it has one)."""
    try:
        answered = function(*arguments)
    except (ValueError, OverflowError):
        return
    if python is None:
        return
    try:
        expected = python(*arguments)
    except Exception as error:
        raise HarnessFailure(
            f"{function.__name__}{_short(arguments)} answered {answered!r} where its twin in Python raises "
            f"{type(error).__name__}: {error}"
        ) from error
    if answered != expected:
        raise HarnessFailure(f"{function.__name__}{_short(arguments)}: C {answered!r}, Python {expected!r}")


def _short(arguments: tuple[Any, ...]) -> str:
    return "(" + ", ".join(repr(value)[:60] for value in arguments) + ")"


def _after(state: State, move: Any) -> State:
    after = state.copy()
    after.apply(move)
    return after
