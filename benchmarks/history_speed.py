"""History speed: `foursquare history` over a data folder of 10,000 kept games.

Run: python benchmarks/history_speed.py [--games N]. Builds the games (random play, canonical
records with `meta: started`) in a temporary folder, indexes them once, then times the command
as a user runs it. Prints figures; asserts nothing. The target is half a second.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from foursquare_cli.formats.records import format_record
from foursquare_cli.rules.game import Game
from foursquare_cli.store.history import GAMES_FOLDER, History


def build(folder: Path, count: int) -> None:
    rng = random.Random(3)
    games = folder / GAMES_FOLDER
    games.mkdir(parents=True)
    start = datetime.datetime(2025, 1, 1, tzinfo=datetime.UTC)
    for number in range(count):
        started = (start + datetime.timedelta(minutes=17 * number)).isoformat().replace("+00:00", "Z")
        game = Game.from_seed(number, meta={"started": started})
        while not game.state.is_over and game.ply < 30:
            game.play(rng.choice(game.state.legal_placements()))
        (games / f"{started.replace(':', '-')}-deal-{number}.yaml").write_text(format_record(game))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        began = time.perf_counter()
        build(folder, args.games)
        built = time.perf_counter() - began
        began = time.perf_counter()
        History(folder).games()  # the first read builds the index from the records
        indexed = time.perf_counter() - began
        environment = dict(os.environ, FOURSQUARE_HOME=str(folder))
        times = []
        for _ in range(7):
            began = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "foursquare_cli", "history"],
                env=environment,
                stdout=subprocess.DEVNULL,
                check=True,
            )
            times.append(time.perf_counter() - began)
        print(f"{args.games:,} games written in {built:.1f} s; index built from them in {indexed:.1f} s")
        print(
            f"foursquare history over {args.games:,} games: median {statistics.median(times) * 1000:.0f} ms "
            f"(of 7 runs, start-up included; target 500 ms)"
        )


if __name__ == "__main__":
    main()
