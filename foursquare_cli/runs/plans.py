"""The plan of a run of `stats` or `compare`: its players (specs), its deals (a shard of a range, sealed or not),
and the first line of its results file, every field checked when read back."""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any, NamedTuple

from ..errors import PlayerError, UsageError, quoted
from ..players import MOVE_LIMIT
from ..players.registry import PlayerSpec, Strength
from ..rules.cards import SEED_MAX
from ..rules.playout import MAX_PLAYOUTS
from .sprt import SprtSettings

RESULTS_FORMAT_VERSION = 2
SPRT_FORMAT_VERSION = 3  # the first line of a run of `compare --sprt`: version 2's, with the test's settings
PLAN_KEYS = ("command", "players", "start", "games", "player_seed", "playouts", "think", "move_time")
MAX_PLAYERS = 16
MAX_MOVES = MOVE_LIMIT  # a line of more moves is not one of ours: no player may make more in a game
MAX_TEXT = 300  # a player's name, a forfeit's reason
MAX_SCORE = 24  # the cards left in the stock when the grid fills: 40 - 16


class DealRange(NamedTuple):
    """The deals a run plays: `games` deals from `start`, the shard (I, N) of them, and whether each is dealt
    from a fresh secret seed (`sealed`)."""

    start: int
    games: int
    shard: tuple[int, int] = (1, 1)
    sealed: bool = False  # each deal from a fresh secret seed, the same for every player of it

    def each_deal(self) -> Iterator[int]:
        """The deals (this shard of the range), in order, one at a time."""
        index, count = self.shard
        first = self.start + index - 1
        return iter(range(first, self.start + self.games, count))

    def deal_count(self) -> int:
        index, count = self.shard
        return max(0, (self.games - index + count) // count)

    def holds(self, deal: int) -> bool:
        index, count = self.shard
        return self.start <= deal < self.start + self.games and (deal - self.start) % count == index - 1


class Plan(NamedTuple):
    """What a run of `stats` or `compare` plays: its players (each a spec, their run-wide defaults the same, their
    names, settings included, differing) and its deals."""

    command: str
    players: tuple[PlayerSpec, ...]
    deals: DealRange
    sprt: SprtSettings | None = None  # `compare --sprt`: the sequential test that stops the run when it knows

    @classmethod
    def of(
        cls,
        command: str,
        names: Sequence[str],
        settings: PlayerSpec,
        deals: DealRange,
        sprt: SprtSettings | None = None,
    ) -> Plan:
        """The plan of `names` (each checked: PlayerError) with the run-wide defaults of `settings`; UsageError
        for a player named twice (by any spelling, under any short name) or two given one short name."""
        players = tuple(settings.named(name) for name in names)
        twice = next((p for p in players if [q.name for q in players].count(p.name) > 1), None)
        if twice is not None:  # a run keeps one line a player a deal: two of one name would be one player
            raise UsageError(f"{twice.name} is named twice; name each player once (settings make another player)")
        shown = [player.shown for player in players]
        clash = next((name for name in shown if shown.count(name) > 1), None)
        if clash is not None:
            raise UsageError(f"{clash} names two players; give each its own short name")
        if sprt is not None and len(players) != 2:
            raise UsageError("the sequential test (--sprt) compares two players; give two")
        if sprt is not None and deals.shard != (1, 1):  # each shard would stop on its own test, not the run's
            raise UsageError(
                "--sprt is one test over the deals in order and stops the whole run, so it is not split into "
                "shards (--shard); play it as one run (--jobs or --cluster make it faster)"
            )
        return cls(command, players, deals, sprt)

    @property
    def names(self) -> tuple[str, ...]:
        """The players' whole names (their short names and settings included), as results files keep them."""
        return tuple(player.text for player in self.players)

    @property
    def settings(self) -> PlayerSpec:
        """The settings every player of the plan shares (its first player's spec)."""
        return self.players[0]

    def to_json(self) -> dict[str, Any]:
        """The plan as the first line of its results file."""
        settings, deals = self.settings, self.deals
        return {
            "foursquare_results": RESULTS_FORMAT_VERSION if self.sprt is None else SPRT_FORMAT_VERSION,
            "command": self.command,
            "players": list(self.names),
            "start": deals.start,
            "games": deals.games,
            "player_seed": settings.seed,
            "playouts": settings.strength.playouts,
            "think": settings.strength.think,
            "move_time": settings.move_time,
            "shard": list(deals.shard),
            "sealed": deals.sealed,
        } | ({"sprt": self.sprt.to_json()} if self.sprt is not None else {})

    @classmethod
    def from_header(cls, header: dict[str, Any] | None, path: str) -> Plan:
        """The plan a results file's first line states, every field checked; ResultsError saying which."""
        version = header.get("foursquare_results") if header is not None else None
        if type(version) is not int:  # 2.0 and true equal a version to Python, and are none to the format
            version = None
        if header is not None and version == RESULTS_FORMAT_VERSION and header.get("command") == "analyze":
            raise ResultsError("holds analyze's results, not a run of stats or compare; give another file", path=path)
        if header is None or version not in (RESULTS_FORMAT_VERSION, SPRT_FORMAT_VERSION) or "command" not in header:
            old = header is not None and header.get("foursquare_results") == 1
            said = "written by an older version of the tool (its games cannot be checked); give another file"
            other = "not a results file of this version (docs/protocol.md, section 9)"
            raise ResultsError(said if old else other, path=path)
        wanted = {"foursquare_results", *PLAN_KEYS, "shard", "sealed"} | (
            {"sprt"} if version == SPRT_FORMAT_VERSION else set()
        )
        if set(header) != wanted:
            raise ResultsError(f"its plan has the keys {sorted(header)}, not {sorted(wanted)}", path=path)
        problem = _plan_problem(header)
        if problem is not None:
            raise ResultsError(f"its plan is not one of a run: {problem}", path=path)
        strength = Strength(header["playouts"], header["think"])
        players = []
        for name in header["players"]:
            try:
                player = PlayerSpec.parse(name, header["player_seed"], strength, header["move_time"])
            except PlayerError as error:
                raise ResultsError(f"its plan names a player this tool cannot play: {error}", path=path) from None
            if player.text != name:
                written = f"{name!r} is not as the tool writes it"
                raise ResultsError(f"its plan is not one of a run: players ({written})", path=path)
            players.append(player)
        deals = DealRange(header["start"], header["games"], tuple(header["shard"]), header["sealed"])
        sprt = _sprt_settings(header.get("sprt"), header["command"]) if version == SPRT_FORMAT_VERSION else None
        if version == SPRT_FORMAT_VERSION and sprt is None:
            raise ResultsError("its plan is not one of a run: sprt", path=path)
        return cls(header["command"], tuple(players), deals, sprt)


def _sprt_settings(value: object, command: str) -> SprtSettings | None:
    """A plan's sequential test, checked: a compare's, its difference above 0, its error rates between 0 and a half."""
    if command != "compare" or not isinstance(value, dict) or set(value) != {"points", "alpha", "beta"}:
        return None
    points, alpha, beta = value["points"], value["alpha"], value["beta"]
    if not (is_seconds(points) and points <= MAX_SCORE and all(is_share(rate) for rate in (alpha, beta))):
        return None
    return SprtSettings(float(points), float(alpha), float(beta))


def is_share(value: object) -> bool:
    """An error rate of a test: a number above 0 and below a half."""
    return isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 0.5


def is_whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def is_seconds(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value > 0


def _plan_problem(header: dict[str, Any]) -> str | None:
    """What is wrong with a plan's fields (their kinds and sizes), or None."""
    players, shard = header["players"], header["shard"]
    checks = [
        (header["command"] in ("stats", "compare"), "command"),
        (
            isinstance(players, list)
            and 1 <= len(players) <= MAX_PLAYERS
            and all(isinstance(p, str) and 0 < len(p) <= MAX_TEXT for p in players)
            and len(set(players)) == len(players),
            "players",
        ),
        (is_whole(header["start"], 0, SEED_MAX), "start"),
        (is_whole(header["games"], 1, SEED_MAX + 1) and header["start"] + header["games"] - 1 <= SEED_MAX, "games"),
        (is_whole(header["player_seed"], 0, SEED_MAX), "player_seed"),
        (is_whole(header["playouts"], 1, MAX_PLAYOUTS), "playouts"),
        (header["think"] is None or is_seconds(header["think"]), "think"),
        (is_seconds(header["move_time"]), "move_time"),
        (
            isinstance(shard, list)
            and len(shard) == 2
            and is_whole(shard[1], 1, MAX_SHARDS)
            and is_whole(shard[0], 1, shard[1]),
            "shard",
        ),
        (isinstance(header["sealed"], bool), "sealed"),
    ]
    return next((name for good, name in checks if not good), None)


MAX_SHARDS = 10**6  # the parts a range may be cut into (a results file's plan holds no more)


def parse_shard(text: str) -> tuple[int, int]:
    """`I/N` (1 <= I <= N): the I-th of N parts of a range; UsageError otherwise."""
    index, _, count = text.partition("/")
    whole = len(text) <= 20 and index.isascii() and index.isdigit() and count.isascii() and count.isdigit()
    if not whole or not 1 <= int(index) <= int(count) <= MAX_SHARDS:  # the length first: int() takes 4,300 digits
        raise UsageError(
            f"{quoted(text, 30)}: a shard is I/N, the I-th of N parts, 1 <= I <= N <= {MAX_SHARDS:,} (1/4 to 4/4)"
        )
    return int(index), int(count)


class ResultsError(UsageError):
    """A results file that cannot be used for this run (another plan, not a results file, unreadable)."""
