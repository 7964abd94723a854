"""One deal played by a player, and many games summed up.

Each deal is played by a fresh player seeded from the player seed and the deal
number (`PlayerSpec.for_deal`), so a deal's game is the same whichever process
plays it: `jobs` changes the speed, never the figures (timings aside). A run of many
deals is `run.play_plan`'s.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from typing import Any, NamedTuple

from ..errors import UsageError
from ..players import PlayerSpec, Seat, play_in_lockstep
from ..rules.cards import SEED_MAX
from ..rules.game import Game
from ..rules.outcomes import WON


class GameResult(NamedTuple):
    """One game of a run: its player, the deal (its number, and for a sealed deal the secret seed it was dealt
    from), what came of it, and every move played, so that the line a results file keeps can be replayed and
    checked."""

    player: str
    seed: int  # the deal's number in the run (for a numbered deal, the seed it was dealt from)
    won: bool
    score: int | None
    move_seconds: tuple[float, ...]  # the time each move took to choose and play
    forfeit: str | None = None  # why an outside player lost the game by what it did
    played: tuple[str, ...] = ()  # the moves, canonical text, in order
    sealed_seed: int | None = None  # a sealed deal's secret seed (`--sealed`); None: dealt from `seed`

    def to_json(self) -> dict[str, Any]:
        """The game's line in a results file (`runs.results`; read back, and checked, by `checked_result`)."""
        seconds = [round(value, 7) for value in self.move_seconds]
        return {
            "player": self.player,
            "deal": self.seed,
            "seed": self.dealt_from,
            "won": self.won,
            "score": self.score,
            "moves": self.moves,
            "played": ",".join(self.played),
            "move_seconds": seconds,
            "seconds_per_move": round(sum(seconds) / len(seconds), 7) if seconds else 0.0,
            "forfeit": self.forfeit,
        }

    @property
    def dealt_from(self) -> int:
        """The seed the game was dealt from: `deal --seed` shows its stock."""
        return self.seed if self.sealed_seed is None else self.sealed_seed

    @property
    def moves(self) -> int:
        return len(self.move_seconds)


class Summary(NamedTuple):
    player: str
    start: int
    games: int
    wins: int
    win_low: float  # 95% Wilson interval of the win rate
    win_high: float
    mean_score: float | None  # over the won games
    mean_score_all: float  # over all games, a lost one counting 0
    forfeits: dict[str, int]  # reason -> games forfeited so
    seconds_per_move: float
    median_seconds_per_move: float
    games_per_second: float
    lost: tuple[int, ...] = ()  # the deal numbers of the games not won
    shard: tuple[int, int] | None = None  # the part of the range played (I, N), when a shard
    sealed: bool = False  # dealt from secret seeds (the results file holds them)
    missing: int = 0  # `summarize`: deals of the plan not played (by every player) in the files given
    first_missing: tuple[int, ...] = ()  # the first of them
    span: tuple[int, int] | None = None  # the lowest and the highest deal played
    stopped: bool = False  # a run stopped early (Ctrl-C): `missing` are the deals it did not reach (not in JSON)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_json(self) -> dict[str, Any]:
        return (
            {
                "player": self.player,
                "start": self.start,
                "games": self.games,
                "wins": self.wins,
                "win_rate": self.win_rate,
                "win_rate_95": [self.win_low, self.win_high],
                "mean_score_of_wins": self.mean_score,
                "mean_score": self.mean_score_all,
                "forfeits": self.forfeits,
                "seconds_per_move": self.seconds_per_move,
                "median_seconds_per_move": self.median_seconds_per_move,
                "games_per_second": self.games_per_second,
                "lost_deals": list(self.lost),
                "sealed": self.sealed,
            }
            | ({"shard": list(self.shard)} if self.shard is not None else {})
            | ({"missing": self.missing, "first_missing": list(self.first_missing)} if self.missing else {})
        )


def wilson_interval(successes: int, trials: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of a binomial proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    if successes == trials:
        return max(0.0, centre - half), 1.0
    if successes == 0:
        return 0.0, min(1.0, centre + half)
    return max(0.0, centre - half), min(1.0, centre + half)


def check_range(start: int, count: int) -> None:
    """UsageError unless deals start .. start+count-1 are all deal numbers."""
    if count < 1:
        raise UsageError(f"{count}: the number of games must be at least 1")
    if not 0 <= start <= SEED_MAX:
        raise UsageError(f"--start {start}: deal numbers are 0 to {SEED_MAX}")
    if start + count - 1 > SEED_MAX:
        raise UsageError(
            f"--start {start} with --games {count} runs past the last deal number {SEED_MAX}; "
            f"at most {SEED_MAX - start + 1} game{'s' if SEED_MAX - start else ''} can start there"
        )


def play_deal(player: PlayerSpec, deal: int, sealed_seed: int | None = None) -> GameResult:
    """Deal number `deal` played by a fresh player of `player`'s spec, seeded for the deal (an outside program is
    this process's long-lived one). A forfeit is a lost game with its reason. `sealed_seed`: the game is dealt
    from that secret seed instead of the deal's number."""
    (result,) = play_deal_together((player,), deal, sealed_seed)
    return result


def play_deal_together(
    players: tuple[PlayerSpec, ...], deal: int, sealed_seed: int | None = None
) -> tuple[GameResult, ...]:
    """Deal `deal` played by each of `players` at once, a card at a time (`play_in_lockstep`): how a sealed deal
    is played, so that no player is shown a card before the others have been shown the one before it."""
    seats = [
        Seat(Game.from_seed(deal if sealed_seed is None else sealed_seed), player.for_deal(deal).build())
        for player in players
    ]
    play_in_lockstep(seats)
    return tuple(_result_of(player.text, deal, seat, sealed_seed) for player, seat in zip(players, seats, strict=True))


def _result_of(name: str, deal: int, seat: Seat, sealed_seed: int | None) -> GameResult:
    played = tuple(str(move) for move in seat.game.moves)
    times = tuple(seat.move_seconds)
    if seat.forfeit is not None:
        return GameResult(name, deal, False, None, times, seat.forfeit, played, sealed_seed)
    outcome = seat.game.state.outcome
    return GameResult(name, deal, outcome.status is WON, outcome.score, times, None, played, sealed_seed)


def summary_of(player: str, start: int, results: list[GameResult], elapsed: float) -> Summary:
    wins = [r for r in results if r.won]
    low, high = wilson_interval(len(wins), len(results))
    move_times = sorted(t for r in results for t in r.move_seconds)
    moves = len(move_times)
    return Summary(
        player=player,
        start=start,
        games=len(results),
        wins=len(wins),
        win_low=low,
        win_high=high,
        mean_score=sum(r.score or 0 for r in wins) / len(wins) if wins else None,
        mean_score_all=sum(r.score or 0 for r in wins) / len(results) if results else 0.0,
        forfeits=dict(sorted(Counter(r.forfeit for r in results if r.forfeit is not None).items())),
        seconds_per_move=sum(move_times) / moves if moves else 0.0,
        median_seconds_per_move=statistics.median(move_times) if moves else 0.0,
        games_per_second=len(results) / elapsed if elapsed > 0 else 0.0,
        lost=tuple(r.seed for r in results if not r.won),
        span=(min(r.seed for r in results), max(r.seed for r in results)) if results else None,
    )
