"""A cluster run trusts no worker blindly (issue 32): a worker of another build or without the tool is refused
by name; every failure (an address that is not one, something that is not a scheduler, a scheduler lost, every
worker gone, a player that kills its worker) is one line and a documented exit code within a bounded time, the
games already played kept. Services run on 127.0.0.1 only, started and ended by the tests."""

from __future__ import annotations

import contextlib
import json
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import threading
import time

import pytest
from conftest import dask_scheduler, dask_worker

pytestmark = [pytest.mark.slow, pytest.mark.posix]
distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")

TOOL = [sys.executable, "-m", "foursquare_cli"]
BIN = pathlib.Path(sys.executable).parent
ROOT = pathlib.Path(__file__).resolve().parent.parent


def _one_line(result) -> str:
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr


def _tool(*arguments, timeout=120, **env):
    return subprocess.run(
        [*TOOL, *arguments], capture_output=True, text=True, timeout=timeout, env=dict(os.environ, **env)
    )


def test_an_address_that_is_not_one_is_one_line_at_once():
    began = time.monotonic()
    result = _tool("stats", "-n", "2", "-p", "greedy", "--cluster", "not an address")
    assert result.returncode == 2 and time.monotonic() - began < 20
    assert _one_line(result) == (
        "foursquare stats: 'not an address': not a cluster address; give one like tcp://10.0.0.1:8786\n"
    )


@pytest.mark.parametrize("says", [b"", b"\xff" * 64])
def test_something_that_is_not_a_scheduler_is_one_line_within_a_bounded_time(says):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    held = []

    def answer():
        with contextlib.suppress(OSError):
            while True:
                connection, _ = listener.accept()
                held.append(connection)
                if says:
                    connection.sendall(says)

    threading.Thread(target=answer, daemon=True).start()
    began = time.monotonic()
    result = _tool("stats", "-n", "2", "-p", "greedy", "--cluster", f"tcp://127.0.0.1:{port}")
    listener.close()
    assert result.returncode == 2 and time.monotonic() - began < 40
    line = _one_line(result)
    assert line.startswith("foursquare stats: ") and f"127.0.0.1:{port}" in line


def test_a_worker_without_the_tool_or_of_another_build_is_refused_by_name(tmp_path):
    without = tmp_path / "without"
    without.mkdir()
    (without / "sitecustomize.py").write_text("import sys\nsys.modules['foursquare_cli'] = None\n")
    other = tmp_path / "other"
    shutil.copytree(ROOT / "foursquare_cli", other / "foursquare_cli", ignore=shutil.ignore_patterns("__pycache__"))
    with open(other / "foursquare_cli" / "rules" / "cards.py", "a") as changed:
        changed.write("\n# another commit\n")
    with dask_scheduler(tmp_path) as (_, address):
        with dask_worker(address, PYTHONPATH=str(without)):
            result = _tool("stats", "-n", "2", "-p", "greedy", "--cluster", address)
            assert result.returncode == 2
            assert "has no foursquare installed; install this one on every worker" in _one_line(result)
        with dask_worker(address, PYTHONPATH=str(other)):
            result = _tool("stats", "-n", "2", "-p", "greedy", "--cluster", address)
            assert result.returncode == 2
            assert "runs another build of foursquare" in _one_line(result)


def test_a_scheduler_lost_mid_run_is_one_line_and_the_games_played_are_kept(tmp_path):
    results = tmp_path / "r.jsonl"
    with dask_scheduler(tmp_path) as (scheduler, address), dask_worker(address):
        run = subprocess.Popen(
            [
                *TOOL,
                "stats",
                "-n",
                "400",
                "-p",
                "expert",
                "--playouts",
                "30",
                "--cluster",
                address,
                "--results",
                str(results),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        deadline = time.monotonic() + 60
        while (not results.exists() or results.read_text().count("\n") < 3) and time.monotonic() < deadline:
            time.sleep(0.2)
        scheduler.kill()
        out, err = run.communicate(timeout=90)
    assert run.returncode == 75, err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert err.startswith(f"foursquare stats: lost the scheduler at {address}")
    kept = results.read_text().splitlines()
    assert len(kept) >= 2 and all(json.loads(line) for line in kept)


def test_every_worker_gone_ends_the_run_within_a_bounded_time(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from foursquare_cli.cli import app
    from foursquare_cli.runs import cluster

    monkeypatch.setattr(cluster, "NO_WORKER_SECONDS", 3.0)
    with dask_scheduler(tmp_path) as (_, address):
        with dask_worker(address) as worker:
            threading.Timer(4.0, worker.kill).start()
            began = time.monotonic()
            result = CliRunner().invoke(
                app, ["stats", "-n", "2000", "-p", "expert", "--playouts", "30", "--cluster", address]
            )
    assert result.exit_code == 75, result.stderr
    assert "no worker left on the cluster for 3 s" in result.stderr and time.monotonic() - began < 60


KILLER = """
import os, signal
def worker_of(pid):  # the dask worker above this process (its warden and host between)
    while pid > 1:
        command = open(f"/proc/{pid}/cmdline", "rb").read()
        if b"spawn_main" in command or b"dask" in command:
            return pid
        pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
class Killer:
    def choose(self, state):
        os.kill(worker_of(os.getppid()), signal.SIGKILL)
"""


def test_a_player_that_kills_its_worker_is_one_line_exit_75(tmp_path):
    (tmp_path / "killer.py").write_text(KILLER)
    with dask_scheduler(tmp_path) as (_, address), dask_worker(address, nanny=True, PYTHONPATH=str(tmp_path)):
        result = _tool(
            "stats",
            "-n",
            "2",
            "-p",
            "killer:Killer",
            "--cluster",
            address,
            "--sealed",
            timeout=240,
            PYTHONPATH=str(tmp_path),
        )
    assert result.returncode == 75, result.stderr
    line = _one_line(result)
    assert "workers died playing the same games three times" in line or "no worker left" in line


def test_a_long_address_is_refused_at_once_and_echoed_short():
    began = time.monotonic()
    result = _tool("stats", "-n", "2", "-p", "greedy", "--cluster", "tcp://" + "a" * 5000 + ":8786")
    assert result.returncode == 2 and time.monotonic() - began < 10
    assert len(_one_line(result)) < 300 and "not a cluster address" in result.stderr


SLOW_PLAYER = """
import time

class Slow:
    def choose(self, state):
        time.sleep(0.2)
        return state.legal_moves()[0]
"""


def test_a_worker_that_joins_mid_run_is_checked_and_one_of_another_build_plays_nothing(tmp_path):
    """A run on one worker; a worker of another build joins while it plays (its copy of the package logs every
    batch it is given into a file). The run ends well, with the figures of a run here, and that worker played
    no game: each batch checks its worker's build before it plays, and goes again to the workers checked."""
    (tmp_path / "slow.py").write_text(SLOW_PLAYER)
    other = tmp_path / "other"
    shutil.copytree(ROOT / "foursquare_cli", other / "foursquare_cli", ignore=shutil.ignore_patterns("__pycache__"))
    played_there = tmp_path / "played-there.txt"
    with open(other / "foursquare_cli" / "runs" / "stats.py", "a") as changed:  # another build, which says so
        changed.write(
            f"\n_real = play_deal_together\n\ndef play_deal_together(*args, **kwargs):\n"
            f"    open({str(played_there)!r}, 'a').write('played\\n')\n"
            f"    return _real(*args, **kwargs)\n"
        )
    arguments = ["stats", "-n", "20", "-p", "slow:Slow", "-f", "json"]
    with dask_scheduler(tmp_path) as (_, address), dask_worker(address, PYTHONPATH=str(tmp_path)):
        environment = dict(os.environ, PYTHONPATH=str(tmp_path))
        run = subprocess.Popen(
            [*TOOL, *arguments, "--cluster", address],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        time.sleep(3)
        with dask_worker(address, PYTHONPATH=f"{other}{os.pathsep}{tmp_path}"):
            out, err = run.communicate(timeout=300)
    assert run.returncode == 0 and err == "", err
    here = _tool(*arguments, PYTHONPATH=str(tmp_path))
    assert json.loads(out)["wins"] == json.loads(here.stdout)["wins"]
    assert json.loads(out)["lost_deals"] == json.loads(here.stdout)["lost_deals"]
    assert not played_there.exists(), "the worker of another build played a game"


def test_a_program_a_worker_started_ends_with_the_run(tmp_path):
    from conftest import processes_running

    bot = tmp_path / "cluster_bot.py"
    bot.write_text((ROOT / "examples" / "greedy_bot.py").read_text())
    with dask_scheduler(tmp_path) as (_, address), dask_worker(address):
        result = _tool("stats", "-n", "3", "-p", f"cmd:{sys.executable} {bot}", "--cluster", address, "--sealed")
        assert result.returncode == 0, result.stderr
        deadline = time.monotonic() + 10
        while processes_running(str(bot)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert processes_running(str(bot)) == [], "the worker still runs the program after the run"
