"""Hostile players and long runs (issue 20, items 1-13): outside players in a process of their own, runs
that survive a dying worker, signals that end a run with one line. Each test names the case it covers."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import alive, processes_running, signals_heard, worker_processes
from typer.testing import CliRunner

from foursquare_cli.cli import app
from foursquare_cli.players.outside import close_programs

TOOL = [sys.executable, "-m", "foursquare_cli"]
runner = CliRunner()

GREEDY_CHOICE = """
def greedy(state):
    return min(state.face_downs_after(state.next_card))[1]
"""


@pytest.fixture(autouse=True)
def _no_program_left():
    yield
    close_programs()


@pytest.fixture
def bots(tmp_path, monkeypatch):
    """A folder on the import path (of this process and of the tool's) to write players into."""
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))

    def write(name: str, text: str) -> str:
        (tmp_path / f"{name}.py").write_text(textwrap.dedent(text))
        return name

    return write


def no_traceback(*texts: str) -> None:
    for text in texts:
        assert "Traceback" not in text


@pytest.mark.parametrize(
    "body, reason, jobs",  # each way out, one job and two; two of the four in the slow run
    [
        pytest.param("import sys; sys.exit(0)", "raised SystemExit: 0", "1", marks=pytest.mark.slow),
        ("import os; os._exit(0)", "exited with code 0", "2"),
        ("raise KeyboardInterrupt", "raised KeyboardInterrupt", "1"),
        pytest.param("raise SystemExit(3)", "raised SystemExit: 3", "2", marks=pytest.mark.slow),
    ],
)
def test_1_a_module_player_that_exits_or_interrupts_only_forfeits(bots, body, reason, jobs):
    name = bots(
        "leaver",
        f"""
        class Leaver:
            def choose(self, state):
                {body}
        """,
    )
    result = runner.invoke(app, ["stats", "--games", "3", "--jobs", jobs, "-p", f"{name}:Leaver", "-f", "json"])
    no_traceback(result.stdout, result.stderr)
    assert result.exit_code == 0, result.stderr
    forfeits = __import__("json").loads(result.stdout)["forfeits"]
    assert sum(forfeits.values()) == 3 and all(reason in said for said in forfeits), forfeits


def test_1_auto_compare_and_hint_report_the_forfeit_of_a_leaving_player(bots, tmp_path):
    name = bots("quitter", "class Quitter:\n    def choose(self, state):\n        raise SystemExit(9)\n")
    player = f"{name}:Quitter"
    auto = runner.invoke(app, ["auto", "--seed", "3", "-p", player])
    assert auto.exit_code == 1
    assert auto.stderr == f"foursquare auto: {player} forfeits the game: raised SystemExit: 9\n"
    compare = runner.invoke(app, ["compare", player, "random", "--games", "2"])
    assert compare.exit_code == 0 and "2 x raised SystemExit: 9" in compare.stdout
    record = tmp_path / "game.yaml"
    record.write_text("foursquare: 1\nseed: 3\nmoves: [B2]\n")
    hint = runner.invoke(app, ["hint", str(record), "-p", player])
    assert hint.exit_code == 1 and hint.stderr == f"foursquare hint: {player} forfeits: raised SystemExit: 9\n"


@pytest.mark.slow
@pytest.mark.posix
def test_2_a_worker_killed_mid_run_ends_the_run_with_one_line():
    start = "7100000"
    process = subprocess.Popen(
        [*TOOL, "stats", "--games", "200", "--start", start, "--jobs", "2", "-p", "expert", "--playouts", "300"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 15
    while len(worker_processes(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = worker_processes(process.pid)
    assert workers, "the workers are running"
    os.kill(workers[0], signal.SIGKILL)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 75
    assert err.startswith("foursquare stats: a worker process died in the middle of the run; ")
    assert err.count("\n") == 1
    time.sleep(0.5)
    assert alive(workers) == []


@pytest.mark.posix
def test_3_ctrl_c_during_a_module_players_move_is_an_interruption_not_a_forfeit(bots, tmp_path):
    name = bots("sleeper", "import time\nclass Sleeper:\n    def choose(self, state):\n        time.sleep(30)\n")
    process = subprocess.Popen(
        [*TOOL, "stats", "--games", "2", "-p", f"{name}:Sleeper", "--move-time", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(tmp_path)),
        start_new_session=True,
        preexec_fn=signals_heard,
    )
    time.sleep(1.5)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=20)
    assert process.returncode == 130 and out == ""
    assert err == "foursquare stats: interrupted\n", "a module player is shown a copy: no word on public deals"


def test_13_a_module_player_that_never_returns_forfeits_within_its_move_time(bots):
    name = bots("looper", "class Looper:\n    def choose(self, state):\n        while True:\n            pass\n")
    started = time.monotonic()
    result = runner.invoke(app, ["stats", "--games", "1", "-p", f"{name}:Looper", "--move-time", "0.5"])
    assert time.monotonic() - started < 10
    assert result.exit_code == 0 and "forfeits: 1 x no answer within 0.5 s" in result.stdout


@pytest.mark.parametrize(
    "source, attribute, said",
    [
        ("raise RuntimeError('at import')", "Bot", "importing 'bad' raised RuntimeError: at import"),
        ("def broken(:\n    pass", "Bot", "importing 'bad' raised SyntaxError"),
        ("import sys\nsys.exit(7)", "Bot", "importing 'bad' raised SystemExit: 7"),
        ("class Bot:\n    def __init__(self):\n        raise ValueError('no')", "Bot", "making the player raised"),
        ("class Bot:\n    pass", "Bot", "making the player raised TypeError: its objects have no choose"),
        ("x = 1", "Bot", "bad has no class or factory 'Bot'"),
    ],
)
def test_4_a_module_that_cannot_play_is_one_line(bots, source, attribute, said):
    bots("bad", source)
    result = runner.invoke(app, ["stats", "--games", "2", "-p", f"bad:{attribute}"])
    no_traceback(result.stdout, result.stderr)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and said in result.stderr, result.stderr


def test_4_a_factory_that_needs_arguments_is_one_line():
    result = runner.invoke(app, ["stats", "--games", "1", "-p", "os.path:join"])
    no_traceback(result.stderr)
    assert result.exit_code == 2 and result.stderr.startswith("foursquare stats: os.path:join: making the player")


@pytest.mark.parametrize(
    "returned, reason",
    [
        ("Unprintable()", "returned Unprintable, not a Move"),  # its repr never called
        ("int.__new__(Move, 99)", "illegal move '99' at ply 1: no such cell; cells are A1 to D4"),
        ("None", "returned NoneType None, not a Move"),
        ('"A1"', "returned str 'A1', not a Move"),  # a move's text hid a bot's bug until its text did not parse
        ('"\\x1b[31m"', "returned str '\\x1b[31m', not a Move"),  # said safely
    ],
)
def test_4_a_choice_that_is_no_move_forfeits(bots, returned, reason):
    name = bots(
        "odd",
        """
        from foursquare_cli.rules import Move

        class Unprintable:
            def __str__(self):
                raise RuntimeError("no text")

        class Odd:
            def choose(self, state):
                return RETURNED
        """.replace("RETURNED", returned),
    )
    result = runner.invoke(app, ["stats", "--games", "1", "-p", f"{name}:Odd"])
    no_traceback(result.stdout, result.stderr)
    assert result.exit_code == 0 and f"forfeits: 1 x {reason}" in result.stdout, result.stdout


def test_4_a_base_exception_of_its_own_forfeits(bots):
    name = bots(
        "strange",
        "class Odd(BaseException):\n    pass\nclass Bot:\n    def choose(self, state):\n        raise Odd('x')\n",
    )
    result = runner.invoke(app, ["stats", "--games", "1", "-p", f"{name}:Bot"])
    assert result.exit_code == 0 and "forfeits: 1 x raised Odd: x" in result.stdout


@pytest.mark.slow
def test_6_a_huge_move_time_is_no_traceback(bots):
    name = bots("good", GREEDY_CHOICE + "class Good:\n    def choose(self, state):\n        return greedy(state)\n")
    for player in (f"{name}:Good", f"cmd:{sys.executable} {os.path.dirname(__file__)}/../examples/greedy_bot.py"):
        result = runner.invoke(app, ["stats", "--games", "2", "-p", player, "--move-time", "1e10"])
        no_traceback(result.stdout, result.stderr)
        assert result.exit_code == 0 and "forfeits" not in result.stdout, result.stderr


@pytest.mark.slow
@pytest.mark.posix
def test_7_a_forking_program_leaves_no_process_behind(tmp_path):
    bot = tmp_path / "forking.py"
    bot.write_text(
        textwrap.dedent("""
        import os, subprocess, sys
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "orphan-marker-7a"])
        for line in sys.stdin:
            print("B2", flush=True)
        """)
    )
    result = runner.invoke(app, ["stats", "--games", "2", "-p", f"cmd:{sys.executable} {bot}", "--move-time", "2"])
    assert result.exit_code == 0
    close_programs()
    time.sleep(0.3)
    assert processes_running("orphan-marker-7a") == []


@pytest.mark.slow
@pytest.mark.posix
def test_7_a_program_that_exits_while_its_child_holds_its_output_has_exited(tmp_path):
    bot = tmp_path / "leaving.py"
    bot.write_text(
        textwrap.dedent("""
        import subprocess, sys
        subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)", "orphan-marker-7b"])
        sys.exit(4)
        """)
    )
    result = runner.invoke(app, ["stats", "--games", "1", "-p", f"cmd:{sys.executable} {bot}", "--move-time", "5"])
    assert result.exit_code == 0 and "forfeits: 1 x exited with code 4" in result.stdout, result.stdout
    close_programs()
    time.sleep(0.3)
    assert processes_running("orphan-marker-7b") == []


def test_8_an_answer_to_the_last_state_never_leaks_into_the_next_game(tmp_path):
    bot = tmp_path / "chatty.py"
    bot.write_text(
        textwrap.dedent("""
        import json, sys
        from foursquare_cli.rules.engine import State
        for line in sys.stdin:
            state = json.loads(line)
            if state["status"] != "playing":
                print("A1", flush=True)  # an answer nobody asked for
                continue
            grid = state["grid"]
            empty = [f"{'ABCD'[c]}{r + 1}" for r in range(4) for c in range(4) if grid[r][c] is None]
            near = [
                f"{'ABCD'[c]}{r + 1}" for r in range(4) for c in range(4) if grid[r][c] is None
                and any(0 <= r + dr < 4 and 0 <= c + dc < 4 and grid[r + dr][c + dc]
                        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))
            ]
            tops = [f"{'ABCD'[c]}{r + 1} top" for r in range(4) for c in range(4)
                    if grid[r][c] is not None and grid[r][c]["height"] < 4]
            print((near or tops or empty)[0] if state["ply"] else "B2", flush=True)
        """)
    )
    result = runner.invoke(app, ["stats", "--games", "4", "-p", f"cmd:{sys.executable} {bot}", "-f", "json"])
    assert result.exit_code == 0
    assert __import__("json").loads(result.stdout)["forfeits"] == {}


@pytest.mark.slow
@pytest.mark.posix
def test_9_the_parent_killed_leaves_no_worker_and_no_player(tmp_path):
    start = "7200000"
    bot = f"cmd:{sys.executable} {os.path.dirname(os.path.abspath(__file__))}/../examples/greedy_bot.py"
    process = subprocess.Popen(
        [*TOOL, "compare", "expert", bot, "--games", "100", "--start", start, "--jobs", "2", "--playouts", "300"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 15
    while len(worker_processes(process.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1)
    workers = worker_processes(process.pid)
    assert len(workers) == 2 and processes_running("greedy_bot.py"), "the workers and their players are running"
    os.kill(process.pid, signal.SIGKILL)
    process.wait(timeout=10)
    deadline = time.monotonic() + 10
    while (alive(workers) or processes_running("greedy_bot.py")) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert alive(workers) == []
    assert processes_running("greedy_bot.py") == []


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",  # deal 22 at this budget: some 4 s of the C search (whose Ctrl-C is heard there too)
    [["solve", "--seed", "22", "--budget", "100000000", "--timeout", "60"], ["hint", "GAME", "--playouts", "1000000"]],
)
@pytest.mark.posix
def test_13_ctrl_c_during_hint_or_solve_is_one_line(command, tmp_path):
    record = tmp_path / "game.yaml"
    record.write_text("foursquare: 1\nseed: 3\nmoves: [B2, C2]\n")
    process = subprocess.Popen(
        [*TOOL, *[str(record) if word == "GAME" else word for word in command]],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=signals_heard,
    )
    time.sleep(0.8)
    os.killpg(process.pid, signal.SIGINT)
    out, err = process.communicate(timeout=10)
    assert process.returncode == 130 and err == f"foursquare {command[0]}: interrupted\n"


@pytest.mark.slow
@pytest.mark.posix
def test_10_a_terminal_that_goes_away_loses_no_result(tmp_path):
    import pexpect

    out = tmp_path / "figures.json"
    command = f"trap '' HUP; exec {sys.executable} -m foursquare_cli stats -n 4000 -p greedy -f json > {out}"
    child = pexpect.spawn("bash", ["-c", command], timeout=60)
    child.expect("greedy playing")  # the progress bar is drawn on the terminal
    os.close(child.child_fd)  # the terminal goes away; the run goes on, SIGHUP ignored
    _, status = os.waitpid(child.pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    figures = __import__("json").loads(out.read_text())
    assert figures["games"] == 4000


@pytest.mark.posix
def test_11_a_full_output_is_exit_74_for_compare_as_for_stats():
    for command in (["compare", "greedy", "random", "-n", "5"], ["stats", "-n", "5", "-p", "greedy"]):
        with open("/dev/full", "w") as full:
            process = subprocess.run([*TOOL, *command], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
        assert process.returncode == 74
        assert process.stderr == f"foursquare {command[0]}: cannot write the output: No space left on device\n"


@pytest.mark.slow
def test_12_standard_input_is_read_for_the_workers_too():
    from pathlib import Path

    samples = Path(__file__).resolve().parent.parent / "samples"
    arguments = ["analyze", "-", str(samples / "won.yaml"), "--playouts", "20", "--solve-budget", "1000", "-f", "json"]
    game = (samples / "lost.yaml").read_text()
    one = subprocess.run([*TOOL, *arguments], input=game, capture_output=True, text=True, timeout=120)
    two = subprocess.run([*TOOL, *arguments, "--jobs", "2"], input=game, capture_output=True, text=True, timeout=120)
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout == two.stdout and '"path":"-"' in two.stdout and '"status":"lost"' in two.stdout


@pytest.mark.slow
@pytest.mark.posix
def test_13_ctrl_c_stops_a_slow_hint_at_the_prompt_and_the_game_goes_on():
    from conftest import spawn_play

    child = spawn_play("--seed", "42", "--no-record", "--playouts", "1000000")
    child.expect_exact("Move 1, place 6D> ")
    child.sendline("B2")  # the first card has no choice (every cell is alike): its hint needs no futures
    child.expect_exact("Move 2, place 7H> ")
    child.sendline("hint")
    child.expect_exact("Still thinking (a large budget): Ctrl-C stops the hint.", timeout=10)  # not a silent wait
    started = time.monotonic()
    child.sendintr()
    child.expect_exact("Hint stopped; the game goes on.")
    assert time.monotonic() - started < 0.5 + 0.5  # within half a second (and the test's own latency)
    child.expect_exact("Move 2, place 7H> ")
    child.sendline("B1")
    child.expect_exact("Move 3, place ")
    child.sendline("quit")
    child.expect(pexpect_eof())
    child.close()
    assert child.exitstatus == 0


def pexpect_eof():
    import pexpect

    return pexpect.EOF


def test_8_a_stray_answer_written_in_pieces_is_dropped_whole(tmp_path):
    # PYTHONUNBUFFERED programs write a line's text and its newline apart: a newline left behind was once
    # read as the next game's (empty) first answer.
    bot = tmp_path / "pieces.py"
    bot.write_text(
        textwrap.dedent("""
        import json, sys, time
        for line in sys.stdin:
            state = json.loads(line)
            if state["status"] != "playing":
                sys.stdout.write("A1"); sys.stdout.flush()
                time.sleep(0.005)
                sys.stdout.write("\\n"); sys.stdout.flush()
                continue
            grid = state["grid"]
            near = [f"{'ABCD'[c]}{r + 1}" for r in range(4) for c in range(4) if grid[r][c] is None
                    and any(0 <= r + dr < 4 and 0 <= c + dc < 4 and grid[r + dr][c + dc]
                            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))]
            tops = [f"{'ABCD'[c]}{r + 1} top" for r in range(4) for c in range(4)
                    if grid[r][c] is not None and grid[r][c]["height"] < 4]
            print((near or tops)[0] if state["ply"] else "B2", flush=True)
        """)
    )
    result = runner.invoke(app, ["stats", "--games", "12", "-p", f"cmd:{sys.executable} {bot}", "-f", "json"])
    assert result.exit_code == 0
    assert __import__("json").loads(result.stdout)["forfeits"] == {}


def test_a_player_that_shifts_for_ever_forfeits_at_the_move_limit(tmp_path, monkeypatch):
    """Shifts are free, so a program that only shifts (round and round the frame) would play one game for ever,
    its steps filling the memory: past MOVE_LIMIT moves it forfeits, and the next game starts afresh (a limit
    of 200 here: 1,000 moves of a program take seconds, and the limit's place in the loop is what is tested)."""
    from foursquare_cli import players

    monkeypatch.setattr(players, "MOVE_LIMIT", MOVE_LIMIT := 200)
    bot = tmp_path / "shifter.py"
    bot.write_text(
        "import json, sys\nfor line in sys.stdin:\n    state = json.loads(line)\n"
        "    if state['status'] == 'playing':\n        print(state['legal'][-1], flush=True)\n"
    )
    started = time.monotonic()
    result = runner.invoke(app, ["stats", "-n", "2", "-p", f"cmd:{sys.executable} {bot}", "-f", "json"])
    assert result.exit_code == 0, result.stderr
    reason = f"no end after {MOVE_LIMIT} moves (a game is 40 cards; shifts are free, not endless)"
    assert __import__("json").loads(result.stdout)["forfeits"] == {reason: 2}
    assert time.monotonic() - started < 30
