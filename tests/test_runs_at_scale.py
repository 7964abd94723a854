"""Runs past one machine (issue 23): results as data, resumed after a kill, sharded and merged; a Dask cluster
(the `cluster` extra) giving the figures of `--jobs 1`, surviving a lost worker."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from foursquare_cli.cli import app

TOOL = [sys.executable, "-m", "foursquare_cli"]
runner = CliRunner()
TIMINGS = ("seconds_per_move", "median_seconds_per_move", "games_per_second")


def figures(text: str) -> dict:
    """A run's JSON without its timings, which no two runs share."""
    value = json.loads(text)
    for summary in value.get("players", [value]):
        for key in TIMINGS:
            summary.pop(key, None)
    return value


def test_results_are_kept_game_by_game_and_the_same_file_resumes(tmp_path):
    results = tmp_path / "r.jsonl"
    whole = runner.invoke(app, ["stats", "-n", "40", "-p", "greedy", "-f", "json"])
    first = runner.invoke(app, ["stats", "-n", "40", "-p", "greedy", "-f", "json", "--results", str(results)])
    lines = results.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["foursquare_results"] == 2 and header["players"] == ["greedy"] and len(lines) == 41
    assert header["sealed"] is False
    assert set(json.loads(lines[1])) == {
        "player",
        "deal",
        "seed",
        "won",
        "score",
        "moves",
        "played",
        "move_seconds",
        "seconds_per_move",
        "forfeit",
    }
    # a kill that cut the file after 25 games, the last one mid-line: the rest is played again, nothing twice
    results.write_text("\n".join(lines[:26]) + "\n" + lines[26][:30])
    again = runner.invoke(app, ["stats", "-n", "40", "-p", "greedy", "-f", "json", "--results", str(results)])
    assert figures(again.stdout) == figures(first.stdout) == figures(whole.stdout)
    assert len(results.read_text().splitlines()) == 41
    other = runner.invoke(app, ["stats", "-n", "40", "-p", "greedy", "--player-seed", "3", "--results", str(results)])
    assert other.exit_code == 2
    assert other.stderr == f"{results}: holds another run (player_seed differ); give another file to start a new one\n"


@pytest.mark.slow
@pytest.mark.posix
def test_a_run_killed_with_kill_9_loses_only_the_games_in_flight(tmp_path):
    results = tmp_path / "r.jsonl"
    command = [*TOOL, "stats", "-n", "12", "--start", "300", "-p", "expert", "--playouts", "120", "-f", "json"]
    process = subprocess.Popen([*command, "--results", str(results)], stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while (not results.exists() or len(results.read_text().splitlines()) < 4) and time.monotonic() < deadline:
        time.sleep(0.05)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    kept = len(results.read_text().splitlines()) - 1
    assert 3 <= kept < 12
    resumed = subprocess.run([*command, "--results", str(results)], capture_output=True, text=True, timeout=300)
    whole = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert figures(resumed.stdout) == figures(whole.stdout)


def test_shards_merged_print_what_one_run_prints(tmp_path):
    for command, players in (("stats", ["-p", "greedy"]), ("compare", ["greedy", "random"])):
        files = [str(tmp_path / f"{command}{index}.jsonl") for index in (1, 2, 3)]
        for index, path in enumerate(files, start=1):
            shard = runner.invoke(app, [command, *players, "-n", "30", "--shard", f"{index}/3", "--results", path])
            assert shard.exit_code == 0, shard.stderr
        one = runner.invoke(app, [command, *players, "-n", "30", "-f", "json"])
        merged = runner.invoke(app, ["summarize", *files, "-f", "json"])
        assert merged.exit_code == 0, merged.stderr
        assert figures(merged.stdout) == figures(one.stdout)
        text = runner.invoke(app, ["summarize", *files]).stdout
        assert text.splitlines()[0] == runner.invoke(app, [command, *players, "-n", "30"]).stdout.splitlines()[0]
    twice = runner.invoke(app, ["summarize", files[0], files[0]])
    assert twice.exit_code == 2 and twice.stderr == f"{files[0]}: given twice; give each file once\n"
    os.link(files[0], tmp_path / "linked.jsonl")
    linked = runner.invoke(app, ["summarize", files[0], str(tmp_path / "linked.jsonl")])
    assert linked.exit_code == 2 and f"the same file as {files[0]}; give each file once" in linked.stderr
    shutil.copy(files[0], tmp_path / "copy.jsonl")
    overlapping = runner.invoke(app, ["summarize", files[0], str(tmp_path / "copy.jsonl")])
    assert overlapping.exit_code == 2 and "is in an earlier file too: the files overlap" in overlapping.stderr
    mismatched = runner.invoke(app, ["summarize", str(tmp_path / "stats1.jsonl"), files[1]])
    assert mismatched.exit_code == 2 and "another plan than" in mismatched.stderr
    assert runner.invoke(app, ["stats", "-n", "3", "--shard", "4/3"]).exit_code == 2


def test_without_the_extra_a_cluster_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    result = runner.invoke(app, ["stats", "-n", "3", "-p", "greedy", "--cluster", "tcp://127.0.0.1:9"])
    assert result.exit_code == 2
    assert result.stderr == "foursquare stats: --cluster needs Dask distributed: pip install -e '.[cluster]'\n"


# -- a real cluster -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
    ) as local:
        yield local


@pytest.mark.slow
def test_a_cluster_gives_the_figures_of_one_process(cluster):
    address = cluster.scheduler_address
    for arguments in (["stats", "-p", "greedy", "-n", "120"], ["compare", "greedy", "random", "-n", "60"]):
        here = runner.invoke(app, [*arguments, "-f", "json"])
        two = subprocess.run([*TOOL, *arguments, "-f", "json", "--jobs", "2"], capture_output=True, text=True)
        there = subprocess.run([*TOOL, *arguments, "-f", "json", "--cluster", address], capture_output=True, text=True)
        assert there.returncode == 0, there.stderr
        assert figures(there.stdout) == figures(here.stdout) == figures(two.stdout)


@pytest.mark.slow
@pytest.mark.posix
def test_a_worker_killed_mid_run_changes_nothing(cluster):
    address = cluster.scheduler_address
    arguments = ["stats", "-p", "expert", "--playouts", "60", "-n", "40", "--start", "500", "-f", "json"]
    run = subprocess.Popen([*TOOL, *arguments, "--cluster", address], stdout=subprocess.PIPE, text=True)
    time.sleep(3)
    workers = list(cluster.workers.values())
    pid = workers[0].process.pid
    os.kill(pid, signal.SIGKILL)
    out, _ = run.communicate(timeout=300)
    assert run.returncode == 0
    assert figures(out) == figures(runner.invoke(app, arguments).stdout)


@pytest.mark.slow
@pytest.mark.posix
def test_a_player_missing_on_the_workers_is_one_line(cluster, tmp_path):
    # The program is on the PATH of the tool (which checks it first) and not on the workers' PATH.
    (tmp_path / "lonelybot").write_text(f"#!{sys.executable}\n")
    (tmp_path / "lonelybot").chmod(0o755)
    result = subprocess.run(
        [*TOOL, "stats", "-n", "2", "-p", "cmd:lonelybot", "--cluster", cluster.scheduler_address],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PATH=f"{tmp_path}{os.pathsep}{os.environ['PATH']}"),
    )
    assert result.returncode == 2
    assert "cmd:lonelybot: the program is not on worker tcp://127.0.0.1:" in result.stderr


@pytest.mark.slow
def test_a_scheduler_and_a_worker_started_as_a_user_would(tmp_path):
    pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")
    from conftest import dask_scheduler, dask_worker

    arguments = ["stats", "-p", "greedy", "-n", "60", "-f", "json"]
    with dask_scheduler(tmp_path) as (_, address), dask_worker(address):
        there = subprocess.run([*TOOL, *arguments, "--cluster", address], capture_output=True, text=True)
    assert there.returncode == 0, there.stderr
    assert figures(there.stdout) == figures(runner.invoke(app, arguments).stdout)


@pytest.mark.slow
def test_analyze_keeps_each_files_summary_and_skips_the_files_already_there(tmp_path):
    from pathlib import Path

    samples = Path(__file__).resolve().parent.parent / "samples"
    results = tmp_path / "a.jsonl"
    budget = ["--playouts", "30", "--solve-budget", "500", "--results", str(results)]
    first = runner.invoke(app, ["analyze", str(samples / "won.yaml"), *budget])
    assert first.exit_code == 0
    again = runner.invoke(app, ["analyze", str(samples / "won.yaml"), str(samples / "lost.yaml"), *budget])
    assert again.stderr == f"{samples / 'won.yaml'}: analysed already, in {results}\n"
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert lines[0]["command"] == "analyze" and [line["path"] for line in lines[1:]] == [
        str(samples / "won.yaml"),
        str(samples / "lost.yaml"),
    ]
    assert lines[1]["type"] == "summary" and lines[2]["status"] == "lost"
    other = runner.invoke(app, ["analyze", str(samples / "won.yaml"), "--playouts", "31", "--results", str(results)])
    assert other.exit_code == 2 and "holds another run (playouts, solve_budget differ)" in other.stderr
