"""Every command's output on a fixed corpus, held to golden files: what the tool prints may change only on purpose.

The corpus is the samples, twenty deals, piped games, the history they leave, and each `--format` of every
command that has one. Each case runs in-process (typer's CliRunner) with its own data folder, no settings
file, no colour and 100 columns; what varies from run to run (the time a move took, the date, the temporary
folder) is replaced by a placeholder before the comparison, and nothing else is.

A change that means to change an output rewrites the files with `FOURSQUARE_GOLDEN=update pytest
tests/test_golden.py`; the diff of `tests/golden/` is then the change a reviewer reads.
"""

from __future__ import annotations

import os
import pathlib
import re
import sys

import pytest
from typer.testing import CliRunner

from foursquare_cli.cli import app
from foursquare_cli.cli.app import COMMAND_ORDER

ROOT = pathlib.Path(__file__).resolve().parent.parent
GOLDEN = pathlib.Path(__file__).resolve().parent / "golden"
SAMPLES = ROOT / "samples"
UPDATE = os.environ.get("FOURSQUARE_GOLDEN") == "update"

PIPED_42 = "B2\nC2\nD2\n# a comment\nA2\nundo\nA2\nB1\nshift down\nB1\nquit\n"
PIPED_ILLEGAL = "B2\nA4\n"
PIPED_TO_THE_END = (
    "\n".join(["A1", "A1 top", "A1 top", "A1 top", "B1", "A2", "B1 top", "B1 top", "B1 top", "A2 top", "C1", "D1"])
    + "\n"
)

INVALID = sorted(path.name for path in (SAMPLES / "invalid").glob("*.yaml"))
COMMANDS = COMMAND_ORDER  # every command's help, in the order `--help` lists them (the `help` case pins that list)

# name: (arguments, standard input); `{tmp}` is the case's own folder
CASES: dict[str, tuple[list[str], str]] = {
    "help": (["--help"], ""),
    **{f"help-{command}": ([command, "--help"], "") for command in COMMANDS},
    "rules": (["rules"], ""),
    "config": (["config"], ""),
    "schema-list": (["schema"], ""),
    "schema-state": (["schema", "state"], ""),
    "completion-bash": (["completion", "bash"], ""),
    **{f"deal-{seed}": (["deal", "--seed", str(seed)], "") for seed in range(20)},
    "deal-unicode": (["deal", "--seed", "42", "--unicode"], ""),
    **{f"replay-{name}": (["replay", f"samples/{name}.yaml"], "") for name in ("won", "lost", "unfinished")},
    **{
        f"replay-{name}-json": (["replay", f"samples/{name}.yaml", "--format", "json"], "")
        for name in ("won", "lost", "unfinished")
    },
    "replay-lost-reveal-unicode": (["replay", "samples/lost.yaml", "--reveal", "--unicode"], ""),
    "replay-log": (["replay", "samples/opening.moves", "--seed", "5"], ""),
    "replay-log-no-deal": (["replay", "samples/opening.moves"], ""),
    "replay-illegal": (["replay", "samples/invalid/illegal-move.yaml"], ""),
    "check-samples": (["check", "samples/won.yaml", "samples/lost.yaml", "samples/unfinished.yaml"], ""),
    "check-samples-json": (
        ["check", "samples/won.yaml", "samples/lost.yaml", "samples/unfinished.yaml", "--format", "json"],
        "",
    ),
    "check-invalid": (["check", *(f"samples/invalid/{name}" for name in INVALID)], ""),
    "check-invalid-json": (["check", *(f"samples/invalid/{name}" for name in INVALID), "--format", "json"], ""),
    "check-missing": (["check", "samples/no-such-file.yaml"], ""),
    "hint": (["hint", "samples/unfinished.yaml", "--playouts", "200"], ""),
    "hint-detail": (["hint", "samples/unfinished.yaml", "--playouts", "200", "--detail"], ""),
    "hint-json": (["hint", "samples/unfinished.yaml", "--playouts", "200", "--format", "json"], ""),
    "hint-greedy": (["hint", "samples/unfinished.yaml", "--player", "greedy"], ""),
    "hint-over": (["hint", "samples/won.yaml"], ""),
    **{f"solve-{seed}": (["solve", "--seed", str(seed), "--budget", "20000"], "") for seed in range(3)},
    "solve-json": (["solve", "--seed", "1", "--budget", "20000", "--format", "json"], ""),
    **{
        f"auto-greedy-{seed}": (["auto", "--seed", str(seed), "--player", "greedy", "--format", "json"], "")
        for seed in range(20)
    },
    "auto-random": (["auto", "--seed", "4", "--player", "random", "--player-seed", "3"], ""),
    "auto-expert": (["auto", "--seed", "3", "--player", "expert", "--playouts", "100"], ""),
    "stats": (["stats", "--games", "20", "--player", "greedy"], ""),
    "stats-json": (["stats", "--games", "20", "--player", "greedy", "--format", "json"], ""),
    "stats-shard": (["stats", "--games", "20", "--player", "random", "--shard", "2/3"], ""),
    "compare": (["compare", "greedy", "random", "--games", "20"], ""),
    "compare-json": (["compare", "greedy", "random", "--games", "20", "--format", "json"], ""),
    "summarize": (["stats", "--games", "20", "--player", "greedy", "--results", "{tmp}/run.jsonl"], ""),
    "analyze": (["analyze", "samples/lost.yaml", "--playouts", "100", "--solve-budget", "20000"], ""),
    "analyze-json": (
        ["analyze", "samples/lost.yaml", "--playouts", "100", "--solve-budget", "20000", "--format", "json"],
        "",
    ),
    "play-piped": (["play", "--seed", "42"], PIPED_42),
    "play-piped-json": (["play", "--seed", "42", "--format", "json"], PIPED_42),
    "play-piped-illegal": (["play", "--seed", "42", "--no-record"], PIPED_ILLEGAL),
    "play-piped-to-the-end": (["play", "--seed", "7", "--record", "{tmp}/seven.yaml"], PIPED_TO_THE_END),
    "play-resume": (["play", "--resume", "samples/unfinished.yaml", "--no-record"], "D2\nquit\n"),
}
# cases that run after another in the same folder: (first case's run, then these arguments)
FOLLOW_UPS = {
    "summarize": [["summarize", "{tmp}/run.jsonl"], ["summarize", "{tmp}/run.jsonl", "--format", "json"]],
    "play-piped": [["history"], ["history", "--format", "json"], ["history", "--format", "csv"]],
    "play-piped-to-the-end": [["check", "{tmp}/seven.yaml"], ["replay", "{tmp}/seven.yaml", "--format", "json"]],
}

DATE_AND_TIME = r"\d{4}-\d{2}-\d{2}[T ]\d{2}[:-]\d{2}([:-]\d{2})?Z?"  # when a game began, a history's row

_VARYING = [
    (re.compile(r"mean [0-9.]+ ms, median [0-9.]+ ms; [0-9.]+ games/s"), "mean <MS> ms, median <MS> ms; <N> games/s"),
    (re.compile(r'"(seconds_per_move|median_seconds_per_move|games_per_second|seconds)":[0-9.e-]+'), r'"\1":<S>'),
    (re.compile(r'"move_seconds":\[[0-9.e,-]*\]'), '"move_seconds":[<S>]'),
    (re.compile(r"(positions in )[0-9.]+ s"), r"\1<S> s"),
    (re.compile(r"( +)([0-9]+\.[0-9]{2})( +)([0-9]+\.[0-9]{2})(  (none|[0-9]+ x ))"), r"\1<S>\3<MS>\5"),
    (re.compile(DATE_AND_TIME), "<TIME>"),
    (re.compile(r"^(  \S+ +\d+/\d+ +[0-9.]+-[0-9.]+% +\S+ +[0-9.]+ +)[0-9.]+$", re.M), r"\1<MS>"),  # compare's ms/move
]


def normalized(text: str, tmp: str) -> str:
    text = text.replace(tmp, "<TMP>")
    for pattern, replacement in _VARYING:
        text = pattern.sub(replacement, text)
    return text


def _run(arguments: list[str], stdin: str, tmp: str) -> str:
    result = CliRunner().invoke(
        app, [argument.replace("{tmp}", tmp) for argument in arguments], input=stdin, prog_name="foursquare"
    )
    said = f"$ foursquare {' '.join(arguments)}\nexit {result.exit_code}\n"
    return said + f"--- stdout\n{result.stdout}--- stderr\n{result.stderr}"


WIDTH = 100  # the terminal's columns in every case


def wider_than_the_terminal(tmp_path: pathlib.Path) -> pathlib.Path:
    """The case's folder, its path made longer than a line: a path is never broken, so a line that names it
    wraps by the path's length; a path wider than the terminal always takes a line of its own, so the text
    is the same for every user, `TMPDIR` and system (a short one would fit or not by the user's name)."""
    padded = tmp_path / ("p" * max(1, WIDTH + 1 - len(str(tmp_path))))
    padded.mkdir()
    return padded


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_output_is_the_golden_one(name, tmp_path, monkeypatch):
    tmp_path = wider_than_the_terminal(tmp_path)
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(tmp_path / "no-settings.toml"))
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    arguments, stdin = CASES[name]
    runs = [_run(arguments, stdin, str(tmp_path))]
    runs += [_run(follow_up, "", str(tmp_path)) for follow_up in FOLLOW_UPS.get(name, [])]
    got = normalized("\n".join(runs), str(tmp_path))
    path = GOLDEN / f"{name}.txt"
    if UPDATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(got, encoding="utf-8")
    assert path.exists(), f"no golden file for {name}: run with FOURSQUARE_GOLDEN=update"
    assert got == path.read_text(encoding="utf-8")


def test_the_placeholders_hide_only_what_varies():
    """The normalization never swallows a figure that means something: a score, a count, a deal."""
    line = "won 12 of 20: 60.0% (95% interval 38.7% to 78.1%)"
    assert normalized(line, "/nowhere") == line
    assert normalized("Searched 1,234 positions in 0.4 s.", "/t") == "Searched 1,234 positions in <S> s."
    assert normalized('{"score":7,"seconds_per_move":0.0001}', "/t") == '{"score":7,"seconds_per_move":<S>}'


def test_every_golden_file_has_its_case():
    assert sorted(path.stem for path in GOLDEN.glob("*.txt")) == sorted(CASES)
