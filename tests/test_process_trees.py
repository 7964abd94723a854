"""A player's whole process tree ends with its game (issue 31): the warden on Linux catches even a
program that forks, starts a session of its own and forks again; a program killed, or the tool killed,
leaves nothing behind; a `cmd:` program that is not there is refused before anything is played."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import processes_running
from typer.testing import CliRunner

from foursquare_cli.cli import app
from foursquare_cli.errors import ExitStatus
from foursquare_cli.players.outside import ProgramPlayer, close_programs
from foursquare_cli.players.processes import split_command
from foursquare_cli.rules.engine import State

runner = CliRunner()
ANSWERS_B2 = "import sys\nfor line in sys.stdin:\n    print('B2', flush=True)\n"


def _daemon_bot(tmp_path, marker: str, answers: str = ANSWERS_B2) -> str:
    """A program that starts a daemon the classic way (fork, setsid, fork) before it plays."""
    bot = tmp_path / "daemon_bot.py"
    bot.write_text(
        textwrap.dedent(f"""
        import os, sys, time
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(60)", "{marker}"])
            os._exit(0)
        os.wait()
        """)
        + answers
    )
    return f"cmd:{sys.executable} {bot}"


def _gone(marker: str, seconds: float = 5.0) -> list[int]:
    deadline = time.monotonic() + seconds
    while processes_running(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    return processes_running(marker)


@pytest.mark.posix
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper is Linux's; macOS ends the group only")
def test_a_double_forked_daemon_of_a_player_ends_with_the_run(tmp_path):
    marker = f"daemon-marker-{os.getpid()}-a"
    result = runner.invoke(app, ["stats", "--games", "2", "-p", _daemon_bot(tmp_path, marker), "--move-time", "5"])
    assert result.exit_code == 0, result.stderr
    close_programs()
    assert _gone(marker) == []


@pytest.mark.posix
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper is Linux's; macOS ends the group only")
def test_a_daemon_is_ended_with_its_program_after_each_forfeit(tmp_path):
    marker = f"daemon-marker-{os.getpid()}-b"
    player = ProgramPlayer(_daemon_bot(tmp_path, marker)[4:], move_time=5)
    try:
        state = State.from_seed(3)
        assert str(player.choose(state)) == "B2"
        deadline = time.monotonic() + 10
        while not processes_running(marker) and time.monotonic() < deadline:  # its exec may come a moment after
            time.sleep(0.05)
        assert processes_running(marker), "the daemon runs while its program plays"
        player._stop()  # what a forfeit does
        assert _gone(marker) == []
    finally:
        player.close()


@pytest.mark.posix
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper is Linux's; macOS ends the group only")
def test_the_tool_killed_takes_its_players_daemons_with_it(tmp_path):
    marker = f"daemon-marker-{os.getpid()}-c"
    thinks = "import sys, time\nfor line in sys.stdin:\n    time.sleep(60)\n"  # the tool waits, the daemon runs
    process = subprocess.Popen(
        [sys.executable, "-m", "foursquare_cli", "stats", "-n", "5", "-p", _daemon_bot(tmp_path, marker, thinks)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 20
        while not processes_running(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_running(marker), "the daemon is running"
        process.kill()
        process.wait(timeout=10)
        assert _gone(marker) == []
    finally:
        process.kill()


def test_a_program_that_is_not_there_is_refused_before_anything_is_played():
    for arguments in (["stats", "-n", "3"], ["compare", "-n", "3", "greedy"]):
        player = "cmd:/no/such/bot --fast"
        command = arguments + (["-p", player] if arguments[0] == "stats" else [player])
        result = runner.invoke(app, command)
        assert result.exit_code == ExitStatus.USAGE
        assert result.stdout == ""
        said = f"{player}: no program '/no/such/bot', neither a file that runs nor on the PATH"
        assert result.stderr == f"foursquare {arguments[0]}: {said}\n"


def test_a_windows_command_keeps_its_backslashes_and_loses_its_quotes():
    assert split_command(r"C:\bots\bot.exe --fast", windows=True) == [r"C:\bots\bot.exe", "--fast"]
    assert split_command(r'"C:\Program Files\bot.exe" -x', windows=True) == [r"C:\Program Files\bot.exe", "-x"]
    assert split_command(r"C:\bots\bot.exe", windows=False) == ["C:botsbot.exe"]  # what POSIX splitting did
    assert split_command("python3 'my bot.py'", windows=False) == ["python3", "my bot.py"]


def _first_forfeit(tmp_path, source: str, move_time: float) -> str:
    """The reason a program (`source`, a Python script) forfeits its first move with."""
    bot = tmp_path / "bot.py"
    bot.write_text(source)
    player = ProgramPlayer(f"{sys.executable} {bot}", move_time=move_time)
    try:
        with pytest.raises(Exception) as caught:
            player.choose(State.from_seed(1))
        return str(caught.value)
    finally:
        player.close()


def test_a_forfeit_for_lateness_gives_the_time_waited(tmp_path):
    said = _first_forfeit(tmp_path, "import sys, time\nfor line in sys.stdin:\n    time.sleep(5)\n", 0.3)
    assert said == "no answer within 0.3 s"


def test_a_program_s_unprintable_answer_is_quoted_as_every_screen_quotes_a_text(tmp_path):
    said = _first_forfeit(tmp_path, "import sys\nsys.stdin.readline()\nprint('B2\\x00', flush=True)\n", 5)
    assert said.startswith("illegal move 'B2\\x00' at ply 1: "), "not 'B2?', as replay quotes it"


@pytest.mark.posix
def test_a_program_stopped_by_a_signal_is_reported_as_its_own_end(tmp_path):
    source = "import os, signal, sys\nsys.stdin.readline()\nos.kill(os.getpid(), signal.SIGKILL)\n"
    said = _first_forfeit(tmp_path, source, 5)
    assert said == "was ended by signal 9 (SIGKILL)", "a signal, not an exit code of -9"


def test_a_slow_import_is_reported_with_the_time_it_was_given(tmp_path, monkeypatch):
    from foursquare_cli.errors import PlayerError
    from foursquare_cli.players import outside

    (tmp_path / "sleepy.py").write_text("import time\ntime.sleep(10)\nclass Bot:\n    pass\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(outside, "STARTUP_TIME", 0.5)
    with pytest.raises(PlayerError) as caught:
        outside.ModulePlayer("sleepy:Bot", move_time=0.2)
    assert str(caught.value) == "sleepy:Bot: its module was not imported within 0.5 s (its import did not end)"


@pytest.mark.posix
def test_where_there_is_no_pdeathsig_the_warden_sees_the_tool_go(tmp_path):
    """macOS has no PR_SET_PDEATHSIG: there the warden watches its parent and ends the program's group when the
    tool is gone. Played here by a warden that takes itself for macOS, under a stand-in for the tool."""
    import pathlib

    from foursquare_cli.players import processes

    marker = f"macos-marker-{os.getpid()}"
    warden = pathlib.Path(processes.__file__).with_name("warden.py")
    run_warden = (
        "import os, runpy, sys; sys.platform = 'darwin'; "
        f"sys.argv = [{str(warden)!r}, str(os.getppid()), sys.executable, '-c', 'import time; time.sleep(60)', "
        f"{marker[:5]!r} + {marker[5:]!r}]; runpy.run_path({str(warden)!r}, run_name='__main__')"  # in two halves:
    )  # only the program's own command line holds the whole marker
    assert marker not in run_warden
    tool = subprocess.Popen(
        [
            sys.executable,
            "-c",
            f"import subprocess, sys, time; subprocess.Popen([sys.executable, '-c', {run_warden!r}]); time.sleep(60)",
        ],
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 20
        while not processes_running(marker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert processes_running(marker), "the program runs under its warden"
        tool.kill()
        tool.wait(timeout=10)
        assert _gone(marker, 10) == []
    finally:
        with __import__("contextlib").suppress(ProcessLookupError):
            os.killpg(tool.pid, signal.SIGKILL)


def test_ending_a_program_leaves_its_output_pipe_to_the_reader_so_the_next_program_keeps_its_first_line(
    monkeypatch,
):
    """The race seen under load: a reader thread held up on its way into `read()` while the program was
    ended. Had `end()` closed the pipe, the next program's pipe could take its descriptor number and the
    stale reader would steal that program's first line (a module player's `ready`, lost: 30 s, a forfeit)."""
    import threading

    from foursquare_cli.players import processes

    held_up = threading.Event()
    original = processes.PlayerProcess._read

    def late_reader(self, stream):
        held_up.wait(10)
        original(self, stream)

    monkeypatch.setattr(processes.PlayerProcess, "_read", late_reader)
    old = processes.PlayerProcess([sys.executable, "-c", "import time; time.sleep(30)"])
    descriptor = old._popen.stdout.fileno()
    pipe = os.fstat(descriptor).st_ino
    old.end()
    monkeypatch.setattr(processes.PlayerProcess, "_read", original)
    new = processes.PlayerProcess([sys.executable, "-c", "print('ready', flush=True)"])
    try:
        assert os.fstat(descriptor).st_ino == pipe  # still the old pipe, the reader's to close
        held_up.set()
        first = b""
        deadline = time.monotonic() + 20
        while b"\n" not in first and time.monotonic() < deadline:
            first += new.output(0.5) or b""
        assert first == b"ready\n"
    finally:
        held_up.set()
        new.end()


@pytest.mark.posix
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the tool as a subreaper is Linux's")
@pytest.mark.parametrize("signal_name", ["SIGKILL", pytest.param("SIGSTOP", marks=pytest.mark.slow)])
def test_a_daemon_outlives_neither_its_warden_nor_the_tool_when_the_program_kills_or_stops_its_warden(
    tmp_path, signal_name
):
    """The program double-forks a daemon, then kills (or stops) its warden: the tree comes to the tool (a
    subreaper too), which ends it with the program; after the run nothing of it is left, and the run is quick."""
    marker = f"daemon-marker-{os.getpid()}-warden-{signal_name}"
    killer = f"import os, signal\nos.kill(os.getppid(), signal.{signal_name})\n" + ANSWERS_B2
    spec = _daemon_bot(tmp_path, marker, answers=killer)
    started = time.monotonic()
    process = subprocess.run(
        [sys.executable, "-m", "foursquare_cli", "stats", "-n", "2", "-p", spec],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert process.returncode == 0, process.stderr
    assert _gone(marker) == []
    assert time.monotonic() - started < 4.5, "a stopped warden is woken to end its tree, not waited for"


@pytest.mark.posix
def test_a_wait_for_a_program_s_output_ends_on_time_under_a_rain_of_signals():
    """A run hung in CI: Python 3.11's SimpleQueue.get(timeout=...) woken by a signal just past its deadline
    waits again with a negative time, which is for ever. The wait for output must end, signals or not (here
    a hang is broken after 15 s by the signal's handler raising, so the test fails rather than hangs)."""
    import threading

    from foursquare_cli.players import processes

    silent = processes.PlayerProcess([sys.executable, "-c", "import time; time.sleep(30)"])
    expired, done = threading.Event(), threading.Event()

    def heard(*_: object) -> None:
        if expired.is_set():
            raise TimeoutError("a 2 ms wait for output never ended")

    def rain() -> None:
        deadline = time.monotonic() + 15
        while not done.is_set():
            if time.monotonic() > deadline:
                expired.set()
            os.kill(os.getpid(), signal.SIGUSR1)
            time.sleep(0.0003)

    previous = signal.signal(signal.SIGUSR1, heard)
    raining = threading.Thread(target=rain, daemon=True)
    try:
        raining.start()
        for _ in range(500):
            assert silent.output(0.002) is None
    finally:
        done.set()
        raining.join(5)
        signal.signal(signal.SIGUSR1, previous)
        silent.end()
