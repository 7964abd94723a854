"""Game records and move logs (protocol.md section 4): judge, load, write.

Reading is in two steps. `source.read_source` turns bytes into a `Source` (what
the file says) with every problem of form; `judge` then plays the moves on the
deal, through a `Game`, and adds every problem of substance: an illegal move
(after which later moves cannot be judged), a claim (`result`, `score`) that the
moves contradict. `format_record` writes a game back in canonical form, checked
against the reader's limits so that whatever the tool writes, it reads back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..errors import UsageError, counted, quoted
from ..rules.cards import Card, deal
from ..rules.engine import State
from ..rules.game import Game, Step
from ..rules.moves import IllegalMoveError, InvalidMoveError, Move, moves_of_line
from ..rules.outcomes import LOST, WON
from . import safe_yaml
from .lines import MAX_INPUT_BYTES, ReadError
from .safe_yaml import MAX_NODES
from .source import RECORD_FORMAT_VERSION, MoveLine, Problem, RawMeta, Source, SourceKind, read_source


def outcome_words(state: State, moves: int, undos: int = 0) -> str:
    """`won, score 7, 29 moves, 2 undos`, `lost after 23 moves (more than 4 face-down cards)` or `playing, 12
    moves`: a game's outcome and counts in the words every screen uses (and error messages)."""
    outcome = state.outcome
    tail = f", {counted(undos, 'undo')}" if undos else ""
    if outcome.status is WON:
        return f"won, score {outcome.score}, {counted(moves, 'move')}{tail}"
    if outcome.status is LOST:
        return f"lost after {counted(moves, 'move')}{tail} ({outcome.reason})"
    return f"playing, {counted(moves, 'move')}{tail}"


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

    def outcome_words(self) -> str:
        """`won, score 7, 29 moves, 2 undos`, `lost after 23 moves (...)`, `playing, 12 moves`, or `no deal`:
        how `check` says a file's game, and how an error names a finished one."""
        return "no deal" if self.state is None else outcome_words(self.state, len(self.moves), self.source.undos)

    def to_json(self) -> dict[str, Any]:
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
            "problems": [problem.to_json() for problem in self.problems],
        }


StepListener = Callable[[Step], None]


def resolve_deck(
    source: Source, seed: int | None = None, deck: tuple[Card, ...] | None = None
) -> tuple[Card, ...] | None:
    """The deal to play `source` on: the record's own, or the one given; a UsageError if they disagree."""
    given = deck if deck is not None else (deal(seed) if seed is not None else None)
    own = source.deck if source.deck is not None else (deal(source.seed) if source.seed is not None else None)
    if given is not None and own is not None and given != own:
        if seed is not None and source.seed is not None:
            raise UsageError(f"--seed {seed} disagrees with the record's seed {source.seed}")
        raise UsageError("the deal given on the command line disagrees with the record's")
    return own if own is not None else given


def judge(
    source: Source,
    seed: int | None = None,
    deck: tuple[Card, ...] | None = None,
    on_step: StepListener | None = None,
) -> Verdict:
    """Play the moves of `source` on its deal and collect every problem, in file order.

    `on_step(step)` is called with the start (ply 0) and after every legal move.
    A UsageError if `seed`/`deck` contradict the record.
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
    game.hints = source.hints
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
        return Verdict(source, [_not_a_record(source)], None)
    return judge(source)


def _not_a_record(source: Source) -> Problem:
    """What a file that is not a game record is, said plainly: a move log (every line a move or a comment),
    which names no deal to check it on, or neither (its first line that is no move named)."""
    neither = not_a_move_log(source)
    if neither is not None:
        return neither
    return Problem(1, "a move log, not a game record: it names no deal (replay it with --seed N to check its moves)")


def not_a_move_log(source: Source, first_only: bool = False) -> Problem | None:
    """For a file that is no game record: the problem that it is no move log either, at its first line that is no
    move (with `first_only`, only when that is its first line with a word: a log of moves with a mistake further
    on is a move log, played up to its mistake), or None. Every command that reads records says it so."""
    for move_line in source.moves:
        try:
            moves_of_line(move_line.text or "")
        except InvalidMoveError:
            no_move = quoted(move_line.text or "")
            return Problem(move_line.line, f"not a game record (no YAML mapping) nor a move log: {no_move} is no move")
        if first_only:
            return None
    return None


def check_path(path: str) -> Verdict | ReadError:
    """Read and judge one record; a ReadError is returned, not raised, so a run goes on to the next file."""
    try:
        return check_record(read_source(path))
    except ReadError as error:
        error.path = path
        return error


def _move_problem(number: int, move_line: MoveLine, reason: str) -> Problem:
    """The problem of a move that cannot be played, in the parser's words (a word such as `undo` is said to be
    no move at all, not "no such cell")."""
    text = move_line.text or ""
    return Problem(
        move_line.line, f"move {number} {quoted(text)}: {reason}", move_number=number, move_text=move_line.text
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
    lines = [f"foursquare: {RECORD_FORMAT_VERSION}"]
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
    if game.hints:
        lines.append(f"hints: {game.hints}")
    text = "\n".join(lines) + "\n"
    meta = game.meta
    if isinstance(meta, RawMeta):
        text += meta
    elif meta:
        text += safe_yaml.dump({"meta": meta})
    return text


def meta_nodes(game: Game) -> int:
    """How many YAML nodes the game's `meta` adds to its record (0 without one): counted once per session."""
    text = format_record(Game(game.deck, meta=game.meta)) if game.meta else ""
    return safe_yaml.prescan(text) - safe_yaml.prescan(format_record(Game(game.deck))) if text else 0


def unreadable_reason(text: str, moves: int, meta: int, hints: int = 0) -> str | None:
    """Why the reader would refuse a record of `text` (`moves` moves, `meta` nodes of meta), or None.

    The writer's check, so that whatever the tool writes it reads back. A canonical
    record has at most 13 nodes besides its moves, meta and hints (the mapping, and
    six keys with their values: the list of moves is the value of `moves`), two more
    when it counts hints.
    """
    if len(text.encode("utf-8")) > MAX_INPUT_BYTES:
        return f"the record would be larger than {MAX_INPUT_BYTES >> 20} MiB"
    if 13 + (2 if hints else 0) + moves + meta > MAX_NODES:
        return f"the record would have more than {MAX_NODES:,} YAML nodes, more than a record may hold"
    return None


def load(
    path: str,
    seed: int | None = None,
    deck: tuple[Card, ...] | None = None,
    on_step: StepListener | None = None,
    data: bytes | None = None,
) -> Verdict:
    """Read a record or a move log and play it on its deal: the one call of `replay`, `hint`, `play --resume`.

    `data`, when given, is the file's bytes, already read (standard input read by a parent process).
    A UsageError (a file that cannot be read, a deal given twice or not at all) is the
    caller's; problems of the file are in the verdict (a file that is neither a record nor a move log is
    said as `check` says it, with no game).
    """
    if seed is not None and deck is not None:
        raise UsageError("give --seed or --deck, not both")
    try:
        source = read_source(path, data)
        if source.kind is SourceKind.LOG:  # neither a record nor a move log (a JSON array, a page of text)?
            neither = not_a_move_log(source, first_only=seed is not None or deck is not None)
            if neither is not None:
                return Verdict(source, [neither], None)
            if seed is None and deck is None:
                raise UsageError("a move log carries no deal; give --seed N or --deck CARDS")
        return judge(source, seed=seed, deck=deck, on_step=on_step)
    except UsageError as error:
        if error.path is None:
            error.path = path  # the error is about this file: it is named first
        raise
