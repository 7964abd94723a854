"""The fuzzing campaign: `python -m fuzz [--runs N] [--seed S] [HARNESS...]`.

Each harness (`fuzz.table`) runs under atheris in a process of its own for N inputs (`-atheris_runs`), its seed
corpus (fuzz/corpus/HARNESS, read only) and the inputs it found so far (WORK/corpus/HARNESS) as its corpus. A
crash (an exception outside the tool's own kinds, a broken promise, a hang past `--timeout`, an ASan report)
keeps its input in WORK/crashes/HARNESS/ and the harness goes on from there, its runs counted across restarts,
until it has run N inputs or crashed `--max-crashes` times. One line a harness is printed: the inputs run, the
coverage libFuzzer reached (`cov:` edges, `ft:` features), the crashes (each kind once) and the known issues met
(`fuzz.harnesses.KNOWN`); WORK/summary.json keeps the same. `playout-asan` fuzzes the C playouts built under
AddressSanitizer (`fuzz.build_asan`) on the inputs `playout` found; it is skipped where gcc has no libasan.
Run it under `nice -n 19` on a shared machine.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from .table import HARNESSES

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
_STATS = re.compile(r"^#(\d+)\s+\w+\s+cov: (\d+) ft: (\d+)", re.MULTILINE)
_PULSE = re.compile(r"^#(\d+)\s", re.MULTILINE)
_DONE = re.compile(r"^Done (\d+) in", re.MULTILINE)
_EXECUTED = re.compile(r"stat::number_of_executed_units: (\d+)")
_ARTIFACT = re.compile(r"Test unit written to (\S+)")
_KNOWN = re.compile(r"^fuzz: known issue (.+?): [\"'].*$", re.MULTILINE)


@dataclass
class Outcome:
    """What one harness's part of the campaign found."""

    harness: str
    inputs: int = 0
    cov: int = 0
    ft: int = 0
    seconds: float = 0.0
    crashes: list[dict[str, str]] = field(default_factory=list)
    known: list[str] = field(default_factory=list)
    asan: bool = False
    note: str = ""

    def line(self) -> str:
        kinds = "; ".join(f"{crash['kind']} ({crash['input']})" for crash in self.crashes)
        said = f"{self.harness:9} {self.inputs:>9,} inputs  cov {self.cov:>5}  ft {self.ft:>6}  "
        said += f"{len(self.crashes)} crashes{': ' + kinds if kinds else ''}"
        said += f"  [{len(self.known)} known]" if self.known else ""
        return said + ("  (ASan)" if self.asan else "") + (f"  {self.note}" if self.note else "")


def crash_kind(output: str) -> str:
    """A crash in a few words, the same for every input that crashes the same way: its exception and the last
    line of the package it was raised at, or the sanitizer's or libFuzzer's own word for it."""
    asan = re.search(r"ERROR: AddressSanitizer: ([\w-]+)", output)
    if asan:
        return f"ASan {asan.group(1)}"
    if any(said in output for said in ("libFuzzer: timeout", "ALARM: working on the last Unit", "Timeout (0:")):
        return "timeout (a hang)"
    if "out-of-memory" in output:
        return "out of memory"
    error = re.search(r"Uncaught Python exception: ===\n(\w+)", output)
    places = re.findall(r'File "([^"]*foursquare_cli[^"]*)", line (\d+)', output)
    place = f" at {Path(places[-1][0]).name}:{places[-1][1]}" if places else ""
    return f"{error.group(1) if error else 'a crash'}{place}"


def _kept(current: Path) -> list[str]:
    """The input `fuzz.blind` was running when its process ended (an ASan report, a hang), kept by its SHA-1."""
    if not current.exists():
        return []
    data = current.read_bytes()
    kept = current.with_name(f"crash-{hashlib.sha1(data).hexdigest()}")
    current.replace(kept)
    return [str(kept)]


def run_harness(name: str, runs: int, seed: int, work: Path, timeout: int, max_crashes: int) -> Outcome:
    """`name` run for `runs` inputs (across restarts after crashes), in processes of its own."""
    outcome = Outcome(name)
    crashes = work / "crashes" / name
    crashes.mkdir(parents=True, exist_ok=True)
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    if HARNESSES[name].asan:
        from .build_asan import asan_environment

        found = asan_environment()
        if isinstance(found, str):
            outcome.note = f"no ASan build ({found}): skipped"
            return outcome
        environment |= found
        outcome.asan = True
    started = time.monotonic()
    kinds: set[str] = set()
    known: set[str] = set()
    attempt = 0
    while outcome.inputs < runs:
        if HARNESSES[name].asan:  # no coverage under ASan: mutations of the guided harness's inputs
            command = [sys.executable, "-m", "fuzz.blind", name, "--work", str(work), f"--runs={runs - outcome.inputs}"]
            command += [f"--seed={seed + attempt}", f"--timeout={timeout}"]
        else:
            command = [sys.executable, "-m", "fuzz.atheris_main", name, "--work", str(work)]
            command += [f"-atheris_runs={runs - outcome.inputs}", f"-seed={seed + attempt}", f"-timeout={timeout}"]
            command += ["-print_final_stats=1", "-rss_limit_mb=4096"]
        done = subprocess.run(command, env=environment, capture_output=True, text=True, errors="replace")
        output = done.stdout + done.stderr
        executed = [int(found) for found in _DONE.findall(output) or _EXECUTED.findall(output)]
        stats = _STATS.findall(output)
        outcome.inputs += executed[-1] if executed else max(map(int, _PULSE.findall(output)), default=0)
        if stats:
            outcome.cov, outcome.ft = max(outcome.cov, int(stats[-1][1])), max(outcome.ft, int(stats[-1][2]))
        known.update(_KNOWN.findall(output))
        attempt += 1
        if done.returncode == 0:
            break
        artifact = _ARTIFACT.findall(output) or _kept(crashes / "current")
        kind = crash_kind(output)
        log = crashes / f"crash-{attempt}.log"
        log.write_text(output[:20000] + ("\n...\n" + output[-20000:] if len(output) > 40000 else output[20000:]))
        if kind not in kinds:
            kinds.add(kind)
            outcome.crashes.append({"kind": kind, "input": artifact[-1] if artifact else str(log), "log": str(log)})
        if attempt >= max_crashes or not _PULSE.search(output) and not executed:
            outcome.note = outcome.note or f"stopped after {attempt} crashes"
            break
    outcome.known = sorted(known)
    outcome.seconds = round(time.monotonic() - started, 1)
    return outcome


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("harnesses", nargs="*", metavar="HARNESS", help=f"of {', '.join(HARNESSES)} (default all)")
    parser.add_argument("--runs", type=int, default=10_000, help="inputs a harness (default 10,000)")
    parser.add_argument("--seed", type=int, default=1, help="libFuzzer's seed (default 1)")
    parser.add_argument("--work", type=Path, default=HERE / "work", help="found inputs and crashes (fuzz/work)")
    parser.add_argument("--timeout", type=int, default=20, help="seconds an input may take before it is a hang")
    parser.add_argument("--max-crashes", type=int, default=5, help="crashes after which a harness stops")
    parser.add_argument("--no-asan", action="store_true", help="leave out playout-asan (the ASan build of the C)")
    options = parser.parse_args(argv)
    unknown = [name for name in options.harnesses if name not in HARNESSES]
    if unknown:
        parser.error(f"no harness {', '.join(unknown)}; harnesses: {', '.join(HARNESSES)}")
    outcomes = []
    for name in options.harnesses or list(HARNESSES):
        if HARNESSES[name].asan and options.no_asan:
            continue
        outcome = run_harness(name, options.runs, options.seed, options.work, options.timeout, options.max_crashes)
        print(outcome.line(), flush=True)
        for signature in outcome.known:
            print(f"          known: {signature}", flush=True)
        outcomes.append(outcome)
    total = sum(outcome.inputs for outcome in outcomes)
    crashed = sum(len(outcome.crashes) for outcome in outcomes)
    print(f"all       {total:>9,} inputs, {crashed} kinds of crash", flush=True)
    options.work.mkdir(parents=True, exist_ok=True)
    (options.work / "summary.json").write_text(json.dumps([asdict(outcome) for outcome in outcomes], indent=2) + "\n")
    return 1 if crashed else 0


if __name__ == "__main__":
    sys.exit(main())
