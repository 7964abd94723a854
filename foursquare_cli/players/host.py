"""The process a `module:attribute` player runs in: `python -m foursquare_cli.players.host MODULE:ATTRIBUTE`.
With `--describe MODULE:ATTRIBUTE` it only reads another package's player for the tool (`plugins`): its
`summary` and `SETTINGS` as one line (`formats.protocol.PlayerDescription`), or `error TEXT`, then exits.

Someone else's Python code never runs in the tool's own process: whatever it does
(exit, loop forever, read the caller's frames, raise anything, print) it can only
forfeit its game. The host speaks the move protocol of protocol.md section 7 with the
tool, as a `cmd:` program does, with two lines of its own around it:

- at start it imports the module and answers `ready`, or `error TEXT` (the module
  cannot be imported, names no such attribute, ...) and exits;
- before each game the tool sends `{"player_seed": N, "settings": {...}}`: the host
  builds a fresh player (the attribute called with N if it takes an argument, and the
  settings, those of another package's registered player, as keywords: `registry`) and
  answers `ready`, or `error TEXT` when building it raised.

For each state it is sent while the game is played, it rebuilds the position from
the states seen so far (every card placed, in order; the unseen cards shuffled
anew, so the order of the stock cannot be read) and answers with what `choose`
returns, or `error raised ...` when `choose` raises. The module's own output to
standard output goes to standard error, so it cannot break the protocol.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import reprlib
import sys
from typing import IO, Any

from ..formats.jsonl import json_line
from ..formats.protocol import PlayerDescription
from ..rules.cards import CARDS, Card
from ..rules.engine import State
from ..rules.moves import Move
from .registry import build_player


def described(error: BaseException) -> str:
    """`RuntimeError: the text` (cut short, made printable): what someone else's code raised."""
    try:
        said = str(error)
    except Exception:  # an exception whose own __str__ raises
        said = ""
    text = "".join(ch if ch.isprintable() else "?" for ch in said[:60])
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class Position:
    """The position a player is shown, rebuilt from the states of one game as they come."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)
        self._placed: list[Card] = []  # every card placed so far, in order
        self._moves: list[Move] = []
        self._ply = -1

    def shown(self, state: dict[str, Any]) -> State:
        """The state as a `State` whose unseen cards are in a fresh random order."""
        ply = state["ply"]
        if ply == 0:
            self._placed, self._moves = [], []
        elif ply == self._ply + 1 and state["move"] is not None:
            self._moves.append(Move.from_str(state["move"]))
            if state["card"] is not None:
                self._placed.append(Card.from_str(state["card"]))
        elif ply != 0:  # joined in the middle of a game (a hint): the covered cards are not known
            return self._laid_out(state)
        self._ply = ply
        in_hand = Card.from_str(state["next"])
        seen = set(self._placed) | {in_hand}
        unseen = [card for card in CARDS if card not in seen]
        self._rng.shuffle(unseen)
        position = State([*self._placed, in_hand, *unseen])
        for move in self._moves:
            position.apply(move)
        return position

    def _laid_out(self, state: dict[str, Any]) -> State:
        """A position laid out from the grid alone, the covered cards filled in from the unseen ones."""
        tops = {cell["card"] for row in state["grid"] for cell in row if cell}
        spare = [str(card) for card in CARDS if str(card) not in tops and str(card) != state["next"]]
        self._rng.shuffle(spare)
        rows = []
        for row in state["grid"]:
            words = []
            for cell in row:
                if cell is None:
                    words.append(".")
                    continue
                under = [spare.pop() for _ in range(cell["height"] - 1)]
                words.append(("" if cell["up"] else "#") + "/".join([*under, cell["card"]]))
            rows.append(" ".join(words))
        return State.from_grid(rows, [state["next"], *spare])


def _move_text(chosen: object) -> str:
    """What a player's choice says as a line: a `Move`'s text (a forged code is answered as its number, an
    illegal move); anything else forfeits, a string too: `choose` returns a `Move`, and a text that happened
    to parse would hide a player's bug until the text it returns one day does not."""
    if isinstance(chosen, Move):
        return str(Move(int(chosen))) if 0 <= int(chosen) < 36 else str(int(chosen))
    plain = isinstance(chosen, (str, int, float)) or chosen is None  # whose repr is the language's own
    return f"error returned {type(chosen).__name__}{' ' + reprlib.repr(chosen) if plain else ''}, not a Move"


def _answer(out: IO[str], line: str) -> None:
    out.write(line.replace("\n", " ") + "\n")
    out.flush()


def _factory(spec: str, out: IO[str]) -> Any:
    """The class or factory `spec` names, its module imported; None once `error TEXT` is answered."""
    module_name, _, attribute = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        _answer(out, f"error cannot import {module_name!r}: {described(error)}")
        return None
    except BaseException as error:  # someone else's module: whatever its import does is one line
        _answer(out, f"error importing {module_name!r} raised {described(error)}")
        return None
    try:
        factory = getattr(module, attribute, None)
        usable = factory is not None and callable(factory)
    except BaseException as error:  # a module's __getattr__ is someone else's code too
        _answer(out, f"error {module_name}.{attribute} raised {described(error)}")
        return None
    if not usable:
        _answer(out, f"error {module_name} has no class or factory {attribute!r}")
        return None
    return factory


_KINDS = ("int", "float", "str", "bool")  # the types a setting may have (docs/players.md)
LONGEST_SUMMARY = 120


def description(factory: Any) -> PlayerDescription:
    """Its `summary` (else its docstring's first line), made printable and short, and its `SETTINGS` as the
    names of their types; ValueError when `SETTINGS` is not a mapping of names to those types."""
    said = getattr(factory, "summary", None) or (getattr(factory, "__doc__", None) or "").strip().split("\n")[0]
    summary = "".join(ch if ch.isprintable() else "?" for ch in str(said).strip().rstrip("."))[:LONGEST_SUMMARY]
    settings = {}
    for key, kind in dict(getattr(factory, "SETTINGS", None) or {}).items():
        name = getattr(kind, "__name__", None)
        if not isinstance(key, str) or kind not in (int, float, str, bool) or name not in _KINDS:
            shown = "".join(ch if ch.isprintable() else "?" for ch in f"{str(key)[:30]!r} to {str(kind)[:30]}")
            raise ValueError(f"its SETTINGS maps {shown}; a setting is an int, a float, a str or a bool")
        settings[key] = name
    return PlayerDescription(summary, settings)


def describe(spec: str, out: IO[str]) -> int:
    """Read another package's player for the tool (`plugins`): its description as one line, or `error TEXT`."""
    factory = _factory(spec, out)
    if factory is None:
        return 1
    try:
        said = description(factory)
    except ValueError as error:
        _answer(out, f"error {error}")
        return 1
    except BaseException as error:  # its SETTINGS or summary, someone else's objects
        _answer(out, f"error reading its SETTINGS and summary raised {described(error)}")
        return 1
    _answer(out, json_line(said.to_json()))
    return 0


def serve(spec: str, lines: IO[str], out: IO[str]) -> int:
    """Play for the tool: the loop described in the module's docstring."""
    factory = _factory(spec, out)
    if factory is None:
        return 1
    _answer(out, "ready")
    player: Any = None
    position = Position(0)
    for line in lines:
        message = json.loads(line)
        if "player_seed" in message:
            try:
                player = build_player(factory, message["player_seed"], message.get("settings") or {})
            except BaseException as error:  # someone else's constructor, as at import
                _answer(out, f"error making the player raised {described(error)}")
                return 1
            position = Position(message["player_seed"])
            _answer(out, "ready")
            continue
        if message["status"] != "playing" or player is None:
            continue  # the last state of a game: no answer is awaited
        try:
            text = _move_text(player.choose(position.shown(message)))
        except BaseException as error:  # whatever the player does, it forfeits this game only
            text = f"error raised {described(error)}"
        _answer(out, text)
    return 0


def run_host() -> None:
    protocol = os.fdopen(os.dup(1), "w", encoding="utf-8", errors="backslashreplace")
    lines = os.fdopen(os.dup(0), "r", encoding="utf-8", errors="replace")
    os.dup2(2, 1)  # the module's prints go to standard error, never into the protocol
    sys.stdout = sys.stderr
    nothing = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nothing, 0)  # and what it reads is nothing: the tool's lines are the host's alone
    os.close(nothing)
    sys.stdin = open(os.devnull, encoding="utf-8")  # kept open for the process's whole life
    if sys.argv[1] == "--describe":
        code = describe(sys.argv[2], protocol)
    else:
        code = serve(sys.argv[1], lines, protocol)
    protocol.flush()
    os._exit(code)  # no atexit hook of the module's runs after the game


if __name__ == "__main__":
    run_host()
