"""A result proves itself (issue 32): every game line carries its deal's seed and its moves, and is replayed
before it is summed or resumed; results files are regular files with one writer at a time; a partial run is
never called complete; sealed deals come from secret seeds, written only once every player is done."""

from __future__ import annotations

import json
import os
import stat

import pytest
from typer.testing import CliRunner

from foursquare_cli.cli import app
from foursquare_cli.errors import ExitStatus
from foursquare_cli.rules.cards import deal
from foursquare_cli.rules.engine import State
from foursquare_cli.rules.moves import Move
from foursquare_cli.runs.plans import Plan
from foursquare_cli.runs.results import ResultsFile, read_results
from foursquare_cli.runs.stats import play_deal
from foursquare_cli.store.logs import JsonLinesLog

runner = CliRunner()


@pytest.fixture(scope="module")
def greedy_file(tmp_path_factory):
    """A results file of `stats -n 12 -p greedy`, made once; each test edits a copy."""
    path = tmp_path_factory.mktemp("results") / "greedy.jsonl"
    result = runner.invoke(app, ["stats", "-n", "12", "-p", "greedy", "--results", str(path), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    return path


def _copy(greedy_file, tmp_path, edit=None):
    lines = greedy_file.read_text().splitlines()
    if edit is not None:
        edit(lines)
    path = tmp_path / "edited.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return path


def _edited(line: str, **changes) -> str:
    value = json.loads(line)
    value.update(changes)
    return json.dumps(value)


def test_every_game_line_carries_its_seed_and_moves_and_replays_to_its_result(greedy_file):
    plan, games = read_results(str(greedy_file))
    assert plan.command == "stats" and len(games) == 12
    for line in greedy_file.read_text().splitlines()[1:]:
        game = json.loads(line)
        assert game["seed"] == game["deal"]
        state = State.from_seed(game["seed"])
        for text in game["played"].split(","):
            state.apply(Move.from_str(text))
        assert state.is_over and (state.outcome.score if game["won"] else None) == game["score"]


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"won": True, "score": 999}, "won and score: a won game has a score of 0 to 24, a lost one none"),
        ({"score": "lots"}, "won and score: a won game has a score of 0 to 24, a lost one none"),
        ({"deal": 99}, "deal 99 is not one of the plan's deals"),
        ({"seed": 5}, "seed 5 is not the seed of deal"),
        ({"player": "expert"}, "player 'expert' is not one of the plan's"),
        ({"move_seconds": "fast"}, "move_seconds: a list of the seconds each move took"),
        ({"forfeit": ["x"] * 3}, "forfeit: the reason a lost game was forfeited, or null"),
        ({"extra": 1}, "a game line has the keys"),
    ],
)
def test_a_line_edited_by_hand_is_refused_with_its_file_and_line(greedy_file, tmp_path, changes, said):
    def edit(lines):
        lines[3] = _edited(lines[3], **changes)

    path = _copy(greedy_file, tmp_path, edit)
    for command in (["summarize", str(path)], ["stats", "-n", "12", "-p", "greedy", "--results", str(path)]):
        result = runner.invoke(app, command)
        assert result.exit_code == ExitStatus.INVALID, result.stderr
        assert result.stderr.startswith(f"{path}:4: "), result.stderr  # as check says a problem: file:line
        assert said in result.stderr and result.stderr.count("\n") == 1
        assert result.stdout == ""


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        (lambda line: line[:-1] + ',"score":null}', "the key 'score' appears twice in one object"),
        (lambda line: line.replace('"seed":2', '"seed":' + "9" * 5000), "a number of 5,000 characters"),
    ],
    ids=["a key twice", "5,000 digits"],
)
def test_a_line_that_is_json_but_not_as_the_tool_writes_it_is_said_so(greedy_file, tmp_path, edit, said):
    """An outside try: a repeated key was read (the last one winning), and 5,000 digits were 'not a JSON object'."""

    def edited(lines):
        lines[3] = edit(lines[3])

    path = _copy(greedy_file, tmp_path, edited)
    assert '"seed":2' in greedy_file.read_text().splitlines()[3], "the line the test edits"
    result = runner.invoke(app, ["summarize", str(path)])
    assert result.exit_code == ExitStatus.INVALID and result.stderr.startswith(f"{path}:4: {said}"), result.stderr
    assert result.stderr.count("\n") == 1


def test_a_file_an_editor_saved_with_a_byte_order_mark_is_read_as_it_was(greedy_file, tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + greedy_file.read_bytes())
    marked, plain = (runner.invoke(app, ["summarize", str(name), "-f", "json"]) for name in (path, greedy_file))
    assert marked.exit_code == 0, marked.stderr
    assert json.loads(marked.stdout)["lost_deals"] == json.loads(plain.stdout)["lost_deals"] == list(range(12))


def test_a_plan_of_another_kind_is_named(greedy_file, tmp_path):
    version = _copy(
        greedy_file, tmp_path, lambda lines: lines.__setitem__(0, _edited(lines[0], foursquare_results=2.0))
    )
    said = runner.invoke(app, ["summarize", str(version)])
    assert said.exit_code == ExitStatus.USAGE and "not a results file of this version" in said.stderr
    analysis = tmp_path / "analysis.jsonl"
    samples = os.path.join(os.path.dirname(__file__), os.pardir, "samples", "won.yaml")
    made = runner.invoke(
        app, ["analyze", samples, "--playouts", "20", "--solve-budget", "100", "--results", str(analysis)]
    )
    assert made.exit_code == 0, made.stderr
    said = runner.invoke(app, ["summarize", str(analysis)])
    assert said.exit_code == ExitStatus.USAGE and said.stderr == (
        f"{analysis}: holds analyze's results, not a run of stats or compare; give another file\n"
    )
    nowhere = tmp_path / "no folder" / "run.jsonl"
    said = runner.invoke(app, ["stats", "-n", "2", "-p", "greedy", "--results", str(nowhere)])
    assert said.exit_code == ExitStatus.USAGE and said.stderr == f"{nowhere}: cannot write: its folder does not exist\n"


def test_times_past_any_move_s_are_refused_not_summed_to_infinity(greedy_file, tmp_path):
    """An outside try: 1.7e308 s a move is finite, but their sum is not, and JSON has no infinity (exit 70)."""

    def edit(lines):
        game = json.loads(lines[3])
        lines[3] = _edited(lines[3], move_seconds=[1.7e308] * len(game["move_seconds"]), seconds_per_move=1.7e308)

    path = _copy(greedy_file, tmp_path, edit)
    for command in (
        ["summarize", str(path), "-f", "json"],
        ["stats", "-n", "12", "-p", "greedy", "--results", str(path)],
    ):
        result = runner.invoke(app, command)
        assert result.exit_code == ExitStatus.INVALID, result.stderr
        assert result.stderr.startswith(f"{path}:4: move_seconds: a list of the seconds each move took (0 to 1e+09")


def test_a_won_game_claimed_for_a_lost_one_is_caught_by_its_moves(greedy_file, tmp_path):
    lines = greedy_file.read_text().splitlines()
    lost = next(number for number, line in enumerate(lines[1:], start=1) if not json.loads(line)["won"])

    def edit(lines):
        lines[lost] = _edited(lines[lost], won=True, score=20)

    path = _copy(greedy_file, tmp_path, edit)
    result = runner.invoke(app, ["summarize", str(path)])
    assert result.exit_code == ExitStatus.INVALID
    assert (
        f"{path}:{lost + 1}: deal" in result.stderr and "its moves give lost, not what the line says" in result.stderr
    )


def test_moves_that_are_not_the_deals_game_are_refused(greedy_file, tmp_path):
    def edit(lines):
        lines[2] = _edited(lines[2], played="B2,B2," + ",".join(json.loads(lines[2])["played"].split(",")[2:]))

    result = runner.invoke(app, ["summarize", str(_copy(greedy_file, tmp_path, edit))])
    assert result.exit_code == ExitStatus.INVALID and "move 2, B2: not legal there" in result.stderr


def test_a_player_named_twice_is_refused_by_compare_and_in_a_files_plan(greedy_file, tmp_path):
    twice = "greedy is named twice; name each player once (settings make another player)"
    for players in (["greedy", "random", "greedy"], ["greedy", "GREEDY"], ["greedy", "mine=greedy"]):
        said = runner.invoke(app, ["compare", *players, "-n", "2", "--results", str(tmp_path / "r")])
        assert said.exit_code == ExitStatus.USAGE and said.stderr == f"foursquare compare: {twice}\n", (
            "issue 49: any spelling"
        )
        assert not (tmp_path / "r").exists()
    said = runner.invoke(app, ["compare", "a=greedy", "a=random", "-n", "2"])
    assert (
        said.exit_code == ExitStatus.USAGE
        and said.stderr == "foursquare compare: a names two players; give each its own short name\n"
    )

    def edit(lines):
        header = json.loads(lines[0])
        header["players"] = ["greedy", "greedy"]
        lines[0] = json.dumps(header)

    copied = _copy(greedy_file, tmp_path, edit)
    result = runner.invoke(app, ["summarize", str(copied)])
    assert result.exit_code == ExitStatus.USAGE and "its plan is not one of a run: players" in result.stderr


def test_verify_asks_the_named_player_again_so_greedy_games_renamed_random_are_refused(greedy_file, tmp_path):
    """Legal moves that give the line's result are not enough: the player named must be the one that chose them."""
    renamed = tmp_path / "renamed.jsonl"
    renamed.write_text(greedy_file.read_text().replace('"greedy"', '"random"'))
    assert runner.invoke(app, ["summarize", str(renamed)]).exit_code == 0, "each line alone is a legal game"
    refused = runner.invoke(app, ["summarize", "--verify", str(renamed), "-f", "json"])
    assert refused.exit_code == ExitStatus.INVALID and refused.stdout == ""
    assert refused.stderr.startswith(f"{renamed}:2: deal 0 of random: move 1 is ")
    assert refused.stderr.count("\n") == 1
    kept = runner.invoke(app, ["summarize", "--verify", str(greedy_file), "-f", "json"])
    assert kept.exit_code == 0 and json.loads(kept.stdout)["games"] == 12
    assert kept.stderr == "foursquare summarize: --verify: 12 games replayed by the players they name, move by move\n"


def test_a_huge_claimed_plan_is_summed_at_once_with_what_is_missing(greedy_file, tmp_path):
    def edit(lines):
        header = json.loads(lines[0])
        header["games"] = 10**12
        lines[0] = json.dumps(header)

    result = runner.invoke(app, ["summarize", str(_copy(greedy_file, tmp_path, edit)), "-f", "json"])
    assert result.exit_code == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["games"] == 12 and summary["missing"] == 10**12 - 12
    assert summary["first_missing"][:3] == [12, 13, 14]


def test_a_rerun_of_a_finished_run_gives_the_speed_its_games_were_played_at(greedy_file):
    """Nothing is played again: its speed is the time its games took, as summarize counts it, not the speed of
    reading the file (once thousands of games a second)."""
    arguments = ["stats", "-n", "12", "-p", "greedy", "--results", str(greedy_file), "-f", "json"]
    rerun = json.loads(runner.invoke(app, arguments).stdout)
    summed = json.loads(runner.invoke(app, ["summarize", str(greedy_file), "-f", "json"]).stdout)
    assert rerun == summed and rerun["games_per_second"] > 0


def test_summarize_names_the_shards_missing_and_never_calls_a_partial_run_complete(tmp_path):
    files = []
    for index in (1, 2, 3):
        path = tmp_path / f"shard{index}.jsonl"
        command = ["compare", "greedy", "random", "-n", "40", "--shard", f"{index}/4", "--results", str(path)]
        assert runner.invoke(app, command).exit_code == 0
        files.append(str(path))
    text = runner.invoke(app, ["summarize", *files])
    assert text.exit_code == 0
    said = " ".join(text.stdout.split())  # the words, whatever the width it is folded to
    assert said.startswith("Incomplete: 10 deals of the run are missing from these files: 3, 7, 11, 15")
    assert "30 deals between 0 and 38, played by every player:" in text.stdout
    figures = json.loads(runner.invoke(app, ["summarize", *files, "-f", "json"]).stdout)
    assert figures["complete"] is False and figures["players"][0]["missing"] == 10
    stats = [tmp_path / "s1.jsonl", tmp_path / "s2.jsonl"]
    for index, path in enumerate(stats, start=1):
        runner.invoke(app, ["stats", "-n", "10", "-p", "greedy", "--shard", f"{index}/3", "--results", str(path)])
    said = runner.invoke(app, ["summarize", *map(str, stats)]).stdout
    assert "player greedy, 7 deals between 0 and 9" in said
    assert "incomplete: 3 deals of the run are missing from these files: 2, 5, 8" in said


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "cannot read: No such file or directory"),
        (b"", "is empty: a results file begins with the plan of its run"),
        (b'{"foursquare_results": 2', "holds no whole line: a results file begins with the plan of its run"),
    ],
)
def test_a_missing_or_empty_file_is_called_so_not_a_file_of_another_version(tmp_path, content, said):
    path = tmp_path / "run.jsonl"
    if content is not None:
        path.write_bytes(content)
    result = runner.invoke(app, ["summarize", str(path), "-f", "json"])
    assert result.exit_code == ExitStatus.USAGE and result.stdout == ""
    assert result.stderr.startswith(f"{path}: {said}") and result.stderr.count("\n") == 1


def test_fifos_devices_and_directories_are_refused_at_once(tmp_path):
    fifo = tmp_path / "pipe.jsonl"
    os.mkfifo(fifo)
    for path, kind in ((str(fifo), "a FIFO"), ("/dev/zero", "a device"), (str(tmp_path), "a directory")):
        for command in (["stats", "-n", "2", "-p", "random", "--results", path], ["summarize", path]):
            result = runner.invoke(app, command)
            assert result.exit_code == ExitStatus.USAGE
            assert result.stderr == f"{path}: not a regular file ({kind}); give a results file\n"


def test_a_second_run_on_the_same_file_is_refused_while_the_first_writes(tmp_path):
    path = tmp_path / "busy.jsonl"
    with JsonLinesLog(str(path)):
        result = runner.invoke(app, ["stats", "-n", "2", "-p", "random", "--results", str(path)])
    assert result.exit_code == ExitStatus.USAGE
    assert result.stderr == f"{path}: another run is writing to this file; wait for it, or give another file\n"
    assert runner.invoke(app, ["stats", "-n", "2", "-p", "random", "--results", str(path)]).exit_code == 0


def test_a_read_only_results_file_is_named(greedy_file, tmp_path):
    path = _copy(greedy_file, tmp_path)
    path.chmod(stat.S_IRUSR)  # refused by its mode, as a record is, even for root (who could write it)
    result = runner.invoke(app, ["stats", "-n", "12", "-p", "greedy", "--results", str(path)])
    assert result.exit_code == ExitStatus.USAGE
    assert result.stderr == f"{path}: is read-only; give a file this run can write to\n"
    assert runner.invoke(app, ["summarize", str(path)]).exit_code == 0, "reading it is fine"


@pytest.mark.parametrize("command", ["stats", pytest.param("analyze", marks=pytest.mark.slow)])
def test_a_line_cut_by_a_kill_is_cut_the_same_way_for_every_log(tmp_path, command):
    from pathlib import Path

    samples = Path(__file__).resolve().parent.parent / "samples"
    path = tmp_path / "cut.jsonl"
    if command == "stats":
        arguments = ["stats", "-n", "3", "-p", "greedy", "--results", str(path)]
    else:
        arguments = [
            "analyze",
            str(samples / "won.yaml"),
            "--playouts",
            "20",
            "--solve-budget",
            "200",
            "--results",
            str(path),
        ]
    assert runner.invoke(app, arguments).exit_code == 0
    whole = path.read_text()
    path.write_text(whole[: len(whole) - 25])  # the last line cut mid-way
    again = runner.invoke(app, arguments)
    assert again.exit_code == 0, again.stderr
    assert path.read_text().count("\n") == whole.count("\n")
    assert all(json.loads(line) for line in path.read_text().splitlines())


def test_a_sealed_deal_is_written_only_once_every_player_has_finished_it(tmp_path):
    from foursquare_cli.players import PlayerSpec, Strength
    from foursquare_cli.runs.plans import DealRange

    plan = Plan.of("compare", ("greedy", "random"), PlayerSpec(strength=Strength(100)), DealRange(0, 2, sealed=True))
    path = tmp_path / "sealed.jsonl"
    results = ResultsFile(str(path), plan)
    try:
        secret = 12345678901234567890
        results.add(play_deal(plan.players[0], 0, sealed_seed=secret))
        assert path.read_text().count("\n") == 1, "only the plan: random has not played deal 0 yet"
        results.add(play_deal(plan.players[1], 0, sealed_seed=secret))
        lines = [json.loads(line) for line in path.read_text().splitlines()[1:]]
        assert [(line["player"], line["deal"], line["seed"]) for line in lines] == [
            ("greedy", 0, secret),
            ("random", 0, secret),
        ]
    finally:
        results.close()
    _, games = read_results(str(path))
    assert games[("greedy", 0)].dealt_from == secret


def test_sealed_runs_deal_from_fresh_secret_seeds_the_same_for_every_player(tmp_path):
    path = tmp_path / "sealed.jsonl"
    command = ["compare", "greedy", "random", "-n", "6", "--sealed", "--results", str(path), "-f", "json"]
    result = runner.invoke(app, command)
    assert result.exit_code == 0, result.stderr
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["sealed"] is True
    seeds = {}
    for line in lines[1:]:
        seeds.setdefault(line["deal"], set()).add(line["seed"])
    assert all(len(found) == 1 for found in seeds.values()), "every player of a deal has its one seed"
    secret = [found.pop() for found in seeds.values()]
    assert len(set(secret)) == 6 and set(secret) != set(range(6))
    # anyone can check a game afterwards: the seed gives the stock, the moves replay
    first = lines[1]
    shown = runner.invoke(app, ["deal", "--seed", str(first["seed"])]).stdout.split()
    assert shown == [str(card) for card in deal(first["seed"])]
    assert runner.invoke(app, ["summarize", str(path)]).exit_code == 0
    again = runner.invoke(app, command)
    assert json.loads(again.stdout) == json.loads(result.stdout) | {"players": json.loads(again.stdout)["players"]}
    assert runner.invoke(app, command[:-2] + ["--sealed"]).exit_code == 0


def test_a_program_on_numbered_deals_is_told_they_can_be_known_and_a_module_player_is_not(tmp_path, monkeypatch):
    import sys
    from pathlib import Path

    bot = f"cmd:{sys.executable} {Path(__file__).resolve().parent.parent / 'examples' / 'greedy_bot.py'}"
    numbered = runner.invoke(app, ["stats", "-n", "2", "-p", bot])
    assert numbered.exit_code == 0
    assert numbered.stderr == (
        "foursquare stats: the deals are public numbers, so a program (cmd:) can know every stock in advance; "
        "--sealed deals them from secret seeds\n"
    )
    examples = Path(__file__).resolve().parent.parent / "examples"
    monkeypatch.syspath_prepend(str(examples))
    module = runner.invoke(app, ["stats", "-n", "2", "-p", "greedy_player:GreedyPlayer"])
    assert module.exit_code == 0 and module.stderr == "", "a module player is shown a copy of the position"
    sealed = runner.invoke(app, ["stats", "-n", "2", "-p", bot, "--sealed"])
    assert sealed.exit_code == 0 and sealed.stderr == ""
    assert runner.invoke(app, ["stats", "-n", "2", "-p", "greedy"]).stderr == ""


def test_a_run_that_fails_before_its_first_game_leaves_no_results_file(tmp_path, monkeypatch):
    """A failed start (a cluster refused, a worker lost before the first game, analyze's --solution file there
    already) left a results file of a header alone, or none at all when the failure came before it was
    written; a file the run made and wrote no game to is removed. A file that was there before is left."""
    from foursquare_cli.errors import RunFailed, UsageError
    from foursquare_cli.runs import run

    def refused(*args, **kwargs):
        raise UsageError("this cluster cannot be used")

    def lost(*args, **kwargs):
        raise RunFailed("a worker process died in the middle of the run; 0 of 2 tasks had finished")
        yield  # a generator, as run_in_order is

    path = tmp_path / "new.jsonl"
    monkeypatch.setattr(run, "ClusterExecutor", refused)
    said = runner.invoke(
        app, ["stats", "-n", "2", "-p", "greedy", "--cluster", "tcp://nowhere:1", "--results", str(path)]
    )
    assert said.exit_code == ExitStatus.USAGE and "cannot be used" in said.stderr
    assert not path.exists()
    monkeypatch.setattr(run, "run_in_order", lost)
    said = runner.invoke(app, ["compare", "greedy", "random", "-n", "2", "--results", str(path)])
    assert said.exit_code == ExitStatus.WORKER_LOST and not path.exists()
    moves = tmp_path / "moves.log"
    moves.write_text("B2\n")
    analysed = ["analyze", str(moves), "--seed", "1", "--solution", str(moves), "--results", str(path)]
    said = runner.invoke(app, analysed)
    assert said.exit_code == ExitStatus.USAGE and "already exists" in said.stderr
    assert not path.exists()
    path.write_text("")  # the user's own file, made before the run: it stays
    said = runner.invoke(app, ["stats", "-n", "2", "-p", "greedy", "--results", str(path)])
    assert said.exit_code == ExitStatus.WORKER_LOST and path.exists()
    assert json.loads(path.read_text())["command"] == "stats"


@pytest.mark.posix
@pytest.mark.parametrize("command", ["stats", pytest.param("analyze", marks=pytest.mark.slow)])  # slow: CI's -m slow
def test_a_run_killed_as_it_opens_its_results_file_leaves_a_file_summarize_reads(tmp_path, command):
    """A run killed after its results file was made and before its first line (the plan) was written left the
    file empty: the same command resumed it, but `summarize` called it 'not a results file' (found by the crash
    test, python -m fuzz.crash). A new file now appears with its first line already in it (written beside it,
    then linked into place), so a kill leaves no file, or one with its plan. The process is killed as its file
    is locked, just after it is there."""
    import signal
    import subprocess
    import sys
    from pathlib import Path

    killer = (
        "import os, signal, sys\n"
        "from foursquare_cli.cli import app\n"
        "from foursquare_cli.store import logs\n"
        "locked = logs.ExclusiveLock.on_file\n"
        "def killed(path):\n"
        "    locked(path)\n"
        "    os.kill(os.getpid(), signal.SIGKILL)\n"
        "logs.ExclusiveLock.on_file = killed\n"
        "app(sys.argv[1:], prog_name='foursquare')\n"
    )
    path = tmp_path / "run.jsonl"
    sample = str(Path(__file__).resolve().parent.parent / "samples" / "won.yaml")
    analysed = ["analyze", sample, "--playouts", "20", "--solve-budget", "200"]
    arguments = ["stats", "-n", "3", "-p", "greedy"] if command == "stats" else analysed
    done = subprocess.run([sys.executable, "-c", killer, *arguments, "--results", str(path)], capture_output=True)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert json.loads(path.read_text())["command"] == command, "the plan is there"
    if command == "stats":
        said = runner.invoke(app, ["summarize", str(path)])
        assert said.exit_code == 0 and "no games yet" in said.stdout, said.stderr
    again = runner.invoke(app, [*arguments, "--results", str(path)])
    assert again.exit_code == 0, again.stderr
    assert len(path.read_text().splitlines()) == (4 if command == "stats" else 2)
    assert [p.name for p in tmp_path.iterdir()] == ["run.jsonl"], "no temporary is left"


def test_a_run_resumed_from_its_file_says_how_many_games_it_found(tmp_path):
    path = tmp_path / "run.jsonl"
    first = runner.invoke(app, ["stats", "-n", "4", "-p", "greedy", "--results", str(path)])
    assert first.exit_code == 0 and "holds" not in first.stderr  # a new run says nothing
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:3]))  # the plan and two games
    again = runner.invoke(app, ["stats", "-n", "4", "-p", "greedy", "--results", str(path)])
    assert again.exit_code == 0
    assert again.stderr == f"foursquare stats: {path} holds 2 of 4 games of this run; playing the rest\n"
    done = runner.invoke(app, ["stats", "-n", "4", "-p", "greedy", "--results", str(path)])
    assert done.stderr == f"foursquare stats: {path} holds all 4 games of this run\n"
    assert first.stdout.split("time per move")[0] == done.stdout.split("time per move")[0]  # the same figures
