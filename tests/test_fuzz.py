"""The fuzzing harnesses (fuzz/, docs/development.md "Fuzzing") hold on a short seeded run, and what the campaign
found stays fixed.

With atheris installed (the `fuzz` extra) each harness runs under it for a few hundred inputs with a fixed seed,
in one subprocess (each harness forked after the instrumentation, paid once); without it the same harness
functions are fed their seed corpus and a few hundred inputs made from it by `random.Random` mutations. Either
way an input a reader answers with anything but the tool's own errors fails the test.
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import re
import subprocess
import sys

import pytest

from foursquare_cli.formats.records import check_record
from foursquare_cli.formats.source import read_source
from foursquare_cli.players.futures import EXPERTS_VALUATION, worth_tables
from foursquare_cli.rules import playout

ROOT = pathlib.Path(__file__).resolve().parent.parent  # fuzz/ is beside the tests (the wheels' run names its files)
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from fuzz import harnesses, mutate  # noqa: E402 - fuzz/ is found from the tree, not installed
from fuzz.table import HARNESSES  # noqa: E402

ATHERIS = importlib.util.find_spec("atheris") is not None
INPUTS = 200  # a harness: a few hundred inputs, the whole run some 2 s of CPU
GUIDED = [name for name, harness in HARNESSES.items() if not harness.asan]


@pytest.mark.skipif(not ATHERIS, reason="atheris is not installed (the fuzz extra); the test below runs instead")
def test_every_harness_holds_for_a_few_hundred_inputs_under_atheris(tmp_path):
    command = [sys.executable, "-m", "fuzz.atheris_main", ",".join(GUIDED), "--work", str(tmp_path)]
    command += [f"-atheris_runs={INPUTS}", "-seed=1", "-timeout=60"]
    environment = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(command, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said[-4000:]
    for name in GUIDED:
        assert f"fuzz: harness {name} exited 0" in said, said[-4000:]
    assert re.findall(r"^Done (\d+) in", said, re.MULTILINE) == [str(INPUTS)] * len(GUIDED)
    assert not [path for path in (tmp_path / "crashes").rglob("*") if path.is_file()]


@pytest.mark.skipif(ATHERIS, reason="atheris is installed: the harnesses run under it (the test above)")
@pytest.mark.parametrize("name", GUIDED)
def test_every_harness_holds_for_its_corpus_and_mutations_of_it(name):
    harness = HARNESSES[name]
    function = harness.load()
    for data in mutate.inputs(name, INPUTS, seed=1, max_len=harness.max_len):
        function(data)  # anything but the tool's own errors (which the harness takes) fails the test


def test_the_mutations_are_the_same_for_a_seed_and_keep_to_the_bound():
    first = list(mutate.inputs("records", 50, seed=3, max_len=300))
    assert first == list(mutate.inputs("records", 50, seed=3, max_len=300))
    assert first != list(mutate.inputs("records", 50, seed=4, max_len=300))
    assert all(len(data) <= 300 for data in first[len(mutate.seeds("records")) :])


def test_every_seed_corpus_is_small_and_every_harness_has_one():
    for name, harness in HARNESSES.items():
        files = [path for path in (mutate.CORPUS / harness.function).iterdir() if path.is_file()]
        assert 3 <= len(files) <= 12, name
        assert all(path.stat().st_size <= harness.max_len for path in files), name


def test_the_state_that_once_hung_is_refused_at_once_and_no_issue_is_known():
    """Found by the protocol harness: an `unseen` count of 2**63 made state_from_protocol count to it."""
    hang = (mutate.CORPUS / "protocol" / "known-hang-unseen-count").read_bytes()
    harnesses.protocol(hang)  # refused with ValueError, which the harness accepts; anything else would raise
    assert harnesses.KNOWN == {}


# -- what the campaign found ------------------------------------------------------------------------------------


def test_a_yaml_date_that_is_no_date_is_a_problem_of_the_record_with_its_line():
    """Found by the records harness: `meta: {started: 2024-05-00T10:00:00Z}` made PyYAML's constructor raise
    ValueError (day is out of range for month), and `check` exit 70 with a crash log; `!!bool maybe` a KeyError,
    `!!int +` an IndexError."""
    data = (mutate.CORPUS / "records" / "crash-day-out-of-range.yaml").read_bytes()
    verdict = check_record(read_source("found.yaml", data))
    assert [problem.located("found.yaml") for problem in verdict.problems] == [
        "found.yaml:7: '2024-05-00T10:00:00Z' cannot be read as a date (day is out of range for month)"
    ]
    for text, said in [
        ("foursquare: 1\nseed: 3\nmoves: []\nmeta: {day: 2024-02-30}\n", "4: '2024-02-30' cannot be read as a date"),
        ("foursquare: 1\nseed: !!bool maybe\nmoves: []\n", "2: 'maybe' cannot be read as true or false"),
        ("- B2\n- !!int +\n", "2: '+' cannot be read as a whole number"),
    ]:
        problems = check_record(read_source("x.yaml", text.encode())).problems
        assert [problem.located("x.yaml") for problem in problems][0].startswith(f"x.yaml:{said}"), problems


@pytest.mark.skipif(playout.reply_in_c is None, reason="the C playouts were not built")
def test_the_c_search_refuses_a_grid_of_more_cards_than_were_drawn():
    """Found by the playout harness under ASan: `reply` (and `futures`) took a grid holding more cards than were
    drawn, so a win scored past 24 and read beyond `won_worth` (a stack-buffer-overflow); a full grid of piles of
    4 left the search no move, and it read its candidates uninitialised (a segmentation fault)."""
    won, lost = worth_tables(EXPERTS_VALUATION)
    assert playout._reply_c is not None and playout._futures_c is not None

    def reply(occupied: int, drawn: int, heights: list[int]) -> object:
        unseen = bytes([1] * (39 - drawn))
        return playout._reply_c(
            occupied, 0, drawn, bytes([5] * 16), bytes(heights), 3, unseen, 10, True, won, lost, 0, 1
        )

    for occupied, drawn, heights in [
        (0xFFFF, 20, [4] * 16),  # a full grid of piles of 4 (64 cards), 20 drawn: no move to search
        (0xFFFF, 2, [1] * 16),  # a full grid, 2 cards drawn: a win would score 37
        (0b11, 1, [1] + [0] * 15),  # an occupied cell with no card
    ]:
        with pytest.raises(ValueError, match="reply: not a position being played"):
            reply(occupied, drawn, heights)
    assert reply(0xFFFF, 16, [1] * 16) is not None  # the first full grid a game can reach
    start = bytes([0, 0, 0]) + (0xFFFF).to_bytes(2, "little") + bytes(2) + bytes([5] * 16) + bytes([1] * 16)
    with pytest.raises(ValueError, match="futures: a candidate"):  # a full grid with no card drawn: a win of 39
        playout._futures_c(b"", bytes([5] * 40), 1, 0, 1, start, False, won, lost)
    harnesses.playout((mutate.CORPUS / "playout" / "crash-reply-scores-past-24").read_bytes())


@pytest.mark.slow
@pytest.mark.skipif(not ATHERIS, reason="atheris is not installed (the fuzz extra)")
def test_the_campaign_runs_every_harness_and_says_what_it_reached(tmp_path):
    """`python -m fuzz`, a short campaign: one line a harness (inputs, coverage, crashes), none crashing, and
    WORK/summary.json; the ASan run where gcc has libasan."""
    command = [sys.executable, "-m", "fuzz", "--runs", "3000", "--work", str(tmp_path)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    assert done.returncode == 0, done.stdout + done.stderr[-4000:]
    for name in HARNESSES:
        line = next(line for line in done.stdout.splitlines() if line.startswith(f"{name} "))
        assert re.search(r" 3,000 inputs .* 0 crashes", line) or "skipped" in line, line
    assert "0 kinds of crash" in done.stdout
    assert (tmp_path / "summary.json").exists()
