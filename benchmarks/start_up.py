"""What a start of each quick command costs against its libraries: the CPU seconds (user and system, median of
REPEAT runs) of `foursquare check`, `replay`, `deal`, `rules`, `--help` and `completion`, each beside
`python -c 'import typer, yaml'`, and their ratios. The goals: `check` at most 1.5 times the libraries,
`--help` and `completion` at most 1.3 times (docs/figures.md).

Run: python benchmarks/start_up.py [REPEAT]. Prints figures; asserts nothing. CPU time, not wall time: a busy
machine slows both sides alike. POSIX only (Windows does not count a child's CPU time).
"""

from __future__ import annotations

import os
import pathlib
import statistics
import subprocess
import sys
import tempfile

SAMPLE = str(pathlib.Path(__file__).resolve().parent.parent / "samples" / "won.yaml")
COMMANDS = {
    "check": ["check", SAMPLE],
    "replay": ["replay", SAMPLE],
    "deal": ["deal", "--seed", "5"],
    "rules": ["rules"],
    "--help": ["--help"],
    "completion": ["completion", "bash"],
}
GOALS = {"check": 1.5, "--help": 1.3, "completion": 1.3}


def cpu_seconds(command: list[str], repeat: int, env: dict[str, str]) -> float:
    """The median CPU seconds (user and system) of `command`, run `repeat` times."""
    import resource  # POSIX only: main() returns first on Windows

    def children() -> float:
        used = resource.getrusage(resource.RUSAGE_CHILDREN)
        return used.ru_utime + used.ru_stime

    spent = []
    for _ in range(repeat):
        before = children()
        subprocess.run(command, capture_output=True, check=False, env=env)
        spent.append(children() - before)
    return statistics.median(spent)


def main() -> None:
    if sys.platform == "win32":
        print("Windows counts no child's CPU time: run this on Linux or macOS")
        return
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "FOURSQUARE_HOME": home, "XDG_CONFIG_HOME": home}
        libraries = cpu_seconds([sys.executable, "-c", "import typer, yaml"], repeat, env)
        print(f"python -c 'import typer, yaml': {libraries * 1000:.0f} ms of CPU (median of {repeat})")
        print(f"{'command':<12} {'CPU ms':>7} {'ratio':>6} {'goal':>5}")
        for name, arguments in COMMANDS.items():
            spent = cpu_seconds([sys.executable, "-m", "foursquare_cli", *arguments], repeat, env)
            goal = f"{GOALS[name]:.1f}" if name in GOALS else "-"
            print(f"{name:<12} {spent * 1000:>7.0f} {spent / libraries:>6.2f} {goal:>5}")


if __name__ == "__main__":
    main()
