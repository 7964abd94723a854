"""What the prompt knows besides the game: its commands and help, near-miss suggestions, Tab
completion and line editing (the standard library's `readline`), and how to name this tool.

Nothing here plays a move or touches a file; `play.run_terminal` uses it.
"""

from __future__ import annotations

import difflib
import os
import shlex
import shutil
import sys
from collections.abc import Callable

from ..rules.moves import InvalidMoveError, Move

COMMANDS = ("moves", "left", "try", "board", "hint", "undo", "restart", "new", "help", "quit")
END_COMMANDS = ("undo", "restart", "new", "board", "help", "quit")  # what the end screen takes

RULES = """\
Place each card you are given on the 4x4 grid (columns A-D, rows 1-4).
  B3          place it on the empty cell B3 (it must share an edge with a pile;
              the first card may go anywhere)
  B3 top      place it on top of the pile at B3 (a pile holds at most 4 cards)
  shift up    slide the whole layout one cell (up, down, left, right); free
After a card is placed, its row and then its column are checked: if it is higher
than every other face-up top card in the line, or lower than every one, or there
is none, every other top card in the line is turned over. Ties never count.
Win: all 16 cells filled and face up; your score is the cards left in the stock.
Lose: more than 4 face-down cards, or the stock runs out."""

HELP = (
    RULES
    + """
Commands:
  moves     the legal moves, each with the cells it would turn
  left      the cards still to come, by rank (suits never matter)
  try B3    the board that move would leave, without playing it
  board     the board again
  hint      the expert's best moves, in plain words (hint detail: its figures)
  undo      take back the last move (counted in the record), even one that ended the game
  restart   this deal again from its start; new: a new deal (the game left is kept)
  help      this text
  quit      stop; the game is saved and can be resumed (Ctrl-D too; Ctrl-C clears the line)
Tab completes moves and commands; arrow keys recall earlier lines."""
)


def program_name() -> str:
    """How to name this tool in a command a user will paste into the same shell.

    `foursquare` when that finds this very installation on the PATH; else the
    script as it was invoked, or `python -m foursquare_cli` with this interpreter.
    """
    bin_dir = os.path.dirname(os.path.abspath(sys.executable))
    found = shutil.which("foursquare")
    if found is not None and os.path.dirname(os.path.abspath(found)) == bin_dir:
        return "foursquare"
    invoked = sys.argv[0] if sys.argv else ""
    if os.path.basename(invoked) == "foursquare" and os.path.exists(invoked):
        return shlex.quote(invoked)
    return f"{shlex.quote(sys.executable)} -m foursquare_cli"


def suggestion(text: str, legal: list[Move] | None = None) -> str:
    """What to say to input that is neither a move nor a command: a near miss (only a legal move, when the
    legal moves are given), or `help`."""
    lowered = text.lower()
    squeezed = lowered.replace(" ", "")
    if len(squeezed) == 5 and squeezed.endswith("top") and squeezed[0] in "abcd" and squeezed[1] in "1234":
        cell = squeezed[:2].upper()
        on_top, placed = Move.from_str(f"{cell} top"), Move.from_str(cell)
        if legal is None or on_top in legal:
            return f"did you mean '{cell} top'?"
        if placed in legal:
            return f"did you mean '{cell}'? ({cell} is empty)"
        return f"neither '{cell} top' nor '{cell}' can be played now; type 'moves'"
    words = list(COMMANDS) + [f"shift {d}" for d in ("up", "down", "left", "right")]
    close = difflib.get_close_matches(lowered, words, n=1, cutoff=0.7)
    if close:
        return f"did you mean {close[0]!r}?"
    return "type 'help'"


def pipe_answer(text: str, error: InvalidMoveError) -> str:
    """Why a piped line is not a move: the prompt's commands do not apply there; near misses get a guess."""
    word = text.lower()
    if word in COMMANDS:
        return f"{word!r} is a command of the prompt; from a pipe a line is a move, undo or quit"
    if is_move_attempt(text):
        return error.reason
    said = suggestion(text)
    return f"not a move; {said}" if said.startswith("did you mean") else error.reason


def is_move_attempt(text: str) -> bool:
    """Input that was meant as a move (a cell-like first word, or `shift`): its parse error is the answer."""
    first = text.split()[0].lower() if text.split() else ""
    return first == "shift" or (1 < len(first) <= 3 and first[0].isalpha() and first[1:].isdigit())


def completer(legal_moves: Callable[[], list[Move]]) -> Callable[[str, int], str | None]:
    def complete(text: str, index: int) -> str | None:
        options = [str(move) for move in legal_moves()] + list(COMMANDS)
        matches = [option for option in options if option.lower().startswith(text.lower())]
        return matches[index] if index < len(matches) else None

    return complete


def readline_setup(legal_moves: Callable[[], list[Move]]) -> None:
    """Line editing, history and Tab completion where the standard library's readline exists (not on Windows,
    whose console edits the line and keeps its history itself)."""
    if sys.platform == "win32":
        return
    try:
        import readline
    except ImportError:  # the prompt still works, without editing
        return
    readline.set_completer(completer(legal_moves))
    readline.set_completer_delims("\t\n")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
