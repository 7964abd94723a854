"""What a game of `play` says, in words: the rules and the prompt's help, the boards of a game at the prompt,
every refusal, the end screen, where a game is kept and how to go on; the values are `app.events`'s."""

from __future__ import annotations

import datetime

from ..app.auto import DealtAtRandom
from ..app.events import (
    Asked,
    Board,
    Cheer,
    CheerKind,
    CtrlC,
    EndOfInput,
    GameOver,
    Left,
    Metered,
    Moved,
    Opening,
    OpeningKind,
    Openings,
    OutputFailed,
    PipeRefused,
    ProblemKind,
    Prompt,
    Refusal,
    Refused,
    Reopened,
    Saved,
    SessionProblem,
    Shown,
    Stop,
    Stopped,
    Tried,
    Welcome,
    WhereKept,
    Working,
)
from ..app.table import COMMANDS
from ..errors import counted, display_name, quoted
from ..rules.engine import State
from ..rules.game import Step
from ..rules.outcomes import Status
from .board import Style, card_text, cards_to_come, moves_preview, render, render_step, to_come_line
from .fit import program_name, shell_word
from .hint_text import METER_READS, meter_line
from .history_text import SHARE_BLOCKS, SHARE_EXPLAINED, share_block, waiting_line
from .output import Screen, Text, can_show, text_of
from .prompt import is_move_attempt, pipe_answer, suggestion
from .rules_text import RULES
from .solve_text import deal_potential

HELP = (
    RULES
    + """
Commands:
  moves     the legal moves, each with the cells it would turn (with the meter, a hint: each one's expected score)
  left      the cards still to come, by rank (suits never matter)
  try B3    the board that move would leave, without playing it
  board     the board again
  hint      the expert's best moves, in plain words (hint detail: its figures)
  undo      take back the last move (counted in the record), even one that ended the game
  restart   this deal again from its start; new: a new deal (asked first when a game is under way; it is kept)
  help      this text
  quit      stop; the game is saved and can be resumed (Ctrl-D too; Ctrl-C clears the line)
Tab completes moves and commands; arrow keys recall earlier lines."""
)


def board_text(step: Step, style: Style, count: bool, *, legend: bool = False) -> str:
    """The board with the marks of the last move (the card placed, the cards turned), and the cards to come."""
    text = render(step.state, style, step=step if step.move is not None else None, with_legend=legend)
    return text + ("\n" + to_come_line(step.state, style) if count and not step.state.is_over else "")


# -- a session opens ------------------------------------------------------------------------------------


def opening_line(opening: Opening) -> str:
    """One thing said as a session opens."""
    name = program_name()
    kind = opening.kind
    if kind is OpeningKind.WAITING and opening.waiting is not None:
        return waiting_line(opening.waiting, name)
    if kind is OpeningKind.DAILY and opening.practice:
        return (
            f"Daily deal {opening.seed} ({opening.day}): you have played it today already, so this game is "
            "practice: only your first attempt counts (history, streak, share)"
        )
    if kind is OpeningKind.DAILY:
        return f"Daily deal {opening.seed} ({opening.day}): everyone playing today gets these cards"
    if kind is OpeningKind.LEVEL:
        return (
            f"Deal {opening.seed}, graded {opening.level} for simple players "
            f"(to play it again: {name} play --seed {opening.seed})"
        )
    if kind is OpeningKind.DEALT:
        return f"Deal {opening.seed} (to play it again: {name} play --seed {opening.seed})"
    if kind is OpeningKind.UNSAVED:
        return f"{opening.text}; this game is not saved."
    if kind is OpeningKind.RESUMING:
        deal = f"deal {opening.seed}" if opening.seed is not None else "the deck given"
        return f"Resuming {deal} at move {opening.ply} ({display_name(opening.path or '')})"
    return opening.text


@text_of.register
def _openings(value: Openings, screen: Screen) -> Text:
    lines = [opening_line(opening) for opening in value.openings]
    if not lines:
        return Text()
    return Text(said="\n".join(lines) + "\n")


@text_of.register
def _session_problem(value: SessionProblem, screen: Screen) -> Text:
    if value.kind is ProblemKind.INDEX:
        return Text(err=(f"foursquare play: the game is saved in its record, not in the history index: {value.error}",))
    return Text(err=(f"foursquare play: {value.error}; the game goes on without being saved",))


# -- where a game is kept -------------------------------------------------------------------------------


def how_to_resume(where: WhereKept, *, for_another: bool = False) -> str:
    """What is said as a game is left: where it is kept and how to go on; a finished game, how to look back.
    `for_another`: left for a new game at the prompt (`restart`, `new`), which will be the last one waiting
    once played, so the game left is named by its file, not by `--resume` alone."""
    if where.over:
        return how_to_review(where)
    if where.nothing_kept:
        return "No move was played, so nothing was kept."
    if where.path is not None and where.kept:
        named = f" {shell_word(where.path)}" if for_another else ""
        return f"The game is kept in your history; to go on: {program_name()} play --resume{named}"
    if where.path is not None:
        return (
            f"The game is saved in {display_name(where.path)}; to go on: "
            f"{program_name()} play --resume {shell_word(where.path)}"
        )
    return (
        f"The game so far, as a record (save it to a file, then: {program_name()} play --resume FILE):\n"
        + where.record_text.rstrip("\n")
    )


def how_to_review(where: WhereKept) -> str:
    if where.path is not None:
        path, name = "--last" if where.kept else shell_word(where.path), program_name()
        return (
            f"Replay it: {name} replay {path}\nCheck it: {name} check {path}\n"
            f"Where was it won or lost? {name} analyze {path}"
        )
    return "The game as a record (save it to a file to replay or check it):\n" + where.record_text.rstrip("\n")


def saved_text(saved: Saved) -> str:
    """Where a game left on Ctrl-C or a signal is kept (and, if the last save failed, that it did)."""
    failed = f"{saved.problem}; the record holds the game up to the move before. " if saved.problem else ""
    return failed + how_to_resume(saved.where)


@text_of.register
def _left(value: Left, screen: Screen) -> Text:
    return Text(said=how_to_resume(value.where, for_another=value.for_another) + "\n")


@text_of.register
def _stopped(value: Stopped, screen: Screen) -> Text:
    if value.stop is Stop.WRITE_FAILED:
        tail = "" if screen.prompt else " " + how_to_resume(value.saved.where)
        return Text(err=(f"{value.error}; the record holds the game up to the move before.{tail}",))
    if value.stop is Stop.END_OF_INPUT:
        return Text(said="End of input before the end of the game. " + how_to_resume(value.saved.where) + "\n")
    word = "Terminated" if value.stop is Stop.TERMINATED else "Interrupted"
    return Text(said=f"\n{word}. " + saved_text(value.saved) + "\n")


@text_of.register
def _output_failed(value: OutputFailed, screen: Screen) -> Text:
    where = [how_to_resume(value.where)] if value.where.path is not None else []
    if value.broken_pipe:
        return Text(err=tuple(where))
    return Text(err=(f"foursquare play: cannot write the output: {value.error}", *where))


# -- the prompt -----------------------------------------------------------------------------------------


@text_of.register
def _welcome(value: Welcome, screen: Screen) -> Text:
    commands = f"Type a move (B3, B3 top, shift up) or one of: {', '.join(COMMANDS)}.\n\n"
    return Text(commands + board_text(value.step, screen.style, value.cards_to_come, legend=True) + "\n")


@text_of.register
def _board(value: Board, screen: Screen) -> Text:
    return Text(board_text(value.step, screen.style, value.cards_to_come, legend=True) + "\n")


def prompt_text(prompt: Prompt, style: Style) -> str:
    if prompt.leaving:
        again = "and start it over" if prompt.leaving == "restart" else "for a new deal"  # 60 columns
        moves = f"{prompt.ply} move" + ("s" if prompt.ply != 1 else "")
        return f"Leave this game of {moves} {again}? (y/N)> "
    card = prompt.state.next_card
    if card is None:
        return "Game over (restart, new, quit)> " if prompt.counted else "Game over (undo, restart, new, quit)> "
    # the move's number in the game, as every screen counts it (a free shift takes one too)
    return f"Move {prompt.ply + 1}, place {card_text(card, style)}> "


@text_of.register
def _moved(value: Moved, screen: Screen) -> Text:
    step = value.step
    head = f"\nUndone (undos so far: {value.undos}).\n" if value.undos is not None else "\n"
    text = head + render_step(step, screen.style) + "\n"
    if value.cards_to_come and not step.state.is_over:
        text += to_come_line(step.state, screen.style) + "\n"
    return Text(text)


@text_of.register
def _metered(value: Metered, screen: Screen) -> Text:
    if value.reading is None:
        return Text("\n(The meter skipped: Ctrl-C.)\n")
    return Text(meter_line(value.reading) + "\n" + (METER_READS + "\n" if value.first else ""))


@text_of.register
def _ctrl_c(value: CtrlC, screen: Screen) -> Text:
    said = "(Ctrl-C clears the line; to leave, type quit or press Ctrl-D: the game is kept)\n"
    return Text("\n" + (said if value.again else ""))


@text_of.register
def _end_of_input(value: EndOfInput, screen: Screen) -> Text:
    return Text("\n")


def _refusal_text(value: Refused) -> str:
    kind = value.kind
    if kind is Refusal.ILLEGAL:
        return f"{value.text} (type help for the rules)"
    if kind is Refusal.NOT_A_MOVE:
        legal = value.state.legal_moves() if value.state is not None else None
        guess = suggestion(value.text, legal)
        if is_move_attempt(value.text) and not guess.startswith("did you mean"):
            return f"{quoted(value.text)}: {value.detail}"
        return f"unknown command {quoted(value.text)}; {guess}"
    if kind is Refusal.GAME_OVER:
        return "The game is over: type undo, restart, new or quit (or board, help)."
    if kind is Refusal.TRY_WHAT:
        return "try what? give a move, like 'try B3' or 'try shift up'"
    if kind is Refusal.HINT_STOPPED:
        return "\nHint stopped; the game goes on."
    if kind is Refusal.NO_HINT:
        return "No hint here."
    if kind is Refusal.NOT_UTF8:
        return "That was not UTF-8 text; type a move like B3 (or help)."
    if kind is Refusal.CANNOT_REOPEN:
        return f"'{value.text}' needs a new game to be kept; leave with quit and play again."
    if kind is Refusal.STAYED:
        new_line = "\n" if value.detail else ""  # Ctrl-C or Ctrl-D left the cursor on the question's line
        return f"{new_line}Not left: the game goes on ('{value.text}' then y to leave it; it stays kept, to resume)."
    return value.text  # the engine's or the record's own message: TRY_REFUSED, NOTHING_TO_UNDO, RECORD_REFUSED


@text_of.register
def _working(value: Working, screen: Screen) -> Text:
    if value.hint:
        return Text("Still thinking (a large budget): Ctrl-C stops the hint.\n")
    return Text("Still working out the meter: Ctrl-C skips it.\n")


@text_of.register
def _refused(value: Refused, screen: Screen) -> Text:
    return Text(_refusal_text(value) + "\n")


@text_of.register
def _shown(value: Shown, screen: Screen) -> Text:
    if value.asked is Asked.HELP:
        return Text(HELP + "\n")
    if value.asked is Asked.LEGAL_MOVES:
        return Text(moves_preview(value.state, screen.style, value.evaluation) + "\n")
    return Text(cards_to_come(value.state, screen.style) + "\n")


@text_of.register
def _tried(value: Tried, screen: Screen) -> Text:
    step = value.step
    # the card after a placement is not seen; a shift draws none, so the card in hand is still the next
    unseen = step.move is None or not step.move.is_shift
    heading = render_step(step, screen.style, next_unseen=unseen).split("\n", 1)[1]
    said = f"If you played {step.move}: the board would be (nothing is played; undo is not needed)"
    return Text(f"\n{said}\n{heading}\n")


@text_of.register
def _reopened(value: Reopened, screen: Screen) -> Text:
    lines = "".join(opening_line(opening) + "\n" for opening in value.openings)
    heading = "This deal again, from its start." if value.restart else "A new deal."
    board = board_text(value.step, screen.style, value.cards_to_come, legend=True)
    return Text(lines + f"\n{heading}\n" + board + "\n")


# -- the end of a game ----------------------------------------------------------------------------------


def moves_words(state: State, ply: int) -> str:
    """`24 moves (3 of them free shifts)`: a game's moves, counted as every screen counts them, the shifts
    among them said to be free (they draw no card)."""
    shifts = ply - state.drawn
    if not shifts:
        return counted(ply, "move")
    return counted(ply, "move") + (" (1 of them a free shift)" if shifts == 1 else f" ({shifts} of them free shifts)")


def outcome_line(state: State, ply: int, undos: int = 0, hints: int = 0, grade: str | None = None) -> str:
    """What the player reads when a game at the prompt ends: the outcome, score, moves (shifts among them:
    free), undos, hints, grade."""
    outcome = state.outcome
    counts = moves_words(state, ply)
    counts += f", {counted(undos, 'undo')}" if undos else ""
    counts += f", {counted(hints, 'hint')}" if hints else ""
    graded = f" The deal is graded {grade} (for simple players; the expert wins nearly every deal)." if grade else ""
    if outcome.status is Status.WON:
        return f"You won! Score {outcome.score} (cards left in the stock); {counts}.{graded}"
    return f"You lost: {outcome.reason}; {counts}.{graded}"


def next_daily_line(day: str, seed: int | None, now: datetime.datetime | None = None) -> str:
    """The end of a daily deal: its number, and the time to the next one (a new deal every day at 00:00 UTC)."""
    moment = now or datetime.datetime.now(datetime.UTC)
    midnight = datetime.datetime.combine(moment.date() + datetime.timedelta(days=1), datetime.time(), datetime.UTC)
    hours, seconds = divmod(int((midnight - moment).total_seconds()), 3600)
    return f"Daily deal {seed} ({day}). The next one in {hours} h {seconds // 60:02d} min, at 00:00 UTC."


def cheer_lines(earned: list[Cheer]) -> list[str]:
    """What a won game earned (`app.history.cheers`), in words, a line each."""
    lines = []
    for cheer in earned:
        if cheer.kind is CheerKind.FIRST_WIN:
            lines.append("Your first win! It is kept in your history.")
        elif cheer.kind is CheerKind.BEST_SCORE:
            lines.append(f"A new best score: {cheer.value} (your best was {cheer.before}).")
        elif cheer.kind is CheerKind.FIRST_AT_GRADE:
            lines.append(f"Your first win on {'an' if str(cheer.value)[:1] in 'aeiou' else 'a'} {cheer.value} deal!")
        elif cheer.kind is CheerKind.STREAK:
            longer = cheer.before is not None and int(cheer.value or 0) > cheer.before
            lines.append(f"{cheer.value} wins in a row{' - your longest streak yet' if longer else ''}!")
        elif cheer.kind is CheerKind.DAILY_STREAK:
            lines.append(f"Daily streak: {cheer.value} days in a row.")
    return lines


@text_of.register
def _game_over(value: GameOver, screen: Screen) -> Text:
    state = value.state
    parts = [outcome_line(state, value.ply, value.undos, value.hints, value.grade)]
    if value.daily:
        unicode = screen.style.unicode or can_show(SHARE_BLOCKS)
        parts.append(next_daily_line(value.daily, value.seed))
        if value.practice:
            parts.append("This was practice: your first attempt today is the one that counts and is shared.")
        else:
            parts.append(f"To share ({SHARE_EXPLAINED}):")
            parts.append(share_block(value.daily, state, value.ply, value.undos, value.hints, unicode=unicode))
    if value.potential is not None:
        parts.append("\n".join([*cheer_lines(value.cheers), deal_potential(value.potential, state.outcome.score)]))
    parts.append(how_to_review(value.where))
    undo = "it counts as it ended" if value.counted else "undo takes the last move back"
    parts.append(f"The game is over: {undo}; restart plays this deal again, new a new one; quit leaves.")
    return Text("\n".join(parts) + "\n")


# -- a game from a pipe ---------------------------------------------------------------------------------


@text_of.register
def _pipe_refused(value: PipeRefused, screen: Screen) -> Text:
    where = f"{value.source}:{value.line}"
    if value.ply is None:
        return Text(err=(f"{where}: {value.reason}",))
    legal = None if value.legal is None else list(value.legal)
    reason = pipe_answer(value.text, value.reason, legal) if value.not_a_move else value.reason
    return Text(err=(f"{where}: move {value.ply} {quoted(value.text)}: {reason}",))


@text_of.register
def _dealt_at_random(value: DealtAtRandom, screen: Screen) -> Text:
    return Text(err=(f"Deal {value.seed} (to watch it again: --seed {value.seed})",))
