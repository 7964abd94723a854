"""How long `foursquare check` takes on 1,000 records of complete games in one call, and
how much one `check` costs over starting Python and importing typer and yaml.

Run: python benchmarks/check_speed.py. Prints figures; asserts nothing.
"""

from __future__ import annotations

import os
import pathlib
import random
import statistics
import subprocess
import sys
import tempfile
import time

from foursquare_cli.formats.records import format_record
from foursquare_cli.rules.game import Game


def make_records(folder: pathlib.Path, count: int) -> list[str]:
    rng = random.Random(7)
    paths = []
    for seed in range(count):
        game = Game.from_seed(seed, meta={"player": "random"})
        while not game.state.is_over:
            game.play(rng.choice(game.state.legal_placements()))
        path = folder / f"game{seed:04}.yaml"
        path.write_text(format_record(game))
        paths.append(str(path))
    return paths


def timed(command: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, check=False, capture_output=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("note: PYTHONDONTWRITEBYTECODE is set: every start compiles the modules, as no user's does")
    with tempfile.TemporaryDirectory() as folder:
        paths = make_records(pathlib.Path(folder), 1000)
        command = [sys.executable, "-m", "foursquare_cli", "check", *paths]
        elapsed = timed(command, 3)
        print(f"check on 1,000 records of complete games, one call: {elapsed:.2f} s")
        single = timed([sys.executable, "-m", "foursquare_cli", "check", paths[0]], 15)
        baseline = timed([sys.executable, "-c", "import typer, yaml"], 15)
        print(
            f"check on one record: {single * 1000:.0f} ms; python + import typer, yaml: {baseline * 1000:.0f} ms; "
            f"ratio {single / baseline:.2f}"
        )


if __name__ == "__main__":
    main()
