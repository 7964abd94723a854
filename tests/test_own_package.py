"""A player of your own package (docs/players.md): the guide shows examples/own_package/ file for file, and that
package plays once installed: found by its `foursquare.players` entry point, run in a process of its own."""

from __future__ import annotations

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "examples" / "own_package"
GUIDE = ROOT / "docs" / "players.md"
FILES = ("pyproject.toml", "cautious_player.py")


def _block(name: str) -> str:
    """The code block of the guide that follows `<!-- example: own_package/NAME -->`."""
    text = GUIDE.read_text(encoding="utf-8")
    found = re.search(rf"<!-- example: own_package/{re.escape(name)} -->\n```\w*\n(.*?)\n```", text, re.S)
    assert found is not None, f"docs/players.md shows no own_package/{name}"
    return found.group(1) + "\n"


@pytest.mark.parametrize("name", FILES)
def test_the_guide_shows_the_package_file_for_file(name):
    assert _block(name) == (PACKAGE / name).read_text(encoding="utf-8")


def _project() -> dict:
    return tomllib.loads((PACKAGE / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_the_package_depends_on_the_tools_distribution_not_on_the_other_foursquare():
    tool = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["name"]
    assert _project()["dependencies"] == [tool] == ["foursquare-cli"]


def _stats(python: str, cwd: pathlib.Path, **env: str) -> dict:
    """`foursquare stats --player cautious -n 2` in a process of its own, its JSON."""
    environment = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    command = [python, "-m", "foursquare_cli", "stats", "--player", "cautious", "-n", "2", "--format", "json"]
    done = subprocess.run(command, capture_output=True, text=True, cwd=cwd, env={**environment, **env}, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow  # a long multi-process run: CI's `-m slow` step
def test_the_package_plays_once_its_entry_point_is_on_the_path(tmp_path):
    """Installed as pip would install it (its module and a dist-info whose entry_points.txt is read), without pip:
    the entry point is the one its pyproject.toml declares."""
    project = _project()
    ((name, target),) = project["entry-points"]["foursquare.players"].items()
    (tmp_path / "cautious_player.py").write_text((PACKAGE / "cautious_player.py").read_text(encoding="utf-8"))
    info = tmp_path / f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(f"[foursquare.players]\n{name} = {target}\n", encoding="utf-8")
    figures = _stats(sys.executable, tmp_path, PYTHONPATH=str(tmp_path))
    assert (figures["player"], figures["games"], figures["forfeits"]) == ("cautious", 2, {})


@pytest.mark.slow
@pytest.mark.posix
def test_the_package_installs_with_pip_into_a_fresh_environment_and_plays(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=300)
    python = str(venv / "bin" / "python")
    where = [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    site_packages = pathlib.Path(subprocess.run(where, capture_output=True, text=True, check=True).stdout.strip())
    # The tool as this environment has it installed (an editable install's finder included), as a system-wide
    # install would be seen through --system-site-packages.
    tool = sysconfig.get_paths()["purelib"]
    (site_packages / "foursquare_tool.pth").write_text(f"import site; site.addsitedir({tool!r})\n")
    source = shutil.copytree(PACKAGE, tmp_path / "own_package")  # pip builds in the tree: not in the repository's
    # --no-deps: the tool is the one seen above. The build is isolated (setuptools from the index, as the wheel
    # tests build theirs): a fresh environment's own setuptools before 70.1 cannot make a wheel without `wheel`.
    install = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", str(source)]
    done = subprocess.run(install, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    figures = _stats(python, elsewhere)
    assert (figures["player"], figures["games"], figures["forfeits"]) == ("cautious", 2, {})
