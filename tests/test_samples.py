"""`check` over every sample: each valid one gives its outcome, each invalid one its error."""

from __future__ import annotations

import pathlib
import subprocess
import sys

import pytest
from typer.testing import CliRunner

from foursquare_cli.cli import app

SAMPLES = pathlib.Path(__file__).resolve().parent.parent / "samples"
INVALID = sorted((SAMPLES / "invalid").glob("*.yaml"))


@pytest.fixture(autouse=True)
def in_samples(monkeypatch):
    monkeypatch.chdir(SAMPLES)


def check(*paths: str) -> subprocess.CompletedProcess:
    """`foursquare check` in-process (CliRunner), as a CompletedProcess."""
    result = CliRunner().invoke(app, ["check", *paths])
    return subprocess.CompletedProcess(paths, result.exit_code, result.stdout, result.stderr)


def check_in_a_process(*paths: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "foursquare_cli", "check", *paths],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=SAMPLES,
    )


@pytest.mark.parametrize(
    "name, outcome",
    [
        ("won.yaml", "won, score 9, 31 moves"),
        ("lost.yaml", "lost after 20 moves (more than 4 face-down cards)"),
        ("unfinished.yaml", "playing, 12 moves"),
    ],
)
def test_valid_samples(name, outcome):
    process = check(name)
    assert (process.returncode, process.stdout, process.stderr) == (0, f"{name}: {outcome}\n", "")


def expected_errors(path: pathlib.Path) -> list[str]:
    name = f"invalid/{path.name}"
    if path.name == "empty.yaml":
        return [f"{name}:1: empty file; expected a game record or a move log"]
    lines = path.read_bytes().decode("ascii", errors="replace").splitlines()
    return [f"{name}:{line[len('# expect: ') :]}" for line in lines if line.startswith("# expect: ")]


def test_there_is_an_invalid_sample_for_every_kind_of_problem():
    assert len(INVALID) >= 30
    for path in INVALID:
        assert expected_errors(path), f"{path.name} says what it must produce"


@pytest.mark.parametrize("path", INVALID, ids=[p.name for p in INVALID])
def test_invalid_sample_gives_its_error(path):
    process = check(f"invalid/{path.name}")
    assert process.returncode == 1
    assert process.stderr.splitlines() == expected_errors(path)
    assert process.stdout.startswith(f"invalid/{path.name}: invalid (")
    assert "Traceback" not in process.stderr


def test_all_samples_in_one_call():
    names = ["won.yaml", "lost.yaml", "unfinished.yaml"] + [f"invalid/{p.name}" for p in INVALID]
    process = check_in_a_process(*names)
    assert process.returncode == 1
    assert process.stdout.count("\n") == len(names)
    assert process.stdout.splitlines()[0] == "won.yaml: won, score 9, 31 moves"
    expected = [line for path in INVALID for line in expected_errors(path)]
    assert process.stderr.splitlines() == expected


def test_the_move_log_replays_on_its_seed():
    process = subprocess.run(
        [sys.executable, "-m", "foursquare_cli", "replay", "opening.moves", "--seed", "5", "--format", "json"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=SAMPLES,
    )
    assert process.returncode == 0, process.stderr
    assert len(process.stdout.splitlines()) == 11  # ply 0 and ten moves
