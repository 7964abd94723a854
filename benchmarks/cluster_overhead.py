"""What a cluster costs against local processes: `--jobs 2` beside a two-worker local Dask cluster, in one run.

Run: python benchmarks/cluster_overhead.py [--greedy 10000] [--expert 200] [--playouts 100]
Needs the cluster extra (pip install -e '.[cluster]'). Prints the seconds of each and
their ratio (cluster / local); asserts nothing. docs/cluster.md has a run's figures.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

from distributed import LocalCluster


def timed(arguments: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "foursquare_cli", *arguments], check=True, capture_output=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--greedy", type=int, default=10000)
    parser.add_argument("--expert", type=int, default=200)
    parser.add_argument("--playouts", type=int, default=100)
    args = parser.parse_args()
    runs = {
        f"greedy, {args.greedy} deals": ["stats", "-p", "greedy", "-n", str(args.greedy), "-f", "json"],
        f"expert at {args.playouts}, {args.expert} deals": [
            "stats",
            "-p",
            "expert",
            "--playouts",
            str(args.playouts),
            "-n",
            str(args.expert),
            "-f",
            "json",
        ],
    }
    with LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None) as cluster:
        for name, arguments in runs.items():
            local = timed([*arguments, "--jobs", "2"])
            remote = timed([*arguments, "--cluster", cluster.scheduler_address])
            print(f"{name:>28}: --jobs 2 {local:7.2f} s   cluster {remote:7.2f} s   ratio {remote / local:.2f}")


if __name__ == "__main__":
    main()
