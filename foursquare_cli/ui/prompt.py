"""What the prompt knows of what is typed besides moves: near-miss suggestions, Tab completion and line
editing (the standard library's `readline`). Nothing here plays a move or touches a file."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Callable

from ..app.table import COMMANDS
from ..rules.moves import DIRECTIONS, Move

MOVES_PLEASE = "; type 'moves'"


COMPASS = {"north": "up", "south": "down", "west": "left", "east": "right"}  # the grid drawn as a map


def suggestion(text: str, legal: list[Move] | None = None) -> str:
    """What to say to input that is neither a move nor a command: a near miss (only a legal move, when the
    legal moves are given), or `help`. A cell with spaces or `top` run together (`A 2`, `B2top`) is read as the
    placement it is nearest; `shift north` as the compass says (not as the letters of `shift right` do)."""
    lowered = text.lower()
    squeezed = lowered.replace(" ", "")
    if len(squeezed) >= 2 and squeezed[0] in "abcd" and squeezed[1] in "1234" and squeezed[2:] in ("", "top"):
        return _cell_suggestion(squeezed[:2].upper(), squeezed[2:] == "top", legal)
    words = lowered.split()
    if len(words) > 1 and words[0] in COMMANDS:  # a command and words it takes none of (`quit now`)
        return f"did you mean {words[0]!r}?"
    if len(words) == 2 and words[0] == "shift":
        close = difflib.get_close_matches(words[1], DIRECTIONS, n=1, cutoff=0.6)
        direction = COMPASS.get(words[1]) or (close[0] if close else None)
        return f"did you mean 'shift {direction}'?" if direction else "type 'help'"
    close = difflib.get_close_matches(lowered, [*COMMANDS, *(f"shift {d}" for d in DIRECTIONS)], n=1, cutoff=0.7)
    if close:
        return f"did you mean {close[0]!r}?"
    return "type 'help'"


def _cell_suggestion(cell: str, top: bool, legal: list[Move] | None) -> str:
    """The placement on `cell` the player meant: the one typed (`top` or not) where it can be played, else the
    other one where that can, else neither."""
    on_top, placed = Move.from_str(f"{cell} top"), Move.from_str(cell)
    meant, other = (on_top, placed) if top else (placed, on_top)
    if legal is None or meant in legal:
        return f"did you mean '{meant}'?"
    if other in legal:
        why = f"{cell} is empty" if other == placed else f"{cell} holds a pile"
        return f"did you mean '{other}'? ({why})"
    return f"neither '{cell} top' nor '{cell}' can be played now{MOVES_PLEASE}"


def pipe_answer(text: str, reason: str, legal: list[Move] | None = None) -> str:
    """Why a piped line is not a move (`reason`, the parser's): the prompt's commands do not apply there; near
    misses get a guess, a legal move only when `legal` is given (as at the prompt)."""
    word = text.lower()
    if word in COMMANDS:
        return f"{word!r} is a command of the prompt; from a pipe a line is a move, undo or quit"
    if is_move_attempt(text):
        return reason
    said = suggestion(text, legal)
    if said.startswith("neither"):  # a near miss of no legal move: said so, without the prompt's 'moves'
        return f"not a move; {said.removesuffix(MOVES_PLEASE)}"
    return f"not a move; {said}" if said.startswith("did you mean") else reason


def is_move_attempt(text: str) -> bool:
    """Input that was meant as a move (a cell-like first word, or the whole typed apart, `A 9`; or `shift`): its
    parse error is the answer."""
    words = text.lower().split()
    first = words[0] if words else ""
    apart = len(words) > 1 and _cell_like("".join(words).removesuffix("top"))
    return first == "shift" or _cell_like(first) or apart


def _cell_like(word: str) -> bool:
    return 1 < len(word) <= 3 and word[0].isalpha() and word[1:].isdigit()


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
        import readline  # at a prompt alone; not on every system
    except ImportError:  # the prompt still works, without editing
        return
    readline.set_completer(completer(legal_moves))
    readline.set_completer_delims("\t\n")
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
