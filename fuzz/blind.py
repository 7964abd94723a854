"""A harness driven without coverage: `python -m fuzz.blind HARNESS [--runs N] [--seed S] [--work DIR]`.

For the C playouts under AddressSanitizer (`playout-asan`), where libFuzzer gets no coverage (`fuzz.build_asan`)
and so would mutate a single input: here every input the guided `playout` harness found (WORK/corpus/playout)
and the seed corpus are run, then N mutations of them (`fuzz.mutate`). Each input is written to
WORK/crashes/HARNESS/current before it runs, so that an ASan report, which ends the process at once, leaves it
behind; an exception keeps it as crash-SHA1 and ends the run (exit 1); an input that takes longer than
`--timeout` seconds is a hang (`faulthandler` ends the process, even in C). It prints what `fuzz.run` reads of
libFuzzer: `#N pulse` every thousand inputs, `Done N in S second(s)` at the end.
"""

from __future__ import annotations

import argparse
import faulthandler
import hashlib
import sys
import time
import traceback
from pathlib import Path

from .mutate import CORPUS, inputs
from .table import HARNESSES


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.blind")
    parser.add_argument("harness", choices=sorted(HARNESSES))
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--work", type=Path, default=Path(__file__).resolve().parent / "work")
    parser.add_argument("--timeout", type=int, default=20)
    options = parser.parse_args(argv)
    harness = HARNESSES[options.harness]
    function = harness.load()
    crashes = options.work / "crashes" / options.harness
    crashes.mkdir(parents=True, exist_ok=True)
    folders = [options.work / "corpus" / harness.function, CORPUS / harness.function]
    pool = [path.read_bytes() for folder in folders if folder.is_dir() for path in sorted(folder.iterdir())]

    current = crashes / "current"
    started = time.monotonic()
    done = 0
    for data in inputs(options.harness, max(0, options.runs - len(pool)), options.seed, harness.max_len, pool):
        if done >= options.runs:
            break
        current.write_bytes(data)
        # a hang, even one inside C with the interpreter's lock let go: the tracebacks, and the process ends
        faulthandler.dump_traceback_later(options.timeout, exit=True)
        try:
            function(data)
        except BaseException as error:  # a crash: whatever the harness let through
            faulthandler.cancel_dump_traceback_later()
            kept = crashes / f"crash-{hashlib.sha1(data).hexdigest()}"
            kept.write_bytes(data)
            print(" === Uncaught Python exception: ===", file=sys.stderr)
            traceback.print_exception(error, file=sys.stderr)
            print(f"Test unit written to {kept}", file=sys.stderr)
            print(f"Done {done} in {int(time.monotonic() - started)} second(s)", file=sys.stderr)
            return 1
        faulthandler.cancel_dump_traceback_later()
        done += 1
        if done % 1000 == 0:  # what is counted if the process ends at an ASan report
            print(f"#{done}\tpulse", file=sys.stderr, flush=True)
    current.unlink(missing_ok=True)
    print(f"Done {done} in {int(time.monotonic() - started)} second(s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
