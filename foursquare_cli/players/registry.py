"""Which player plays, and how: the one registry of players, and `PlayerSpec`, a player named with its settings.

**The registry.** Every player that has a name is found through one entry-point group,
`foursquare.players`, as pytest finds its plugins: a name mapped to a class or factory
(`module:attribute`, as `--player module:attribute` names one). This package declares
its own there (`pyproject.toml`), and so may any other installed package: a new player
is a module and a line, and the command line's choices, help and completion, and the
player lists of docs/players.md and docs/commands.md, are all read off the registry.
The group is read only when a player is named or help is shown (reading it costs a
start-up of the tool a fifth more).

**A player's settings.** A registered player's class names the settings it takes in
`SETTINGS` (name: type); a name carries them after a colon, `expert:playouts=1000` or
`expert:playouts=1000,think=0.2`; the run-wide options (`--playouts`, `--think`) are the
defaults of the settings of the same name. Any player may be given a short name to show
in tables, before an equals sign: `fast=expert:playouts=500`, `mine=cmd:./bot`.

**Building one.** The factory is called once a game, with the player seed if it takes an
argument, and with its settings as keywords; then `choose(state)` is asked for each move.
This package's own players are built in the tool's process; another package's run, as
`module:` players do, in a process of their own (`outside`), so that they can only ever
forfeit. Nothing of another package is imported in the tool's process: its settings and
summary are read in a process of their own too, within a time limit (`plugins`), and
carried with the spec to the workers. `cmd:COMMAND` (a program speaking the move protocol) and `module:attribute` (a
Python class or factory) are named, not registered.
"""

from __future__ import annotations

import enum
import functools
import importlib
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

from ..errors import PlayerError, quoted
from ..rules.playout import ACCELERATED

if TYPE_CHECKING:
    from ..rules.game import Player
    from .plugins import Description

ENTRY_POINTS = "foursquare.players"
THIS_PACKAGE = "foursquare-cli"  # the distribution whose players are built in the tool's own process
C_PLAYOUTS = 4000  # the expert's budget with the playouts in C: the cheapest not weaker than 20,000 (docs/figures.md)
PYTHON_PLAYOUTS = 1000  # without C (no compiler at install): the budget that keeps a move under a second there
DEFAULT_PLAYOUTS = C_PLAYOUTS if ACCELERATED else PYTHON_PLAYOUTS
"""The expert's default budget for this build: fixed by the build, never by the clock, so a build's moves are
the same on every run (docs/figures.md has what each budget wins and scores)."""
DEFAULT_MOVE_TIME = 10.0  # seconds an outside player has for a move before it forfeits
DEFAULT_PLAYER = "expert"  # the player of `hint`, the meter and `analyze`, unless another is named
OUTSIDE_PLAYERS = "cmd:COMMAND (a program speaking the move protocol) or module:attribute (a Python class)"


class Strength(NamedTuple):
    """The run-wide defaults of the settings of the same name: playouts a move (a deterministic budget) and an
    optional cap in seconds."""

    playouts: int = DEFAULT_PLAYOUTS
    think: float | None = None


class RegisteredPlayer(NamedTuple):
    """A player of the registry: its name, its class or factory (`module:attribute`), and whether it is this
    package's own (built in the tool's process) or another installed package's (run in a process of its own)."""

    name: str
    target: str
    ours: bool

    def factory(self) -> Any:
        """This package's class or factory (its module imported): PlayerError, one line, when it cannot be.
        Another package's is never imported here (`plugins` reads it in a process of its own)."""
        if not self.ours:
            raise PlayerError(f"{self.name}: another package's player is not imported in the tool's process")
        module, _, attribute = self.target.partition(":")
        try:
            found = getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as error:
            raise PlayerError(f"{self.name}: its entry point {self.target!r} cannot be loaded: {error}") from None
        return found

    @property
    def summary(self) -> str:
        """What it does, in a few words: its class's `summary`, else the first line of its docstring."""
        if not self.ours:
            return self._outside().summary
        factory = self.factory()
        said = getattr(factory, "summary", None) or (factory.__doc__ or "").strip().split("\n")[0]
        return str(said).strip().rstrip(".")

    @property
    def settings(self) -> dict[str, type]:
        """The settings it takes (name: type), from its class's `SETTINGS`."""
        if not self.ours:
            return dict(self._outside().settings)
        return dict(getattr(self.factory(), "SETTINGS", {}))

    def _outside(self) -> Description:
        """Another package's player as read in a process of its own (PlayerError, one line, when it cannot be)."""
        from .plugins import description_of  # start-up: its process, for another package's players alone

        return description_of(self.name, self.target)


@functools.cache
def registered_players() -> tuple[RegisteredPlayer, ...]:
    """Every player of the `foursquare.players` entry points: this package's own first, in the order it declares
    them, then the others by name. A name is taken once, this package's first."""
    from importlib.metadata import entry_points  # start-up: 13 ms, read only when a name or the help needs it

    found: dict[str, RegisteredPlayer] = {}
    for point in sorted(entry_points(group=ENTRY_POINTS), key=lambda point: not _ours(point)):
        name = point.name.lower()
        if _NAME.fullmatch(name) and name not in found:
            found[name] = RegisteredPlayer(name, point.value, _ours(point))
    ours = [player for player in found.values() if player.ours]
    return tuple(ours + sorted((player for player in found.values() if not player.ours), key=lambda p: p.name))


def _ours(point: Any) -> bool:
    """An entry point of this package's distribution that names a module of this package: one that only claims
    the distribution's name is another package's."""
    dist = getattr(point, "dist", None)
    ours = dist is not None and str(dist.name).lower().replace("_", "-") == THIS_PACKAGE
    return ours and str(point.value).startswith(f"{__name__.partition('.')[0]}.")


def registered(name: str) -> RegisteredPlayer | None:
    return next((player for player in registered_players() if player.name == name.lower()), None)


def players_help() -> str:
    """What `--player` takes: the registered players' names, then `cmd:COMMAND (...) or module:attribute (...)`."""
    names = [player.name for player in registered_players()]
    return ", ".join(names) + ", " + OUTSIDE_PLAYERS if names else OUTSIDE_PLAYERS


def players_table() -> str:
    """The registered players as docs/players.md's table lists them: name, what it does, its settings."""
    rows = ["| player | what it does | settings |", "| --- | --- | --- |"]
    for player in registered_players():
        try:
            summary, settings = player.summary, ", ".join(f"`{name}`" for name in player.settings) or "-"
        except PlayerError as error:  # another package's, which cannot be read: why, in its row
            summary, settings = str(error).removeprefix(f"{player.name}: "), "settings unknown"
        rows.append(f"| `{player.name}` | {summary.replace('|', '/') or '-'} | {settings} |")
    return "\n".join(rows)


class PlayerKind(enum.StrEnum):
    REGISTERED = "registered"
    PROGRAM = "cmd"
    MODULE = "module"


_NAME = re.compile(r"[a-z][a-z0-9_-]*")
_LABEL = re.compile(r"([A-Za-z][A-Za-z0-9_.-]{0,19})=(?=\S)")
SHORT_NAME_EXAMPLE = "fast=expert:playouts=500"
SHORT_NAME_RULES = (
    f"a short name is 1 to 20 ASCII letters, digits, '_', '.' or '-', a letter first, then '=' and the player "
    f"({SHORT_NAME_EXAMPLE})"
)
_SETTING = re.compile(r"([a-z_][a-z0-9_]*)=([^,=\s]+)")


@dataclass(frozen=True)
class PlayerSpec:
    """A player as named, in its canonical form (`parse`): `expert`, `expert:playouts=1000`, `cmd:./bot`,
    `mybots:Greedy`, each with an optional short name (`label`); and the run-wide defaults of its settings, the
    seed of its own choices, an outside program's time a move. A value: it builds the player."""

    name: str = DEFAULT_PLAYER  # the canonical name, settings included, the short name not
    seed: int = 0
    strength: Strength = Strength()
    move_time: float = DEFAULT_MOVE_TIME
    label: str | None = None
    protocol: int = 1  # the version of the move protocol a `cmd:` program is spoken to in (`formats.protocol`)
    kinds: tuple[tuple[str, type], ...] | None = field(default=None, compare=False, repr=False)
    """Another package's player's settings (name, type), as read once in a process of its own (`plugins`) when
    it was named: carried to the workers, so that no worker reads them again."""

    @classmethod
    def parse(
        cls,
        text: str,
        seed: int = 0,
        strength: Strength = Strength(),
        move_time: float = DEFAULT_MOVE_TIME,
        protocol: int = 1,
    ) -> PlayerSpec:
        """The spec of the player `text` names, in canonical form; PlayerError, one line, for a name that names
        none (an unknown player or setting, a setting's value of the wrong kind, `cmd:` with no program)."""
        label, name = parse_player_name(text)
        return cls(name, seed, strength, move_time, label, protocol, _outside_kinds(name))

    @property
    def text(self) -> str:
        """The whole name, as the tool writes it (and reads it back): `fast=expert:playouts=500`."""
        return f"{self.label}={self.name}" if self.label else self.name

    @property
    def shown(self) -> str:
        """The name a table shows: the short name, else the whole name."""
        return self.label or self.name

    @property
    def kind(self) -> PlayerKind:
        if self.name.startswith("cmd:"):
            return PlayerKind.PROGRAM
        return PlayerKind.REGISTERED if registered(self.name.partition(":")[0]) else PlayerKind.MODULE

    @property
    def settings(self) -> dict[str, Any]:
        """A registered player's settings: the run-wide defaults it takes, then those its name gives."""
        player = registered(self.name.partition(":")[0])
        if player is None or self.name.startswith("cmd:"):
            return {}
        kinds = dict(self.kinds) if self.kinds is not None else player.settings
        given = {"playouts": self.strength.playouts, "think": self.strength.think}
        settings = {key: value for key, value in given.items() if key in kinds}
        tail = self.name.partition(":")[2]
        for key, value in _settings_of(tail) if tail else []:
            settings[key] = _setting_value(player.name, kinds[key], key, value)
        return settings

    def named(self, text: str) -> PlayerSpec:
        """The same defaults for another player (checked)."""
        label, name = parse_player_name(text)
        return replace(self, name=name, label=label, kinds=_outside_kinds(name))

    def for_deal(self, deal: int) -> PlayerSpec:
        """The spec of this player's game on `deal` in a run: seeded from the player seed and the deal, so a
        deal's game is the same whichever process plays it."""
        return replace(self, seed=self.seed * 1_000_003 + deal)

    def build(self) -> Player:
        """The player (PlayerError, one line, when it cannot be built). An outside player, or another package's,
        is one process per worker, reused from game to game (a fresh player built in it each game)."""
        kind = self.kind
        if kind is PlayerKind.REGISTERED:
            player = registered(self.name.partition(":")[0])
            assert player is not None
            if player.ours:
                try:
                    return build_player(player.factory(), self.seed, self.settings)
                except (TypeError, ValueError) as error:
                    raise PlayerError(f"{self.text}: {error}") from None
        from .outside import running_program  # start-up: 18 ms (its processes), for outside players alone

        if kind is PlayerKind.REGISTERED:
            player = registered(self.name.partition(":")[0])
            assert player is not None
            return running_program(player.target, self.move_time, self.seed, self.settings)
        return running_program(self.name, self.move_time, self.seed, protocol=self.protocol)


def _outside_kinds(name: str) -> tuple[tuple[str, type], ...] | None:
    """The settings of another package's player `name` names (read in a process of its own, PlayerError when they
    cannot be); None for any other player."""
    player = None if name.startswith("cmd:") else registered(name.partition(":")[0])
    return None if player is None or player.ours else tuple(player.settings.items())


def build_player(factory: Any, seed: int, settings: dict[str, Any]) -> Player:
    """`factory` called as a player is built: with the player seed if it takes an argument, with `settings` as
    keywords. What it raises passes through (ValueError: a setting out of range); TypeError when what it makes
    has no `choose`."""
    import inspect  # start-up: 4 ms, for a player module's own class alone

    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        parameters = []  # type: ignore[assignment]
    takes = [p for p in parameters if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    built = factory(seed, **settings) if takes and takes[0].name not in settings else factory(**settings)
    if not callable(getattr(built, "choose", None)):
        raise TypeError("its objects have no choose(state) method")
    player: Player = built
    return player


def parse_player_name(text: str) -> tuple[str | None, str]:
    """(short name or None, canonical name) of the player `text` names, checked without building it: a
    registered player's name in lower case, its settings checked against its `SETTINGS`, in their order, those
    at a run-wide default left as they are given; PlayerError for a name that names no player."""
    label = None
    found = _LABEL.match(text)
    if found is not None and not text.startswith(("cmd:",)):
        label, text = found.group(1), text[found.end() :]
    elif "=" in text.partition(":")[0]:  # a short name before an equals sign, but not one of the form
        short, _, after = text.partition("=")
        if _LABEL.match(short + "=x") and not after.strip():
            raise PlayerError(f"{quoted(text, 30)}: no player after the short name ({SHORT_NAME_EXAMPLE})")
        raise PlayerError(f"{quoted(short, 30)}: {SHORT_NAME_RULES}")
    if text.startswith("cmd:"):
        from .processes import split_command  # start-up: 11 ms, for outside players alone

        try:
            argv = split_command(text[4:])
        except ValueError as error:
            raise PlayerError(f"{text}: {error}") from None
        if not argv:
            raise PlayerError("cmd: names no program; write cmd:COMMAND")
        return label, text
    head, colon, tail = text.partition(":")
    player = registered(head)
    if player is None and colon:
        module, attribute = head, tail
        if not module or not attribute or not all(part.isidentifier() for part in module.split(".") + [attribute]):
            literal = " with no 'module:' before it" if head.lower() == "module" else ""  # as `cmd:` is typed
            raise PlayerError(f"{text!r}: not a player; write module:attribute (like mybots:Greedy){literal}")
        return label, text
    if player is None:
        raise PlayerError(f"{text!r}: no such player; players are {players_help()}")
    if not colon:
        return label, player.name
    kinds = player.settings
    given = dict(_settings_of(tail, text))
    for key, value in given.items():
        if key not in kinds:
            takes = ", ".join(kinds) or "none"
            raise PlayerError(f"{text!r}: {player.name} has no setting {key!r}; its settings: {takes}")
        _setting_value(player.name, kinds[key], key, value)
    ordered = [f"{key}={_canonical_value(kinds[key], given[key])}" for key in kinds if key in given]
    name = f"{player.name}:{','.join(ordered)}" if ordered else player.name
    if player.ours:  # built once, here, so that a setting out of range is said at once, as the name is
        settings = {key: _setting_value(player.name, kinds[key], key, value) for key, value in given.items()}
        try:
            build_player(player.factory(), 0, settings)
        except (TypeError, ValueError) as error:
            raise PlayerError(f"{text!r}: {error}") from None
    return label, name


def _settings_of(tail: str, text: str | None = None) -> list[tuple[str, str]]:
    """The `key=value` pairs of a name's settings (PlayerError quoting `text` when they are not)."""
    pairs = []
    keys: set[str] = set()
    for part in tail.split(","):
        found = _SETTING.fullmatch(part.strip().lower())
        if found is None:
            raise PlayerError(f"{text or tail!r}: settings are key=value, joined by commas (expert:playouts=1000)")
        if found.group(1) in keys:
            raise PlayerError(f"{text or tail!r}: {found.group(1)} is set twice")
        keys.add(found.group(1))
        pairs.append((found.group(1), found.group(2)))
    return pairs


def _setting_value(player: str, kind: type, key: str, value: str) -> Any:
    """A setting's value as `player` takes it, of `kind` (PlayerError when it is not)."""
    try:
        if kind is bool:
            if value not in ("true", "false", "yes", "no", "1", "0"):
                raise ValueError(value)
            return value in ("true", "yes", "1")
        converted = kind(value)
    except ValueError:
        said = _KIND_WORDS.get(kind, kind.__name__)
        raise PlayerError(f"{quoted(f'{player}:{key}={value}')}: {key} takes {said}") from None
    if isinstance(converted, float) and not converted == converted or converted in (float("inf"), float("-inf")):
        raise PlayerError(f"{quoted(f'{player}:{key}={value}')}: {key} takes a finite number")  # quoted as all are
    return converted


def _canonical_value(kind: type, value: str) -> str:
    if kind is bool:
        return "true" if value in ("true", "yes", "1") else "false"
    return repr(kind(value)) if kind is float else str(kind(value))


_KIND_WORDS = {int: "a whole number", float: "a number", str: "a word"}
