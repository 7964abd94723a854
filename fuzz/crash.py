"""The crash test: `python -m fuzz.crash [--kills N] [--seed S] [--budget SECONDS] [--work DIR] [KIND...]`.

As SQLite's crash test does for a database, it kills the tool with SIGKILL (its whole process group, workers
and all) at random moments, then resumes what was killed by running the same command again, until the command
ends; after every kill it holds that nothing kept was lost or doubled and that every file left is one the tool
reads and resumes, and at the end that the figures are those of a run never killed (docs/development.md,
"Crash test"). The moments are drawn from `--seed` (printed), each uniform over the time the run took when it
was not killed; a run is killed again and again (one to six times) before it is let finish.

The kinds of run (`fuzz.crash_cases`): `stats`; `shards` (stats and compare, each shard killed and resumed,
then `summarize` over the shards); `compare`; `sprt` (compare --sprt); `jobs` (compare and stats with --jobs 2,
some in shards, held to the figures of --jobs 1); `record` (a game piped into `play --record FILE`, resumed
with `play --resume FILE`); `kept` (a game piped into `play`, kept in the history and resumed from it);
`history` (the history's index rebuilt from hundreds of records, and brought up to date). The players are cheap
(greedy, random, the expert with 40 or 50 playouts a move), so a run takes seconds.

POSIX only: a process group and SIGKILL.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

from .crash_cases import KINDS, Campaign
from .crash_tool import KILLPG, SIGKILL, Tally, Tool

HERE = Path(__file__).resolve().parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.crash", description=__doc__.split("\n\n")[0])
    parser.add_argument("kinds", nargs="*", metavar="KIND", help=f"of {', '.join(KINDS)} (default all)")
    parser.add_argument("--kills", type=int, default=1000, help="kills to make at least (1,000), every kind run once")
    parser.add_argument("--seed", type=int, default=None, help="the seed of the moments and cases (default random)")
    parser.add_argument("--budget", type=float, default=3600.0, help="seconds after which no run starts (3,600)")
    parser.add_argument("--work", type=Path, default=HERE / "work" / "crash", help="the runs' folders (fuzz/work)")
    parser.add_argument("--keep", action="store_true", help="keep every run's folder, not only those that failed")
    options = parser.parse_args(argv)
    unknown = [kind for kind in options.kinds if kind not in KINDS]
    if unknown:
        parser.error(f"unknown kind {unknown[0]!r}; the kinds are {', '.join(KINDS)}")
    if KILLPG is None or SIGKILL is None:
        print("python -m fuzz.crash: needs POSIX (process groups and SIGKILL)", file=sys.stderr)
        return 2
    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(1 << 32)
    print(f"crash test: seed {seed} (python -m fuzz.crash --seed {seed} makes the same moments)", flush=True)
    tally = Tally(seed)
    options.work.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f"seed-{seed}-", dir=options.work))
    campaign = Campaign(Tool(tally), work, random.Random(seed), options.kinds or list(KINDS), keep=options.keep)
    began = time.monotonic()
    kinds = len(options.kinds or KINDS)
    while (tally.kills < options.kills or tally.runs < kinds) and time.monotonic() - began < options.budget:
        campaign.one_run()
        tally.seconds = time.monotonic() - began
        if tally.runs % 20 == 0:
            print(f"  ... {tally.kills:,} kills in {tally.runs:,} runs, {len(tally.failures)} failures", flush=True)
    tally.seconds = time.monotonic() - began
    (work / "summary.json").write_text(json.dumps(asdict(tally), indent=1) + "\n", encoding="utf-8")
    print("\n".join(tally.lines()), flush=True)
    print(f"(runs in {work}; summary.json there)")
    if not tally.failures and not options.keep:
        shutil.rmtree(work / "references", ignore_errors=True)
    return 1 if tally.failures else 0


if __name__ == "__main__":
    sys.exit(main())
