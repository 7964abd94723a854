"""Shared helpers: decks that begin with chosen cards, and positions built by playing moves."""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import subprocess
import sys
import time

import pytest
from hypothesis import HealthCheck, settings

from foursquare_cli.rules.cards import CARDS, Card
from foursquare_cli.rules.engine import State
from foursquare_cli.rules.moves import Move

_own_data_folder = pytest.StashKey[str]()

# The properties are about the game, not the clock: on a loaded machine (a CI runner, a laptop doing a
# long run) Hypothesis's time checks (200 ms an example, slow input generation) fail tests that hold.
# The README's run tries each property on a third of the examples CI tries it on (CI's second run of the same
# tests sets FOURSQUARE_TESTS_THOROUGH=1): a minute of CPU for a player's checkout, the full count on every change.
THOROUGH = os.environ.get("FOURSQUARE_TESTS_THOROUGH") == "1"


def examples(count: int) -> int:
    """The examples a property is tried on: `count` in CI's thorough run, a third of it (20 at least) otherwise."""
    return count if THOROUGH else max(20, count // 3)


settings.register_profile(
    "any_machine", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=examples(100)
)
settings.load_profile("any_machine")


def deck_starting(*names: str) -> tuple[Card, ...]:
    """A legal deck whose first cards are `names`, the rest in ordered-deck order."""
    first = [Card.from_str(name) for name in names]
    return tuple(first + [card for card in CARDS if card not in first])


def played(deck: tuple[Card, ...], *moves: str) -> State:
    state = State(deck)
    for text in moves:
        state.apply(Move.from_str(text))
    return state


def grid_rows(state: State) -> list[str]:
    """Each row as the protocol.md section 6 table writes it: `.` empty, `#` before a face-down card."""
    rows = []
    for row in range(4):
        cells = []
        for cell in range(row * 4, row * 4 + 4):
            top = state.top(cell)
            cells.append("." if top is None else ("" if state.is_face_up(cell) else "#") + str(top))
        rows.append(" ".join(cells))
    return rows


@pytest.fixture
def worked_deck() -> tuple[Card, ...]:
    """The stock of protocol.md section 6: 5S 7H 5D 5H 2C 8C AD 9S, then the rest."""
    return deck_starting("5S", "7H", "5D", "5H", "2C", "8C", "AD", "9S")


def position(rows: list[str], *hand: str, buried: int = 0) -> State:
    """A position laid out with the engine's `State.from_grid` (rows as `grid_rows` writes them).

    `hand` are the next cards of the stock, in order. `buried` more cards, named
    nowhere else, are put under the top cards (three at most under each), so that
    many more cards count as drawn: a way to reach the end of the stock.
    """
    named = {word.lstrip("#") for row in rows for word in row.split() if word != "."} | set(hand)
    spare = iter(str(card) for card in CARDS if str(card) not in named)
    laid = []
    for row in rows:
        words = []
        for word in row.split():
            under = 0 if word == "." else min(3, buried)
            buried -= under
            below = "".join(next(spare) + "/" for _ in range(under))
            words.append(word if not under else ("#" if word.startswith("#") else "") + below + word.lstrip("#"))
        laid.append(" ".join(words))
    assert buried == 0, "too many cards to bury under these piles"
    return State.from_grid(laid, list(hand))


def redealt(state: State, rng) -> State:
    """A copy of `state` whose unseen cards are shuffled anew: a position a player could face, the same to them."""
    unseen = state.unseen_cards()
    rng.shuffle(unseen)
    future = state.copy()
    future.deck = state.deck[: state.drawn + 1] + tuple(unseen)
    return future


def random_legal_play(state: State, data, most: int) -> list[Move]:
    """Up to `most` legal moves drawn by hypothesis (`data` is `st.data()`), played on `state`."""
    from hypothesis import strategies as st

    moves = []
    for _ in range(data.draw(st.integers(0, most))):
        if state.is_over:
            break
        move = data.draw(st.sampled_from(state.legal_moves()))
        state.apply(move)
        moves.append(move)
    return moves


_DATA_FOLDER = "FOURSQUARE_HOME"


def pytest_configure(config: pytest.Config) -> None:
    """Every game the tests play is kept in a folder of their own, never in the user's data folder; no settings
    file of the user's applies; and the tool the tests start runs from compiled modules, as a user's does
    (a machine with PYTHONDONTWRITEBYTECODE set would compile the whole package at every start, and pytest
    rewrite every test module at every run)."""
    import compileall
    import os
    import sys
    import tempfile

    import foursquare_cli

    config.stash[_own_data_folder] = os.environ[_DATA_FOLDER] = tempfile.mkdtemp(prefix="foursquare-tests-")
    # Worker processes start with `spawn`, which imports the program's main module again: here that is pytest's
    # own script, not the tool, so the tests' workers are spared importing pytest (the tool's own main imports
    # nothing heavy, see foursquare_cli/__main__.py).
    main = sys.modules.get("__main__")
    if main is not None and getattr(main, "__spec__", None) is None and hasattr(main, "__file__"):
        del main.__file__
    os.environ.setdefault("FOURSQUARE_CONFIG", os.path.join(os.environ[_DATA_FOLDER], "no-settings.toml"))
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    sys.dont_write_bytecode = False  # and pytest keeps its rewritten test modules, rather than rewrite them each run
    compileall.compile_dir(os.path.dirname(foursquare_cli.__file__), quiet=1)


@pytest.fixture(autouse=True)
def _no_width_of_the_runners_terminal(monkeypatch):
    """The width of whatever terminal runs the tests is not theirs: a test that needs one sets `COLUMNS`. Set
    empty, not removed: GNU readline, once something imports it, writes its own `COLUMNS` into the process's
    environment, which the programs the tests start would inherit."""
    monkeypatch.setenv("COLUMNS", "")


@pytest.fixture(autouse=True)
def _a_quick_look_at_what_the_deal_allowed(monkeypatch):
    """The end screen of a game at the prompt asks the solver what the deal allowed, with a budget of a second
    or so: in-process tests, dozens of games that test other things, ask with a twentieth of it. The games at
    a real terminal (test_play, test_prompt), which check that line, run the tool with its whole budget."""
    from foursquare_cli.app import session

    monkeypatch.setattr(session, "DEAL_BUDGET", session.DEAL_BUDGET // 20)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked `posix` (signals, /proc, terminals, FIFOs, process groups) skip where there is no POSIX,
    with the reason said: on Windows, the Windows-shaped run's commands stand for them."""
    import os

    if os.name == "posix":
        return
    skip = pytest.mark.skip(reason="POSIX only (signals, /proc, terminals, FIFOs or process groups)")
    for item in items:
        if "posix" in item.keywords:
            item.add_marker(skip)


def pytest_unconfigure(config: pytest.Config) -> None:
    """The tests' data folder goes with them (it once stayed behind, one a run)."""
    import shutil

    folder = config.stash.get(_own_data_folder, None)
    if folder is not None:
        shutil.rmtree(folder, ignore_errors=True)


def tool_environment(**extra: str) -> dict[str, str]:
    """The environment for running the tool: the installed `foursquare` first on the PATH (so the commands
    it suggests name it so), and `extra` on top."""
    import os
    import sys

    environment = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ.get("PATH", ""))
    environment.update(extra)
    return environment


def spawn_play(*args: str, cwd: str | None = None, colour: bool = False, **env: str):
    """`foursquare play ARGS` at a real terminal (pexpect); colour only when asked."""
    import sys

    import pexpect

    environment = tool_environment(COLUMNS="100", TERM="xterm", **env)
    if colour:
        environment.pop("NO_COLOR", None)
    else:
        environment["NO_COLOR"] = "1"
    return pexpect.spawn(
        sys.executable,
        ["-m", "foursquare_cli", "play", *args],
        encoding="utf-8",
        timeout=30,
        cwd=cwd,
        env=environment,
        dimensions=(50, 120),
        preexec_fn=signals_heard,
    )


def spawn_tool(*arguments: str, width: int = 80, timeout: int = 60, encoding: str | None = "utf-8"):
    """`foursquare ARGUMENTS` at a real terminal `width` columns wide (pexpect), in this process's environment:
    what a run's bar and its Ctrl-C do where a user sees them."""
    import sys

    import pexpect

    command = ["-m", "foursquare_cli", *arguments]
    return pexpect.spawn(sys.executable, command, encoding=encoding, timeout=timeout, dimensions=(24, width))


def installed_beside(folder: pathlib.Path, name: str, entry_points: str, module: str, source: str) -> pathlib.Path:
    """A package installed as pip installs one, in `folder` (to put on the import path): its module and its
    dist-info, whose entry_points.txt is what importlib.metadata reads."""
    (folder / f"{module}.py").write_text(source, encoding="utf-8")
    info = folder / f"{name}-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(entry_points, encoding="utf-8")
    return folder


def processes_running(marker: str) -> list[int]:
    """The processes whose command line holds `marker`: none may be left behind."""
    import pathlib

    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker in (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace"):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _stat_fields(pid: int) -> list[str] | None:
    """The fields of /proc/PID/stat after the command's name (state first, then the parent's pid), or None."""
    try:
        text = open(f"/proc/{pid}/stat").read()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def alive(pids: list[int]) -> list[int]:
    """Those of `pids` still running (a zombie, dead but not yet reaped, is not running)."""
    return [pid for pid in pids if (fields := _stat_fields(pid)) is not None and fields[0] != "Z"]


def worker_processes(parent: int) -> list[int]:
    """The live worker processes of a run: children of `parent` that multiprocessing spawned (their command
    line runs `spawn_main`; workers start with `spawn`, so they do not carry the run's own command line)."""
    import pathlib

    found = []
    for entry in pathlib.Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat_fields(int(entry.name))
            if fields is None or fields[0] == "Z" or int(fields[1]) != parent:
                continue
            try:
                if b"spawn_main" in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@contextlib.contextmanager
def dask_scheduler(tmp_path):
    """A `dask scheduler` process on 127.0.0.1 (an ephemeral port), and its address; killed at the end."""
    file = tmp_path / "scheduler.json"
    process = subprocess.Popen(
        [
            str(pathlib.Path(sys.executable).parent / "dask"),
            "scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(file),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.2)
        yield process, json.loads(file.read_text())["address"]
    finally:
        process.kill()
        process.wait(timeout=30)


@contextlib.contextmanager
def dask_worker(address, nanny=False, **env):
    """A `dask worker` process of that scheduler (with its nanny when asked), joined before it is yielded."""
    process = subprocess.Popen(
        [
            str(pathlib.Path(sys.executable).parent / "dask"),
            "worker",
            address,
            "--nworkers",
            "1",
            "--nthreads",
            "1",
            "--host",
            "127.0.0.1",
            "--no-dashboard",
            "--nanny" if nanny else "--no-nanny",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ, **env),
    )
    try:
        with __import__("distributed").Client(address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(1, timeout=60)
        yield process
    finally:
        process.kill()
        process.wait(timeout=30)


def at_the_table(
    session,
    *lines,
    style=None,
    cards_to_come=False,
    meter=False,
    player=None,
    looking_back=False,
    reopen=None,
    width=None,
    echo=False,
) -> tuple[int, str]:
    """Play `lines` at the prompt (an exception class is raised there, as Ctrl-C is), then the end of input: the
    exit code the game ended with (0 when it ended well) and all it printed, the prompts included (and what
    was typed after each, as a terminal echoes it, with `echo`)."""
    import io

    from foursquare_cli.app.table import Table
    from foursquare_cli.players import PlayerSpec, Strength
    from foursquare_cli.ui.board import PLAIN
    from foursquare_cli.ui.output import Screen
    from foursquare_cli.ui.terminal import PromptScreen

    answers = list(lines)
    out = io.StringIO()

    def read_line(prompt: str) -> str:
        out.write(prompt)
        if not answers:
            raise EOFError
        answer = answers.pop(0)
        if isinstance(answer, type):
            raise answer
        if echo:
            out.write(answer + "\n")
        return answer

    screen = Screen(style or PLAIN, out=out, prompt=True, width=(lambda: width) if width else None)
    expert = player or PlayerSpec(strength=Strength(200))
    session.expert = expert  # a quick expert for the hint and the meter, unless a test gives its own

    def reopened(seed, game):
        again, said = reopen(seed, game)
        again.expert = expert
        return again, said

    table = Table(
        session,
        PromptScreen(screen, read_line),
        reopen=reopened if reopen is not None else None,
        cards_to_come=cards_to_come,
        meter=meter,
        looking_back=looking_back,
    )
    return int(table.run()), out.getvalue()


def in_process(*arguments: str, input: str | bytes = "", cwd=None, **env: str) -> subprocess.CompletedProcess:
    """`foursquare ARGUMENTS` run in this process (typer's CliRunner), as a CompletedProcess: what a test of the
    output, the files and the exit code needs, without the cost of starting Python; a test of signals, pipes
    or terminals starts a real process instead."""
    from typer.testing import CliRunner

    from foursquare_cli.cli import app

    previous = os.getcwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = CliRunner().invoke(app, list(arguments), input=input, env=env or None, prog_name="foursquare")
    finally:
        os.chdir(previous)
    return subprocess.CompletedProcess(list(arguments), result.exit_code, result.stdout, result.stderr)


def signals_heard() -> None:
    """For a test's process that is sent Ctrl-C or a hangup: those signals back to their defaults. A shell runs
    a command in the background with SIGINT ignored, and `nohup` ignores SIGHUP; the tool rightly keeps
    ignoring what it was started ignoring, so a test of a signal the tool hears (run from a script, in the
    background or under nohup) must start it hearing them (`preexec_fn`, POSIX only, as these tests are)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)


def _children_seconds() -> float | None:
    try:
        import resource  # POSIX only: Windows has no such count, and the run says so
    except ImportError:
        return None
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


_CHILDREN_BEFORE = _children_seconds()
"""What the process's children had spent before the tests began. A shell runs the last command of
`a && b && pytest` (the README's test command, as CI runs it) in its own process, and the children it
waited for, the virtual environment and pip's install, would count as the tests' own: some 25 s."""


def _cpu_seconds() -> float | None:
    """The CPU seconds (user and system) of this run: the test process and every process it waited for."""
    try:
        import resource  # POSIX only: Windows has no such count, and the run says so
    except ImportError:
        return None
    used = resource.getrusage(resource.RUSAGE_SELF)
    children = (_children_seconds() or 0.0) - (_CHILDREN_BEFORE or 0.0)
    return used.ru_utime + used.ru_stime + children


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The run's CPU seconds, the figure the default run is held to (a minute on two cores; CI fails past 90).
    With FOURSQUARE_TEST_CPU_FILE set, also written there, for CI to read."""
    spent = _cpu_seconds()
    if spent is None:
        return
    terminalreporter.write_line(f"CPU: {spent:.1f} s (the tests and the processes they waited for)")
    where = os.environ.get("FOURSQUARE_TEST_CPU_FILE")
    if where:
        pathlib.Path(where).write_text(f"{spent:.1f}\n", encoding="utf-8")
