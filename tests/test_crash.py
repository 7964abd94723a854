"""The crash test, short (docs/development.md, "Crash test"): `python -m fuzz.crash` kills the tool with SIGKILL
at twenty-odd random moments, every kind of run once (stats, compare with --sprt, --jobs 2 and shards, a piped
game with --record, a game kept in the history, the history's index), resumes each, and finds nothing lost or
doubled, every file left readable and resumable, and the figures of a run never killed."""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent  # fuzz/ is beside the tests (the wheels' run names its files)


@pytest.mark.slow
@pytest.mark.posix
def test_twenty_kills_lose_nothing_double_nothing_and_change_no_figure(tmp_path):
    command = [sys.executable, "-m", "fuzz.crash", "--kills", "20", "--seed", "1", "--work", str(tmp_path)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said[-4000:]
    assert "crash test, seed 1:" in said and "  0 failures" in said, said[-4000:]
    (summary,) = tmp_path.glob("seed-1-*/summary.json")
    tally = json.loads(summary.read_text())
    assert tally["kills"] >= 20 and tally["failures"] == []
    assert sorted(tally["runs_by_kind"]) == sorted(
        ["stats", "shards", "compare", "sprt", "jobs", "record", "kept", "history"]
    ), "every kind ran"
    assert not [name for name in os.listdir(summary.parent) if name.startswith("run-")], "passed runs are removed"
