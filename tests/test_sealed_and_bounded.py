"""Trust, round five (issue 43): a sealed result is proof (lockstep play, seeds that prove themselves, a memory
kept private), numbers that are bounded or streamed, signals that say so, commands quoted for their shell,
results files locked by what they are, and a history that touches only its own database."""

from __future__ import annotations

import itertools
import json
import os
import pathlib
import signal
import sqlite3
import subprocess
import sys
import time

import pexpect
import pytest
from conftest import in_process, spawn_play
from typer.testing import CliRunner

from foursquare_cli.cli import app

ROOT = pathlib.Path(__file__).resolve().parent.parent
TOOL = [sys.executable, "-m", "foursquare_cli"]
runner = CliRunner()


# -- 1. a sealed run is proof of a fair run ---------------------------------------------------------------

CARD_LOGGER = """
import json, sys
log = open(sys.argv[1], "a")
for line in sys.stdin:
    state = json.loads(line)
    dealt = 40 - state["stock"] + (state["status"] == "playing")  # the cards dealt it so far, the one in hand too
    log.write(f"{sys.argv[2]} {state['ply']} {dealt} {state['status']}\\n"); log.flush()
    if state["status"] == "playing":
        print([move for move in state["legal"] if not move.startswith("shift")][0], flush=True)
"""


def test_in_a_sealed_compare_no_player_is_dealt_a_card_before_the_others_were_dealt_the_one_before(tmp_path):
    """Two programs write down, in one file, each state they are sent as it comes: whenever one is dealt its
    card k + 1 of a deal, the other has been dealt its card k of that deal already, or has finished it; so
    what one could pass on, the other already holds. (Played one after the other, they would not be.)"""
    bot, log = tmp_path / "logger.py", tmp_path / "dealt.txt"
    bot.write_text(CARD_LOGGER)
    players = [f"cmd:{sys.executable} {bot} {log} {name}" for name in ("a", "b")]
    result = runner.invoke(app, ["compare", *players, "-n", "3", "--sealed", "--move-time", "5"])
    assert result.exit_code == 0, result.stderr
    game = {"a": -1, "b": -1}
    dealt: dict[tuple[str, int], int] = {}
    over: set[tuple[str, int]] = set()
    checked = 0
    for line in log.read_text().splitlines():
        name, ply, count, status = line.split()
        other = "b" if name == "a" else "a"
        if ply == "0":
            game[name] += 1
        deal = game[name]
        dealt[(name, deal)] = int(count)
        if status != "playing":
            over.add((name, deal))
        elif int(count) >= 2:
            assert (other, deal) in over or dealt.get((other, deal), 0) >= int(count) - 1, line
            checked += 1
    assert game == {"a": 2, "b": 2} and checked > 20


def _sealed_compare(tmp_path: pathlib.Path, name: str) -> list[str]:
    results = tmp_path / name
    result = runner.invoke(app, ["compare", "greedy", "random", "-n", "1", "--sealed", "--results", str(results)])
    assert result.exit_code == 0, result.stderr
    return results.read_text().splitlines()


def test_a_sealed_file_proves_its_sealing_or_is_refused_at_file_and_line(tmp_path):
    first, second = _sealed_compare(tmp_path, "one.jsonl"), _sealed_compare(tmp_path, "two.jsonl")
    mixed = tmp_path / "mixed.jsonl"  # one player's line of one sealed run, the other's of another
    mixed.write_text("\n".join([first[0], first[1], second[2]]) + "\n")
    said = runner.invoke(app, ["summarize", str(mixed)])
    assert said.exit_code == 1
    assert said.stderr.startswith(f"{mixed}:3: deal 0 of random: dealt from another seed than the deal's other")
    stats = tmp_path / "stats.jsonl"
    assert runner.invoke(app, ["stats", "-n", "3", "-p", "greedy", "--results", str(stats)]).exit_code == 0
    forged = tmp_path / "forged.jsonl"  # a public run whose header claims it was sealed
    lines = stats.read_text().splitlines()
    forged.write_text("\n".join([lines[0].replace('"sealed":false', '"sealed":true'), *lines[1:]]) + "\n")
    said = runner.invoke(app, ["summarize", str(forged)])
    assert said.exit_code == 1
    assert said.stderr == f"{forged}:2: deal 0 of greedy: sealed, but dealt from the deal's own public number\n"
    apart = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]  # two files, each one player's line of a deal
    apart[0].write_text("\n".join([first[0], first[1]]) + "\n")
    apart[1].write_text("\n".join([first[0], second[2]]) + "\n")
    said = runner.invoke(app, ["summarize", *map(str, apart)])
    assert said.exit_code != 0 and "dealt from another seed than its other players in an earlier file" in said.stderr


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_DUMPABLE is Linux's")
def test_the_process_that_holds_sealed_seeds_is_not_dumpable_on_linux():
    code = (
        "import ctypes; from foursquare_cli.runs.run import keep_memory_private; libc = ctypes.CDLL(None); "
        "before = libc.prctl(3, 0, 0, 0, 0); keep_memory_private(); "
        "print(before, libc.prctl(3, 0, 0, 0, 0))"
    )
    said = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert said.stdout.split() == ["1", "0"], said.stderr  # PR_GET_DUMPABLE: dumpable, then not


def test_a_sealed_run_keeps_its_memory_private_and_a_public_one_does_not_need_to(monkeypatch):
    from foursquare_cli.runs import run

    calls = []
    setups = []
    monkeypatch.setattr(run, "keep_memory_private", lambda: calls.append(True))
    real_run_in_order = run.run_in_order
    monkeypatch.setattr(
        run, "run_in_order", lambda *a, **k: setups.append(k["worker_setup"]) or real_run_in_order(*a, **k)
    )
    assert runner.invoke(app, ["stats", "-n", "1", "-p", "greedy"]).exit_code == 0
    assert calls == [] and setups == [None]
    assert runner.invoke(app, ["stats", "-n", "1", "-p", "greedy", "--sealed"]).exit_code == 0
    assert calls, "the seeds are held by a process others cannot read"
    assert setups[1] is run.keep_memory_private, "and so are its worker processes, from their start"


def _dumpable(task: int) -> int:
    import ctypes

    return int(ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))  # PR_GET_DUMPABLE, in a worker process


@pytest.mark.slow  # a long multi-process run: CI's `-m slow` step
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_DUMPABLE is Linux's")
def test_the_worker_processes_of_a_sealed_run_are_private_before_their_first_seed():
    from foursquare_cli.runs.executor import run_in_order
    from foursquare_cli.runs.run import keep_memory_private

    assert set(run_in_order(_dumpable, [1, 2, 3, 4], jobs=2, worker_setup=keep_memory_private)) == {0}


# -- 2. every worker, every time (the rest, with a real cluster, in test_cluster_trust.py) --------------------


def test_a_cluster_batch_is_sized_by_time_so_a_lost_worker_costs_seconds():
    from foursquare_cli.runs.cluster import BATCH_SECONDS, MOST_IN_A_BATCH, next_batch_size

    assert BATCH_SECONDS <= 10, "a lost batch costs seconds, not minutes"
    assert next_batch_size(1, 150.0) == 1, "slow games (a strong expert): one a batch, never fifty"
    assert next_batch_size(4, 2.0) == round(BATCH_SECONDS * 2)
    assert next_batch_size(10, 0.001) == MOST_IN_A_BATCH, "quick games fill a batch up to the cap"
    assert next_batch_size(0, 0.0) == 1


# -- 5. bounded numbers, signals that say so, commands for the shell ------------------------------------


def test_a_run_of_a_hundred_billion_games_starts_at_once_and_lists_nothing():
    from foursquare_cli.players import PlayerSpec
    from foursquare_cli.runs.plans import DealRange, Plan
    from foursquare_cli.runs.run import play_plan

    plan = Plan("stats", (PlayerSpec("random"),), DealRange(0, 100_000_000_000))
    began = time.monotonic()
    first = list(itertools.islice(play_plan(plan), 5))
    assert [result.seed for result in first] == [0, 1, 2, 3, 4] and time.monotonic() - began < 5


def test_playouts_are_bounded_in_options_and_settings_and_a_huge_number_is_not_echoed(tmp_path):
    too_many = in_process("hint", str(ROOT / "samples" / "unfinished.yaml"), "--playouts", "9" * 5000)
    assert too_many.returncode == 2 and len(too_many.stderr) < 300 and too_many.stderr.count("\n") == 1
    above = in_process("stats", "-n", "1", "--playouts", "1000001")
    assert above.returncode == 2 and "1<=x<=1000000" in above.stderr
    settings = tmp_path / "config.toml"
    settings.write_text("playouts = 99999999999999999999\n")
    said = in_process("config", FOURSQUARE_CONFIG=str(settings))
    assert said.returncode == 2
    assert (
        said.stderr
        == f"foursquare config: {settings}:1: playouts: 99999999999999999999 is above 1000000, the largest budget\n"
    )
    settings.write_text("think = 2.0\nplayouts = " + "9" * 5000 + "\n")  # past what Python reads: it crashed
    said = in_process("config", FOURSQUARE_CONFIG=str(settings))
    assert said.returncode == 2
    assert said.stderr == f"foursquare config: {settings}:2: a number of thousands of digits; no setting is near it\n"


@pytest.mark.parametrize("shard", ["9" * 5000 + "/2", "1/" + "9" * 5000, "5/2", "0/3", "1/1000001", "１/2"])
def test_a_shard_past_its_bounds_is_one_line_whatever_its_digits(shard):
    said = in_process("stats", "-n", "4", "-p", "greedy", "--shard", shard)
    assert said.returncode == 2 and said.stderr.count("\n") == 1 and len(said.stderr) < 250, said.stderr
    assert "a shard is I/N, the I-th of N parts, 1 <= I <= N <= 1,000,000" in said.stderr


@pytest.mark.parametrize("option", ["--games", "--jobs", "--player-seed", "--move-time"])
def test_a_number_of_five_thousand_digits_is_echoed_short_with_its_quotes_and_length(option):
    said = in_process("stats", option, "9" * 5000)
    assert said.returncode == 2 and said.stderr.count("\n") == 1 and len(said.stderr) < 250, said.stderr
    assert "'999999999999999999999999999999'... (5,000 characters)" in said.stderr


@pytest.mark.posix
@pytest.mark.parametrize("sent", [signal.SIGTERM, pytest.param(signal.SIGHUP, marks=pytest.mark.slow)])
def test_sigterm_and_sighup_during_a_game_say_so_save_it_and_exit_143(tmp_path, sent):
    child = spawn_play("--seed", "9", "--record", "g.yaml", cwd=str(tmp_path))
    child.expect(r"Move 1, place \S+> ")
    child.sendline("B2")
    child.expect(r"Move 2, place \S+> ")
    time.sleep(0.2)
    child.kill(sent)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 143 and "Terminated. The game is saved in g.yaml" in child.before
    assert (tmp_path / "g.yaml").read_text().startswith("foursquare: 1\nseed: 9\nmoves:\n  - B2\n")


@pytest.mark.posix
def test_sigterm_during_any_command_is_one_line_and_143():
    process = subprocess.Popen([*TOOL, "check", "-"], stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)  # waiting on its input
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 143 and err == "foursquare check: terminated\n"


@pytest.mark.parametrize("name", ["game.yaml", "my game.yaml", "a\nb.yaml", "it's\there", "x\\y'z"])
def test_a_command_to_copy_names_a_file_as_the_shell_takes_it(name):
    from foursquare_cli.ui.fit import shell_word

    word = shell_word(name, platform="linux", shell="/bin/bash")
    assert word.isprintable(), "nothing that moves the cursor reaches the screen"
    echoed = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, timeout=30).stdout
    assert echoed == os.fsencode(name)
    assert shell_word(r"C:\My Games\g.yaml", platform="win32") == '"C:\\My Games\\g.yaml"'
    assert shell_word(r"C:\games\g.yaml", platform="win32") == r"C:\games\g.yaml"


def test_the_line_to_go_on_quotes_a_name_with_a_newline_for_the_shell(tmp_path):
    record = tmp_path / "a\nb.yaml"
    said = in_process("play", "--seed", "3", "--record", str(record), input="B2\n", SHELL="/bin/bash")
    line = [text for text in said.stdout.splitlines() + said.stderr.splitlines() if "--resume" in text][-1]
    word = line.split("--resume ", 1)[1]
    echoed = subprocess.run(["bash", "-c", f"printf %s {word}"], capture_output=True, timeout=30).stdout
    assert echoed == os.fsencode(str(record))


# -- 3. the file is the lock ------------------------------------------------------------------------------


def test_one_writer_per_results_file_whatever_path_names_it(tmp_path):
    from foursquare_cli.store.logs import JsonLinesLog, LogError

    results = tmp_path / "r.jsonl"
    (tmp_path / "link.jsonl").symlink_to(results)
    os.link(results, tmp_path / "hard.jsonl") if results.exists() else None
    with JsonLinesLog(str(results)):
        os.link(results, tmp_path / "hard.jsonl")
        for other in ("link.jsonl", "hard.jsonl"):
            with pytest.raises(LogError, match="another run is writing to this file"):
                JsonLinesLog(str(tmp_path / other))
    assert not list(tmp_path.glob(".*.lock")), "no lock file is made"


@pytest.mark.posix
def test_a_record_held_by_a_game_is_refused_through_a_hard_link_too(tmp_path):
    from foursquare_cli.store.files import RecordFile, UsageError

    record = tmp_path / "g.yaml"
    record.write_text("foursquare: 1\nseed: 3\nmoves:\n  - B2\n")
    os.link(record, tmp_path / "hard.yaml")
    (tmp_path / "link.yaml").symlink_to(record)
    with RecordFile(str(record), replace=True) as held:
        for other in ("hard.yaml", "link.yaml", "g.yaml"):
            with pytest.raises(UsageError, match="another game holds this record"):
                RecordFile(str(tmp_path / other), replace=True)
        held.write("foursquare: 1\nseed: 3\nmoves:\n  - B2\n  - B2 top\n")
        with pytest.raises(UsageError, match="another game holds this record"):
            RecordFile(str(tmp_path / "hard.yaml"), replace=True)
    with RecordFile(str(tmp_path / "hard.yaml"), replace=True):  # the game is over: free again
        pass
    assert not list(tmp_path.glob(".*.lock"))


def test_a_lock_file_planted_as_a_link_is_refused_and_nothing_is_made_elsewhere(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    (tmp_path / ".g.yaml.lock").symlink_to(elsewhere)
    said = in_process("play", "--seed", "3", "--record", str(tmp_path / "g.yaml"), input="B2\n")
    assert said.returncode == 2 and said.stderr.count("\n") == 1
    assert "lock file is a symbolic link" in said.stderr
    assert not elsewhere.exists()


def test_a_line_nested_deep_is_a_malformed_line_and_a_header_alone_is_no_games_yet(tmp_path):
    results = tmp_path / "r.jsonl"
    assert runner.invoke(app, ["stats", "-n", "2", "-p", "greedy", "--results", str(results)]).exit_code == 0
    header = results.read_text().splitlines()[0]
    alone = tmp_path / "header.jsonl"
    alone.write_text(header + "\n")
    assert runner.invoke(app, ["summarize", str(alone)]).stdout.startswith("player greedy, no games yet\n")
    deep = tmp_path / "deep.jsonl"
    deep.write_text(header + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    for arguments in (["summarize", str(deep)], ["stats", "-n", "2", "-p", "greedy", "--results", str(deep)]):
        said = runner.invoke(app, arguments)
        assert said.exit_code == 1 and said.stderr == f"{deep}:2: not a line of ours: nested too deep\n"


# -- 6. the history never touches what is not ours -----------------------------------------------------------


def _database(path: pathlib.Path, *statements: str) -> bytes:
    connection = sqlite3.connect(path)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()
    return path.read_bytes()


@pytest.mark.parametrize(
    "statements",
    [["CREATE VIEW v AS SELECT 1"], ["PRAGMA user_version = 7"]],
    ids=["a view only", "a user_version only"],
)
def test_another_programs_database_with_no_table_is_left_alone(tmp_path, statements):
    home = tmp_path / "home"
    home.mkdir()
    before = _database(home / "history.sqlite", *statements)
    said = in_process("history", FOURSQUARE_HOME=str(home))
    assert said.returncode == 2 and "is not foursquare's history index" in said.stderr
    assert (home / "history.sqlite").read_bytes() == before


def test_an_empty_database_reached_through_a_link_is_left_alone(tmp_path):
    home, elsewhere = tmp_path / "home", tmp_path / "theirs.sqlite"
    home.mkdir()
    elsewhere.write_bytes(b"")
    (home / "history.sqlite").symlink_to(elsewhere)
    said = in_process("history", FOURSQUARE_HOME=str(home))
    assert said.returncode == 2 and elsewhere.read_bytes() == b""


def test_a_damaged_index_of_ours_is_set_aside_and_rebuilt_from_the_records(tmp_path):
    home = tmp_path / "home"
    won = [
        line.strip()[2:] for line in (ROOT / "samples" / "won.yaml").read_text().splitlines() if line.startswith("  - ")
    ]
    for seed in (92, 3):
        in_process(
            "play",
            "--seed",
            str(seed),
            input="\n".join(won if seed == 92 else ["B2"]) + "\n",
            FOURSQUARE_HOME=str(home),
        )
    index = home / "history.sqlite"
    data = bytearray(index.read_bytes())
    page = 4096
    data[page + 8 : page * 3] = b"\xff" * (page * 3 - page - 8)  # the pages after the first, scribbled over
    index.write_bytes(bytes(data))
    said = in_process("history", "-f", "json", FOURSQUARE_HOME=str(home))
    assert said.returncode == 0, said.stderr
    assert len(json.loads(said.stdout)["games"]) == 2
    assert "was unreadable" in said.stderr and list(home.glob("history.sqlite.unreadable-*"))
