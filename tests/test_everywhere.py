"""One codebase for Linux, macOS and Windows (issue 31): the pieces that differ by platform, each held."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from foursquare_cli.store import files
from foursquare_cli.store.locking import ExclusiveLock

ROOT = pathlib.Path(__file__).resolve().parent.parent


def test_a_lock_is_held_once_and_its_file_goes_with_it(tmp_path):
    path = str(tmp_path / ".game.yaml.lock")
    first = ExclusiveLock.acquire(path)
    assert first is not None
    assert ExclusiveLock.acquire(path) is None, "a second holder is refused, even in the same process"
    first.release()
    first.release()  # twice is harmless
    assert not os.path.exists(path)
    with ExclusiveLock.acquire(path) as again:
        assert again is not None and os.path.exists(path)
    assert not os.path.exists(path)


def test_a_lock_ends_with_the_process_that_held_it(tmp_path):
    path = tmp_path / ".held.lock"
    code = f"from foursquare_cli.store.locking import ExclusiveLock; l = ExclusiveLock.acquire({str(path)!r}); "
    code += "import os; os._exit(0 if l else 1)"  # dies holding it, without releasing: no stale lock
    assert subprocess.run([sys.executable, "-c", code], timeout=60).returncode == 0
    assert path.exists(), "the killed holder left its file"
    lock = ExclusiveLock.acquire(str(path))
    assert lock is not None, "but not its lock"
    lock.release()


def test_a_rename_refused_for_a_moment_on_windows_is_tried_again(monkeypatch, tmp_path):
    calls, naps = [], []

    def busy_twice(source, target):
        calls.append(target)
        if len(calls) <= 2:
            raise PermissionError(13, "The process cannot access the file because it is being used by another process")
        os.rename(source, target)

    (tmp_path / "new").write_text("new")
    monkeypatch.setattr(files.os, "replace", busy_twice)
    monkeypatch.setattr(files.sys, "platform", "win32")
    files.replace_file(str(tmp_path / "new"), str(tmp_path / "record"), sleep=naps.append)
    assert (tmp_path / "record").read_text() == "new" and len(calls) == 3 and naps == [0.05, 0.05]


def test_a_rename_refused_elsewhere_is_an_error_at_once(monkeypatch, tmp_path):
    def refused(source, target):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(files.os, "replace", refused)
    monkeypatch.setattr(files.sys, "platform", "linux")
    with pytest.raises(PermissionError):
        files.replace_file("a", "b", sleep=lambda seconds: pytest.fail("no retry off Windows"))


def test_a_rename_that_stays_refused_on_windows_is_an_error_after_a_second(monkeypatch):
    naps = []

    def refused(source, target):
        raise PermissionError(13, "in use")

    monkeypatch.setattr(files.os, "replace", refused)
    monkeypatch.setattr(files.sys, "platform", "win32")
    with pytest.raises(PermissionError):
        files.replace_file("a", "b", sleep=naps.append)
    assert sum(naps) == pytest.approx(0.95)


def test_settings_and_data_live_where_each_platform_keeps_them(monkeypatch, tmp_path):
    import platformdirs

    from foursquare_cli.store.config import config_path
    from foursquare_cli.store.history import data_folder

    monkeypatch.delenv("FOURSQUARE_CONFIG", raising=False)
    monkeypatch.delenv("FOURSQUARE_HOME", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    if sys.platform.startswith("linux"):
        assert config_path() == tmp_path / "config" / "foursquare" / "config.toml"
        assert data_folder() == tmp_path / "data" / "foursquare"
    assert config_path().parent == pathlib.Path(platformdirs.user_config_dir("foursquare", False, roaming=True))
    assert data_folder() == pathlib.Path(platformdirs.user_data_dir("foursquare", False, roaming=True))


def test_ci_runs_the_readmes_test_command_as_the_readme_writes_it():
    readme = (ROOT / "README.md").read_text().splitlines()
    command = readme[readme.index("# set up and run the tests") + 1]
    assert command == "python3.11 -m venv .venv && .venv/bin/pip install -e '.[test,dev]' && .venv/bin/pytest"
    found = subprocess.run(
        ["sed", "-n", "/^# set up and run the tests$/{n;p;q}", str(ROOT / "README.md")], capture_output=True, text=True
    )
    assert found.stdout.rstrip("\n") == command  # what .ci/run reads and runs
    ci = (ROOT / ".ci" / "run").read_text()
    assert 'bash -c "$readme_test"' in ci
    assert ci.index('bash -c "$readme_test"') < ci.index("cluster,gym"), "the README's command runs before the extras"
    for platform in ("linux", "darwin", "win32"):
        assert platform in ci
