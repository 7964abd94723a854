"""`compare --sprt` (issue 50): a sequential test that stops when it knows, with the error rates it promises, kept
in the results file so that a resumed run and `summarize` stop where the run stopped."""

from __future__ import annotations

import collections
import json
import random

import pytest
from conftest import in_process

from foursquare_cli.runs.sprt import FEWEST_DEALS, SprtSettings, SprtVerdict, decided_at, sprt_of


@pytest.mark.parametrize("spread", [1.0, pytest.param(3.0, marks=pytest.mark.slow)])
def test_the_test_keeps_its_error_rates_on_simulated_deals(spread):
    """Differences of score drawn from a normal law: with none, a player is called stronger at most alpha of the
    time (with room for the simulation's own noise); with one of `points`, it is missed at most beta of it."""
    settings = SprtSettings(points=0.5, alpha=0.05, beta=0.05)
    rng = random.Random(2026)
    for mean, wrong in (
        (0.0, {SprtVerdict.FIRST, SprtVerdict.SECOND}),
        (0.5, {SprtVerdict.NEITHER, SprtVerdict.SECOND}),
    ):
        found = collections.Counter(
            decided_at(settings, (rng.gauss(mean, spread) for _ in range(3000))).verdict for _ in range(300)
        )
        assert found[SprtVerdict.UNDECIDED] == 0 and sum(found[v] for v in wrong) <= 0.05 * 300 + 9, found


def test_it_decides_nothing_before_its_fewest_deals_and_then_by_walds_bounds():
    settings = SprtSettings(points=1.0, alpha=0.1, beta=0.1)
    assert sprt_of(settings, [5.0] * (FEWEST_DEALS - 1)).verdict is SprtVerdict.UNDECIDED
    strong = sprt_of(settings, [5.0] * FEWEST_DEALS)
    assert strong.verdict is SprtVerdict.FIRST and strong.first_ratio >= settings.bounds[1]
    assert sprt_of(settings, [-5.0] * FEWEST_DEALS).verdict is SprtVerdict.SECOND
    alike = sprt_of(settings, [0.0, 1.0, -1.0, 0.0] * 20)
    assert alike.verdict is SprtVerdict.NEITHER and max(alike.first_ratio, alike.second_ratio) <= settings.bounds[0]
    assert decided_at(settings, [5.0] * 100).deals == FEWEST_DEALS, "where it first decides"


def test_an_undecided_test_says_why_before_its_fewest_deals():
    from foursquare_cli.ui.runs_text import sprt_verdict

    early = sprt_of(SprtSettings(points=2), [10.0] * 8)
    assert early.verdict is SprtVerdict.UNDECIDED and early.first_ratio >= early.settings.bounds[1]  # past it
    said = sprt_verdict(early, "expert", "greedy")
    assert f"the test decides from {FEWEST_DEALS} deals on" in said and "more deals would tell" not in said
    later = sprt_of(SprtSettings(), [1.0, -1.0] * FEWEST_DEALS)
    assert later.verdict is SprtVerdict.UNDECIDED
    assert "more deals would tell (-n)." in sprt_verdict(later, "expert", "greedy")


def test_compare_sprt_stops_when_it_knows_and_its_results_file_stops_there_again(tmp_path):
    """greedy against random: the test decides long before -n, says which way and by how much; the results file
    holds the test and the games up to there, and a rerun and summarize give the same verdict."""
    results = tmp_path / "r.jsonl"
    ran = in_process("compare", "greedy", "random", "-n", "3000", "--sprt", "--results", str(results), "-f", "json")
    assert ran.returncode == 0, ran.stderr
    said = json.loads(ran.stdout)
    test = said["sprt"]
    assert test["verdict"] == "first" and FEWEST_DEALS <= test["deals"] < 3000
    assert said["players"][0]["games"] == test["deals"], "the deals after the decision are not played"
    header, *games = [json.loads(line) for line in results.read_text().splitlines()]
    assert header["sprt"] == {"points": 0.5, "alpha": 0.05, "beta": 0.05} and header["foursquare_results"] == 3
    import jsonschema

    schema = json.loads(in_process("schema", "results-plan", "-f", "json").stdout)
    assert jsonschema.Draft202012Validator(schema).is_valid(header)
    assert len(games) == 2 * test["deals"]
    again = in_process("compare", "greedy", "random", "-n", "3000", "--sprt", "--results", str(results), "-f", "json")
    summed = in_process("summarize", str(results), "-f", "json")
    assert json.loads(again.stdout)["sprt"] == test == json.loads(summed.stdout)["sprt"]
    assert json.loads(summed.stdout)["complete"] is True, "a run the test stopped is complete: no deal is missing"
    assert "missing" not in json.loads(summed.stdout)["players"][0]
    assert "issing" not in in_process("summarize", str(results)).stdout
    text = in_process("compare", "greedy", "random", "-n", "3000", "--sprt", COLUMNS="60")
    assert f"after {test['deals']} deals, greedy is stronger than random by" in " ".join(text.stdout.split())


def test_the_test_is_not_split_into_shards():
    """Each shard would stop on a test of its own deals: one run's test is over all of them, so --shard is refused."""
    refused = in_process("compare", "greedy", "random", "-n", "40", "--sprt", "--shard", "1/2")
    assert refused.returncode == 2 and refused.stdout == "" and refused.stderr.count("\n") == 1
    assert refused.stderr.startswith("foursquare compare: --sprt is one test over the deals in order")


def test_one_player_under_two_settings_and_a_table_of_short_names_within_60_columns():
    """Issue 50: the same player twice under other settings; the table by short names (a letter for a long one),
    each whole name once below it, every line within 60 columns."""
    result = in_process(
        "compare", "fast=expert:playouts=30", "expert:playouts=60,second_ply=0", "greedy", "-n", "2", COLUMNS="60"
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 60
    assert "  fast = expert:playouts=30" in lines and "  A = expert:playouts=60,second_ply=0" in lines
    assert any(line.startswith("  A ") for line in lines) and any(line.startswith("  fast ") for line in lines)
    assert in_process("compare", "expert", "expert:playouts=20", "--sprt", "greedy", "-n", "2").returncode == 2


@pytest.mark.parametrize(
    "options, said",
    [
        (["--sprt", "--sprt-alpha", "nan"], "Invalid value for '--sprt-alpha': 'nan': an error rate is a number"),
        (["--sprt", "--sprt-beta", "nan"], "Invalid value for '--sprt-beta': 'nan': an error rate is a number"),
        (["--sprt", "--sprt-points", "nan"], "Invalid value for '--sprt-points': 'nan': the difference is a number"),
        (["--sprt", "--sprt-points", "inf"], "Invalid value for '--sprt-points': 'inf': the difference is a number"),
        (["--sprt", "--sprt-alpha", "-inf"], "Invalid value for '--sprt-alpha': '-inf': an error rate is a number"),
        (["--sprt-points", "3"], "--sprt-points goes with --sprt, the sequential test; give --sprt, or leave it out"),
        (["--sprt-alpha", "0.1", "--sprt-beta", "0.1"], "--sprt-alpha, --sprt-beta go with --sprt"),
    ],
)
def test_a_test_setting_that_is_no_number_or_without_sprt_is_a_usage_error_in_one_line(options, said):
    """NaN passed click's ranges (it is neither below nor above a bound) and ran a test at alpha nan%; the
    settings of the test without --sprt were silently ignored. Both are usage errors, one line, nothing played."""
    result = in_process("compare", "greedy", "random", "-n", "2", *options)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and said in result.stderr, result.stderr


def test_the_tests_settings_given_are_the_tests_settings_kept(tmp_path):
    results = tmp_path / "sprt.jsonl"
    options = ["--sprt", "--sprt-points", "2", "--sprt-beta", "0.1", "--results", str(results)]
    assert in_process("compare", "greedy", "random", "-n", "2", *options).returncode == 0
    header = json.loads(results.read_text().splitlines()[0])
    assert header["sprt"] == {"points": 2.0, "alpha": 0.05, "beta": 0.1}


def test_a_sequential_run_resumed_says_what_its_file_holds_without_a_count_to_go(tmp_path):
    """It stops when it knows, so 'of 80 games; playing the rest' would promise what it may not play."""
    path = tmp_path / "run.jsonl"
    arguments = ["compare", "greedy", "random", "--sprt", "-n", "40", "--results", str(path)]
    assert in_process(*arguments).returncode == 0
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:9]))  # the plan and four deals
    again = in_process(*arguments)
    assert again.returncode == 0
    assert (
        again.stderr == f"foursquare compare: {path} holds 8 games of this run; the sequential test goes on from them\n"
    )
