"""The harnesses by name, each with the longest input it is given and the modules whose coverage guides it: what
the campaign (`fuzz.run`) and atheris (`fuzz.atheris_main`) need to know before a harness's readers are imported
(atheris instruments a module as it is imported, and only then)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple


class Harness(NamedTuple):
    """A harness of `fuzz.harnesses` (its function's name); its input bound (every reader's input is bounded:
    libFuzzer's `-max_len`); the modules (and packages) atheris instruments for it, the reader's own, so that
    coverage means the reader's code and a run starts in a fraction of a second; and whether it fuzzes the C
    playouts built under AddressSanitizer (`fuzz.build_asan`)."""

    function: str
    max_len: int
    reads: tuple[str, ...]
    asan: bool = False

    def load(self) -> Callable[[bytes], None]:
        from . import harnesses

        found: Callable[[bytes], None] = getattr(harnesses, self.function)
        return found


_RULES = ("foursquare_cli.rules.moves", "foursquare_cli.rules.cards")

HARNESSES: dict[str, Harness] = {
    "records": Harness("records", 8192, ("foursquare_cli.formats", *_RULES, "yaml")),
    "results": Harness(
        "results",
        16384,
        ("foursquare_cli.runs.results", "foursquare_cli.runs.plans", "foursquare_cli.store.logs", *_RULES),
    ),
    "config": Harness("config", 2048, ("foursquare_cli.store.config", "tomllib")),
    "players": Harness(
        "players", 256, ("foursquare_cli.players.registry", "foursquare_cli.players.processes", "shlex")
    ),
    "protocol": Harness("protocol", 4096, ("foursquare_cli.api", "foursquare_cli.players.outside", *_RULES)),
    "pipe": Harness(
        "pipe", 4096, ("foursquare_cli.app.pipe", "foursquare_cli.app.session", "foursquare_cli.formats.lines", *_RULES)
    ),
    "playout": Harness("playout", 512, ("foursquare_cli.rules.integer_playout", "fuzz.harnesses")),
    # the same harness on the C playouts built under AddressSanitizer: gcc's libasan, preloaded, then answers
    # libFuzzer's coverage calls itself, so this one runs blind, on the inputs `playout` found (fuzz.run)
    "playout-asan": Harness("playout", 512, ("foursquare_cli.rules.integer_playout", "fuzz.harnesses"), asan=True),
}
