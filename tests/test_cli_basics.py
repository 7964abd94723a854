"""The command shell: --version, --help, `deal`, usage errors (CliRunner and a real process)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import in_process
from typer.testing import CliRunner

from foursquare_cli import __version__
from foursquare_cli.cli import app

runner = CliRunner()
SEED_42 = (
    "6D 7H 6C 2H 9H 10S 9D 4D 8C 10C AH 8S 7C 9C 10D AS 5H 4C AD 3H 7S 6H 7D 5D 6S 9S 10H AC 8D 8H "
    "3D 2D 3S 2C 3C 5C 4S 5S 2S 4H\n"
)


def run(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "foursquare_cli", *args], input=input, capture_output=True, text=True, timeout=60
    )


def test_version_names_the_playouts_in_use():
    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"foursquare {__version__} (playouts in C)\n"  # CI builds the C module


def test_an_install_without_the_c_playouts_says_so_and_why_in_version_and_config():
    # As an install whose C module was never built: the import of it fails, as it does there.
    code = "import sys; sys.modules['foursquare_cli.rules._playout'] = None; sys.argv[0] = 'foursquare'; "
    code += "from foursquare_cli.cli import main; main()"
    for arguments, line in ((["--version"], 0), (["config"], -1)):
        result = subprocess.run([sys.executable, "-c", code, *arguments], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        said = result.stdout.splitlines()[line]
        assert said.lower().endswith(
            "playouts in python, some 30 times slower: the c module was not built at install (no c compiler?); "
            "a binary wheel, or a reinstall with one, runs c" + (")" if arguments == ["--version"] else "")
        ), said
    assert runner.invoke(app, ["config"]).stdout.splitlines()[-1] == "Playouts in C"


def test_help_lists_commands_with_descriptions():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    assert "Exit codes" in result.stdout
    listed = result.stdout.split("Commands:\n")[1].split("\n\n")[0].splitlines()
    names = [line.split()[0] for line in listed]
    # as a player meets them (issue 21, item 13; issue 34), each description whole on its line
    assert names[:5] == ["play", "rules", "hint", "history", "replay"] and "deal" in names and "check" in names
    assert [line.split(None, 1)[1] for line in listed][0] == "Play a game, at the prompt or with moves piped in."
    assert not any(line.endswith("...") for line in listed)
    named = runner.invoke(app, ["--help"], prog_name="foursquare").stdout
    assert runner.invoke(app, ["help"], prog_name="foursquare").stdout == named
    deal_help = runner.invoke(app, ["deal", "--help"], prog_name="foursquare").stdout
    assert runner.invoke(app, ["help", "deal"], prog_name="foursquare").stdout == deal_help
    assert runner.invoke(app, ["rules"]).stdout.startswith("Place each card you are given on the 4x4 grid")


def test_deal_prints_the_stock():
    result = runner.invoke(app, ["deal", "--seed", "42"])
    assert (result.exit_code, result.stdout) == (0, SEED_42)


def test_deal_in_a_real_process():
    process = run("deal", "--seed", "42")
    assert (process.returncode, process.stdout) == (0, SEED_42)
    assert process.stderr.startswith("grade: ")  # for a person; standard output stays the one line of the stock


def test_a_seed_in_hex_as_a_record_writes_it_is_the_same_deal():
    process = in_process("deal", "--seed", "0x2A")
    assert (process.returncode, process.stdout) == (0, SEED_42)
    hexadecimal, decimal = (
        in_process("stats", "-p", "greedy", "-n", "2", "--start", s, "-f", "json") for s in ("0x10", "16")
    )
    start = [(json.loads(run.stdout)["start"], json.loads(run.stdout)["lost_deals"]) for run in (hexadecimal, decimal)]
    assert start[0] == start[1] == (16, [16, 17])  # --start is a deal number too
    refused = in_process("stats", "-p", "greedy", "-n", "2", "--start", "-1")
    assert refused.returncode == 2 and "'-1': deal numbers cannot be negative" in refused.stderr


def test_bad_seed_is_one_line_on_stderr_with_exit_2():
    bad_seeds = [("-1", "cannot be negative"), ("1.5", "not a deal number"), (str(2**64), "out of range")]
    for bad, reason in bad_seeds + [("0x1" + "0" * 16, "out of range"), ("0x2G", "not a deal number")]:
        process = in_process("deal", "--seed", bad)
        assert process.returncode == 2
        assert process.stdout == ""
        lines = process.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("foursquare deal: ") and reason in lines[0]
        assert "Traceback" not in process.stderr


def test_unknown_command_and_missing_option():
    process = in_process("bogus")
    assert process.returncode == 2 and process.stderr.count("\n") == 1 and "bogus" in process.stderr
    process = in_process("deal")
    assert process.returncode == 2 and "--seed" in process.stderr


def test_the_top_level_help_says_what_the_tool_does_then_its_commands_in_order_of_use_exit_codes_last():
    text = runner.invoke(app, ["--help"]).stdout
    opening = text.split("\n\n")[1]
    assert opening.lstrip().startswith("Foursquare, the one-player card game") and "Exit codes" not in opening
    assert text.index("Commands:") < text.index("Exit codes:"), "exit codes last"
    listed = [line.split()[0] for line in text.split("Commands:")[1].split("\n\n")[0].splitlines() if line.strip()]
    assert listed[:4] == ["play", "rules", "hint", "history"] and listed[-1] == "help"


def test_every_help_is_written_for_someone_who_installed_the_tool():
    """A pip user has neither the README nor the docs folder nor the specification: help never sends there,
    and what analyze's marks mean is in its own help, with the thresholds the analysis uses."""
    from foursquare_cli.runs.analysis import CHANCE_MARKS, SAFE, SCORE_MARKS

    names = [
        line.split()[0]
        for line in runner.invoke(app, ["--help"]).stdout.split("Commands:")[1].splitlines()
        if line.startswith("  ") and line.split()
    ]
    for name in names:
        said = " ".join(runner.invoke(app, [name, "--help"]).stdout.split())
        for word in ("README", "docs/", "specification", "SPEC"):
            assert word not in said, (name, word)
    analyze = " ".join(runner.invoke(app, ["analyze", "--help"]).stdout.split())
    assert f"under {SAFE:.0%}" in analyze
    (blunder, b_points, _), (mistake, m_points, _), (inaccuracy, i_points, _) = CHANCE_MARKS
    assert f"?! inaccuracy {i_points:g} points" in analyze and f"? mistake {m_points:g}" in analyze
    assert f"?? blunder {b_points:g}" in analyze
    (_, sb), (_, sm), (_, si) = SCORE_MARKS
    assert f"?! {si:g} point, ? {sm:g}, ?? {sb:g}" in analyze


def test_deal_fits_60_columns_while_a_usage_error_stays_one_line(monkeypatch):
    """The grade is words for a person, fitted to the terminal (it was one line of 95 columns); the stock is
    broken between cards only at a terminal (a script gets its one line); an error is one line, however long."""
    import io

    from foursquare_cli.app.deal import dealt
    from foursquare_cli.ui.output import Screen, words

    monkeypatch.setenv("COLUMNS", "60")
    result = runner.invoke(app, ["deal", "--seed", "5"])
    assert result.exit_code == 0 and result.stdout.count("\n") == 1  # the stock, one line, in a pipe
    assert result.stderr.startswith("grade: ") and max(map(len, result.stderr.splitlines())) <= 60

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out, err = Terminal(), Terminal()
    screen = Screen(out=out, err=err)
    screen.show(words(dealt(5), screen))
    assert max(map(len, (out.getvalue() + err.getvalue()).splitlines())) <= 60
    assert out.getvalue().split() == result.stdout.split()

    bad = runner.invoke(app, ["deal", "--seed", "1.5"])
    assert bad.exit_code == 2 and len(bad.stderr.splitlines()) == 1 and len(bad.stderr) > 60


def test_harder_grades_have_lower_grading_figures():
    """The grade says the one figure that grades it (the ease), and over these deals a harder grade always has
    a lower one: deal 7 (hard, though its greedy games win 16%) below deal 880001 (medium, 7% won)."""
    import re

    order = {"hard": 0, "medium": 1, "easy": 2}
    graded = []
    for seed in [7, 880001, *range(12)]:
        said = runner.invoke(app, ["deal", "--seed", str(seed)]).stderr
        found = re.match(r"grade: (\w+), ease (\d\.\d\d) ", said)
        assert found, said
        graded.append((order[found[1]], float(found[2])))
    assert {level for level, _ in graded} == {0, 1, 2}
    for level, ease in graded:
        assert all(ease < other for other_level, other in graded if other_level > level)
    assert graded[0] < graded[1]


def test_a_number_option_given_no_number_is_said_in_a_players_words():
    """An outside try: `--playouts nan` was "'nan' is not a valid int range", Click's name for its type."""
    for arguments, said in (
        (["stats", "-n", "3", "-p", "greedy", "--playouts", "nan"], "'nan' is not a whole number."),
        (["history", "--limit", "1.5"], "'1.5' is not a whole number."),
    ):
        result = runner.invoke(app, arguments)
        assert result.exit_code == 2 and said in result.stderr and "int range" not in result.stderr, result.stderr
        assert result.stderr.count("\n") == 1


def test_jobs_and_the_player_seed_are_refused_past_their_ranges_in_one_line():
    """An outside try: `--jobs 1000` started hundreds of workers (four a core at most now), and a player seed
    past 2^64-1 was taken until a results file's plan refused it, blaming the file."""
    most = max(8, 4 * (os.cpu_count() or 1))
    for arguments, said in (
        (["stats", "-n", "3", "-p", "greedy", "--jobs", str(most + 1)], f"jobs are 1 to {most} on this machine"),
        (["stats", "-n", "3", "-p", "greedy", "--jobs", "0"], f"jobs are 1 to {most} on this machine"),
        (["analyze", "samples/won.yaml", "--jobs", "1000"], f"jobs are 1 to {most} on this machine"),
        (["stats", "-n", "2", "-p", "random", "--player-seed", str(2**64)], "a player seed is a whole number 0 to"),
        (["stats", "-n", "2", "-p", "random", "--player-seed", "9" * 5000], "a player seed is a whole number 0 to"),
    ):
        result = runner.invoke(app, arguments)
        assert result.exit_code == 2 and said in result.stderr and result.stderr.count("\n") == 1, result.stderr
    assert runner.invoke(app, ["stats", "-n", "2", "-p", "random", "--player-seed", str(2**64 - 1)]).exit_code == 0


def test_a_whole_number_of_thousands_of_digits_is_called_out_of_range_not_a_non_number():
    """Python reads no more than 4,300 digits, so click called a 5,000-digit `--budget` "not a whole number",
    where the same number to `--seed` is out of range: it is a number, only far too large."""
    for arguments in (
        ["solve", "--seed", "1", "--budget", "9" * 5000],
        ["stats", "-n", "-" + "9" * 5000],
        ["hint", "samples/unfinished.yaml", "--playouts", "9" * 5000],
    ):
        result = runner.invoke(app, arguments)
        assert result.exit_code == 2 and result.stderr.count("\n") == 1, result.stderr
        assert "(5,00" in result.stderr and "is a whole number far out of range." in result.stderr
    said = runner.invoke(app, ["stats", "-n", "12x"]).stderr
    assert "'12x' is not a whole number." in said


def test_check_of_a_folder_with_no_files_says_so(tmp_path):
    """An outside try: `check EMPTY_FOLDER` printed nothing and exited 0, as if every file were valid."""
    empty = tmp_path / "empty"
    empty.mkdir()
    result = runner.invoke(app, ["check", str(empty)])
    assert result.exit_code == 2 and result.stderr == f"{empty}: a folder with no files to check\n"


@pytest.mark.posix
def test_a_program_file_that_cannot_run_is_not_called_missing(tmp_path):
    """An outside try: `cmd:./bot.py` without its execute bit was 'no program', though the file is there."""
    bot = tmp_path / "bot.py"
    bot.write_text("print('B2')\n")
    bot.chmod(0o644)
    result = runner.invoke(app, ["stats", "-n", "1", "-p", f"cmd:{bot}"])
    assert result.exit_code == 2 and "is a file but cannot be run (not executable?)" in result.stderr, result.stderr
