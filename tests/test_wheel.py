"""A wheel (issue 31): `pip wheel .` builds one that installs into a fresh virtual environment and runs
outside the source tree, with its C playouts, its workers, its module players and its warden."""

from __future__ import annotations

import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.slow
@pytest.mark.posix
def test_the_wheel_installs_into_a_fresh_venv_and_runs_outside_the_source_tree(tmp_path):
    wheels, source = tmp_path / "wheels", tmp_path / "source"
    # built from a copy, as from a fresh clone: pip builds in the tree, and the clone stays clean
    shutil.copytree(
        ROOT, source, ignore=shutil.ignore_patterns(".git", ".venv", "build", "*.so", "*.egg-info", ".*_cache")
    )
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheels), str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("foursquare_cli-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    install = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--quiet", "--disable-pip-version-check", str(wheel)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert install.returncode == 0, install.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    shutil.copy(ROOT / "samples" / "won.yaml", elsewhere / "won.yaml")
    environment = {
        key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")
    }
    environment.update(FOURSQUARE_HOME=str(tmp_path / "home"), PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")

    def tool(*arguments: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(venv / "bin" / "foursquare"), *arguments],
            input=stdin,
            capture_output=True,
            text=True,
            cwd=elsewhere,
            env=environment,
            timeout=120,
        )

    where = subprocess.run(
        [str(venv / "bin" / "python"), "-c", "import foursquare_cli; print(foursquare_cli.__file__)"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=environment,
    )
    assert str(venv) in where.stdout, "the installed copy runs, not the source tree"
    assert tool("--version").stdout.endswith("(playouts in C)\n")
    played = tool("play", "--seed", "42", stdin="B2\nC2\nquit\n")
    assert played.returncode == 0, played.stderr
    assert "Next card: 6C" in played.stdout
    assert tool("check", "won.yaml").stdout == "won.yaml: won, score 9, 31 moves\n"
    examples = ROOT / "examples"
    environment["PYTHONPATH"] = str(examples)
    for player in (
        "greedy",
        "greedy_player:GreedyPlayer",
        f"cmd:{venv / 'bin' / 'python'} {examples / 'greedy_bot.py'}",
    ):
        figures = tool("stats", "-n", "4", "--jobs", "2", "-p", player, "--format", "json")
        assert figures.returncode == 0, figures.stderr
        assert json.loads(figures.stdout)["forfeits"] == {}
