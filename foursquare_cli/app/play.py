"""`play`: a game at a terminal prompt (`table`), or driven line by line from a pipe (`pipe`).

The session its options ask for is opened (`session`: new, resumed, kept in the
history), what is to be said first is shown, then the game is played where the view
says it is: at a prompt when standard input is a terminal and the output is text,
else from the pipe. Every game is kept in the history (`--no-record`: none), whatever the format: a game from
a pipe in JSON is kept as one in text is, and says where at its end (standard error), as text does.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from ..errors import ExitStatus, UsageError
from ..players import PlayerSpec
from ..rules.game import Game
from .events import Opening, Openings
from .opening import GameChoice, open_play
from .pipe import PipeView, play_from_pipe
from .session import Session
from .table import Table, TableView


class PlayRequest(NamedTuple):
    """What `play` is asked for: the deal and the record (`GameChoice`), the expert of the hint and the meter,
    and what the prompt shows under each board."""

    game: GameChoice
    player: PlayerSpec = PlayerSpec()
    cards_to_come: bool = False
    meter: bool = False


class PlayViews(Protocol):
    """Where a game is played: whether standard input is there at all and a terminal with text output (a
    prompt), whether the output is for a program (JSON), the prompt's view and the pipe's, and each value said
    before the game or beside it (openings, a session's problems)."""

    @property
    def input_closed(self) -> bool: ...

    @property
    def at_prompt(self) -> bool: ...

    @property
    def machine(self) -> bool: ...

    @property
    def table(self) -> TableView: ...

    @property
    def pipe(self) -> PipeView: ...

    def show(self, value: object) -> None: ...


def play_as_asked(request: PlayRequest, views: PlayViews) -> ExitStatus:
    """`play` (see the module's docstring): how the game ended (a move refused from the pipe, Ctrl-C, a
    failed write), said already where it happened, so its exit code is all that is left."""
    if views.input_closed:
        raise UsageError("standard input is closed; pipe moves in, or play at a terminal")
    keep = not request.game.no_record  # the format is no matter: a game in JSON is kept as one in text
    session, opening, reopen_values = open_play(
        request.game, keep=keep, at_prompt=views.at_prompt, expert=request.player
    )
    _said_as_they_come(session, views)
    views.show(Openings(opening, views.at_prompt))

    def reopen(seed: int | None, game: Game | None) -> tuple[Session, list[Opening]]:
        """`restart` and `new` at the prompt: the sessions `open_play` opens, their problems said."""
        reopened, said = reopen_values(seed, game)
        return _said_as_they_come(reopened, views), said

    with session:
        if views.at_prompt:
            table = Table(
                session,
                views.table,
                reopen=reopen,
                cards_to_come=request.cards_to_come,
                meter=request.meter,
                looking_back=True,
            )
            return table.run()
        return play_from_pipe(session, views.pipe)


def _said_as_they_come(session: Session, views: PlayViews) -> Session:
    """The session's problems shown as they happen (and those already kept, now)."""
    for problem in session.problems:
        views.show(problem)
    session.problems.clear()
    session.report = views.show
    return session
