"""The smaller hostile cases of issue 32: a settings file that is a FIFO or starts with a byte-order mark, the
Gymnasium environment given something that is not an integer, another program's empty SQLite file."""

from __future__ import annotations

import os
import sqlite3
import time

import pytest
from typer.testing import CliRunner

from foursquare_cli.cli import app
from foursquare_cli.errors import ExitStatus

runner = CliRunner()


@pytest.mark.posix
def test_a_fifo_as_the_settings_file_is_refused_at_once(tmp_path, monkeypatch):
    fifo = tmp_path / "config.toml"
    os.mkfifo(fifo)
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(fifo))
    began = time.monotonic()
    result = runner.invoke(app, ["deal", "--seed", "1"])
    assert time.monotonic() - began < 5
    assert result.exit_code == ExitStatus.USAGE
    assert "not a regular file (a FIFO)" in result.stderr and str(fifo) in result.stderr
    assert result.stderr.count("\n") == 1


@pytest.mark.posix
def test_a_device_as_the_settings_file_is_refused(monkeypatch):
    monkeypatch.setenv("FOURSQUARE_CONFIG", "/dev/zero")
    result = runner.invoke(app, ["deal", "--seed", "1"])
    assert result.exit_code == ExitStatus.USAGE
    assert result.stderr.endswith(
        "/dev/zero: not a regular file (a device); a settings file is a TOML file of a few lines\n"
    )


@pytest.mark.parametrize("nested", ["a = " + "[" * 20000 + "]" * 20000, "a = " + "{b=" * 5000 + "1" + "}" * 5000])
def test_a_settings_file_nested_thousands_deep_is_one_line_not_a_crash(tmp_path, monkeypatch, nested):
    settings = tmp_path / "config.toml"
    settings.write_text(nested + "\n")
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(settings))
    result = runner.invoke(app, ["deal", "--seed", "1"])
    assert result.exit_code == ExitStatus.USAGE
    assert result.stderr == f"foursquare deal: {settings}: not TOML of ours: nested too deep\n"


def test_a_broken_settings_file_stops_what_it_sets_but_not_the_rules_or_help(tmp_path, monkeypatch):
    """A file the tool cannot read refuses the commands whose options it sets (in one line), but the rules
    read nothing of it, and help (the way to mend it) says so in one line and shows the tool's own defaults."""
    settings = tmp_path / "config.toml"
    settings.write_text("reveal = [\n")
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(settings))
    refused = runner.invoke(app, ["play", "--seed", "1"], input="")
    assert refused.exit_code == ExitStatus.USAGE and refused.stdout == "" and refused.stderr.count("\n") == 1
    rules = runner.invoke(app, ["rules"])
    assert rules.exit_code == 0 and "4x4 grid" in rules.stdout and rules.stderr == ""
    for asked in (["help", "play"], ["play", "--help"]):
        helped = runner.invoke(app, asked)
        assert helped.exit_code == 0 and "--reveal" in helped.stdout, asked
        assert helped.stderr.count("\n") == 1 and str(settings) in helped.stderr and "left out" in helped.stderr


def test_the_commands_that_read_no_setting_are_those_without_an_option_a_setting_gives(tmp_path, monkeypatch):
    """An outside try: a broken settings file refused `completion`, which takes no setting. The list of the
    commands that never read the file is held to their options, and each of them runs beside a broken one."""
    import typer

    from foursquare_cli.app.config import SETTING_DEFAULTS
    from foursquare_cli.cli.app import COMMAND_ORDER, SETTINGS_SHOWN_ONLY, SETTINGS_UNREAD

    group = typer.main.get_command(app)
    context = group.make_context("foursquare", ["rules"])
    options = {name: {p.name for p in group.get_command(context, name).params} for name in COMMAND_ORDER}
    without = {name for name, given in options.items() if not given & set(SETTING_DEFAULTS)}
    assert SETTINGS_UNREAD == without - SETTINGS_SHOWN_ONLY - {"config"}  # config shows the file, or why not
    settings = tmp_path / "config.toml"
    settings.write_text("reveal = [\n")
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(settings))
    for asked in (["completion", "bash"], ["schema"], ["check", "samples/won.yaml"], ["rules"], ["history"]):
        result = runner.invoke(app, asked)
        assert result.exit_code == 0 and result.stderr == "", (asked, result.stderr)


def test_a_byte_order_mark_is_named_as_such(tmp_path, monkeypatch):
    settings = tmp_path / "config.toml"
    settings.write_bytes(b"\xef\xbb\xbfunicode = true\n")
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(settings))
    result = runner.invoke(app, ["deal", "--seed", "1"])
    assert result.exit_code == ExitStatus.USAGE
    assert result.stderr == (
        f"foursquare deal: {settings}:1: starts with a byte-order mark, which TOML does not allow; "
        "save it as UTF-8 without one\n"
    )


def test_another_programs_empty_database_is_left_alone(tmp_path, monkeypatch):
    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path))
    index = tmp_path / "history.sqlite"
    connection = sqlite3.connect(index)
    connection.execute("PRAGMA application_id = 1234")
    connection.commit()
    connection.close()
    before = index.read_bytes()
    result = runner.invoke(app, ["history"])
    assert "is not foursquare's history index (another program's database)" in result.stderr
    assert index.read_bytes() == before
    connection = sqlite3.connect(index)
    assert connection.execute("SELECT name FROM sqlite_master").fetchall() == []
    connection.close()


def test_the_environment_takes_integers_only():
    np = pytest.importorskip("numpy")
    pytest.importorskip("gymnasium", reason="the gym extra: pip install -e '.[gym]'")
    from foursquare_cli.agents.environment import FoursquareEnv

    env = FoursquareEnv()
    env.reset(seed=3)
    for wrong in (5.9, True, None, float("nan"), "5", np.float64(5.0), np.bool_(True), np.array([1, 2])):
        with pytest.raises(TypeError) as caught:
            env.step(wrong)
        assert "an action is an integer from 0 to 35" in str(caught.value) and repr(wrong)[:3] in str(caught.value)
    for right in (5, np.int64(6), np.array(7), np.int8(9)):
        env.reset(seed=3)
        env.step(right)
