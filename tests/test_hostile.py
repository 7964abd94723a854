"""Hostile paths, streams, numbers, options and signals (issue 10): one line, the right exit code,
nothing lost, never a traceback. Each test names the numbered case it covers."""

from __future__ import annotations

import contextlib
import os
import pathlib
import signal
import stat
import subprocess
import sys
import time

import pytest
from conftest import alive, in_process, signals_heard, worker_processes
from typer.testing import CliRunner

from foursquare_cli.cli import app
from foursquare_cli.formats.records import MAX_INPUT_BYTES, check_record, read_source

SAMPLES = pathlib.Path(__file__).resolve().parent.parent / "samples"
TOOL = [sys.executable, "-m", "foursquare_cli"]
runner = CliRunner()


def run(*args: str, input: str | bytes | None = "", cwd: pathlib.Path | None = None) -> subprocess.CompletedProcess:
    """The tool in this process (`conftest.in_process`): these checks are of files and messages; the ones of
    streams, signals and devices start a process of their own below."""
    return in_process(*args, input=input or "", cwd=cwd)


def one_line(stderr: str | bytes) -> str:
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    assert "Traceback" not in text
    lines = text.splitlines()
    assert len(lines) == 1, lines
    return lines[0]


# -- 1. only regular files are written; symlinks are written through; modes -------------------------


@pytest.mark.posix
def test_1_a_device_at_the_record_path_is_refused_and_left_alone(tmp_path):
    process = run("play", "--seed", "42", "--record", "/dev/null", input="A1\n")
    assert process.returncode == 2
    assert one_line(process.stderr) == "/dev/null: not a regular file; a record is written only to a regular file"
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.posix
def test_1_a_fifo_at_the_record_path_is_refused(tmp_path):
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    process = run("auto", "--seed", "1", "--player", "greedy", "--record", str(fifo))
    assert process.returncode == 2 and "not a regular file" in one_line(process.stderr)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


@pytest.mark.posix
def test_1_a_symlinked_record_is_written_through_to_its_target(tmp_path):
    target = tmp_path / "target.yaml"
    link = tmp_path / "link.yaml"
    link.symlink_to(target)
    process = run("play", "--seed", "42", "--record", "link.yaml", "-f", "json", input="A1\n", cwd=tmp_path)
    assert process.returncode == 0, process.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert check_record(read_source(str(target))).outcome_words() == "playing, 1 move"


@pytest.mark.posix
def test_1_new_records_follow_the_umask_and_resumed_ones_keep_their_mode(tmp_path):
    process = run("play", "--seed", "42", "--record", "new.yaml", "-f", "json", input="A1\n", cwd=tmp_path)
    assert process.returncode == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(tmp_path / "new.yaml").st_mode) == 0o666 & ~umask
    os.chmod(tmp_path / "new.yaml", 0o640)
    process = run("play", "--resume", "new.yaml", "-f", "json", input="A1 top\n", cwd=tmp_path)
    assert process.returncode == 0
    assert stat.S_IMODE(os.stat(tmp_path / "new.yaml").st_mode) == 0o640
    assert check_record(read_source(str(tmp_path / "new.yaml"))).outcome_words() == "playing, 2 moves"


@pytest.mark.posix
def test_1_a_read_only_record_is_not_replaced(tmp_path):
    record = tmp_path / "g.yaml"
    record.write_text("foursquare: 1\nseed: 42\nmoves: [A1]\n")
    record.chmod(0o444)
    process = run("play", "--resume", "g.yaml", input="A1 top\n", cwd=tmp_path)
    assert process.returncode == 2 and one_line(process.stderr) == "g.yaml: is read-only; record to another file"
    assert record.read_text() == "foursquare: 1\nseed: 42\nmoves: [A1]\n"


# -- 2. one rule for every command that writes a game --------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [
        ["auto", "--seed", "1", "--player", "greedy"],
        ["solve", "--seed", "1", "--budget", "50000"],
        ["play", "--seed", "1"],
    ],
    ids=["auto", "solve", "play"],
)
def test_2_an_existing_record_is_refused_unless_forced(tmp_path, command):
    existing = tmp_path / "keep.yaml"
    existing.write_text("mine\n")
    refused = run(*command, "--record", str(existing), input="")
    assert refused.returncode == 2 and "already exists" in one_line(refused.stderr)
    assert existing.read_text() == "mine\n"
    forced = run(*command, "--record", str(existing), "--force", "-f", "json", input="A1\n")
    assert forced.returncode in (0, 3, 4), forced.stderr
    assert existing.read_text().startswith("foursquare: 1\n")


def test_2_an_unwritable_folder_is_found_before_the_game_is_played(tmp_path):
    started = time.monotonic()
    process = run("auto", "--seed", "1", "--record", str(tmp_path / "missing" / "g.yaml"))
    assert process.returncode == 2
    assert "cannot write in" in one_line(process.stderr)
    assert process.stdout == "", "no game was played"
    assert time.monotonic() - started < 30


# -- 3. whatever the tool writes, it reads back ----------------------------------------------------------


def test_3_a_flood_of_shifts_is_refused_at_the_move_that_would_make_the_record_unreadable(tmp_path, monkeypatch):
    from foursquare_cli.formats import records

    monkeypatch.setattr(records, "MAX_NODES", 300)  # the real limit is 10,000: the same arithmetic, sooner
    record = tmp_path / "g.yaml"
    script = "B2\n" + "shift up\nshift down\n" * 200
    result = runner.invoke(app, ["play", "--seed", "3", "--record", str(record), "-f", "json"], input=script)
    assert result.exit_code == 1
    # 13 nodes besides the moves and meta, 6 in `meta: {started: ..., piped: true}`: move 282 (B2, then shift
    # up on every even move) would be the 301st.
    refused, kept = result.stderr.splitlines()[-2:]
    assert refused == (
        "<stdin>:282: move 282 'shift up' refused: the record would have more than 300 YAML nodes, "
        "more than a record may hold"
    )
    assert kept.startswith(f"The game is saved in {record}; to go on: "), "as every end of a pipe says (issue 48)"
    verdict = check_record(read_source(str(record)))
    assert verdict.valid and len(verdict.moves) == 281
    resumed = runner.invoke(app, ["play", "--resume", str(record), "-f", "json"], input="")
    assert resumed.exit_code == 0, resumed.stderr


def test_3_a_record_near_1_mib_is_never_rewritten_past_it(tmp_path):
    record = tmp_path / "g.yaml"
    head = "foursquare: 1\nseed: 42\nmoves: []\nmeta:\n  notes: '"
    record.write_text(head + "x" * (MAX_INPUT_BYTES - len(head) - 30) + "'\n")  # 28 bytes short of 1 MiB
    assert check_record(read_source(str(record))).valid
    # Rewritten canonically, one move adds 20 bytes (moves list, result) and `A1 top` 11 more.
    process = run("play", "--resume", "g.yaml", "-f", "json", input="A1\nA1 top\nB1\n", cwd=tmp_path)
    assert process.returncode == 1
    refused, kept = process.stderr.splitlines()[-2:]
    assert refused == "<stdin>:2: move 2 'A1 top' refused: the record would be larger than 1 MiB"
    assert kept.startswith("The game is saved in g.yaml; to go on: ")
    assert check_record(read_source(str(record))).outcome_words() == "playing, 1 move"
    assert os.path.getsize(record) <= MAX_INPUT_BYTES
    assert check_record(read_source(str(record))).valid


# -- 4. two sessions on one record -----------------------------------------------------------------------


def test_4_a_second_session_on_a_held_record_is_refused(tmp_path):
    first = subprocess.Popen(
        [*TOOL, "play", "--seed", "1", "--record", "c.yaml", "-f", "json"],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert first.stdout is not None and first.stdin is not None
    first.stdout.readline()  # the first state: the record is held
    second = run("play", "--resume", "c.yaml", input="A1\n", cwd=tmp_path)
    assert second.returncode == 2
    assert one_line(second.stderr) == "c.yaml: another game holds this record; finish or quit that one first"
    first.stdin.write("A1\n")
    first.stdin.close()
    first.wait(timeout=30)
    first.stdout.close()
    first.stderr.close()
    assert check_record(read_source(str(tmp_path / "c.yaml"))).outcome_words() == "playing, 1 move"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.yaml"], "the lock file is gone"
    again = run("play", "--resume", "c.yaml", "-f", "json", input="A1 top\n", cwd=tmp_path)
    assert again.returncode == 0


# -- 5. a write that fails mid-game; stale temporaries -----------------------------------------------------


def test_5_a_full_disk_mid_game_is_one_line_and_the_last_record_stays(tmp_path, monkeypatch):
    from foursquare_cli.store import files

    real_replace = os.replace
    calls = {"n": 0}

    def replace_then_fail(source, target):
        calls["n"] += 1
        if calls["n"] >= 3:
            raise OSError(28, "No space left on device")
        real_replace(source, target)

    monkeypatch.setattr(files.os, "replace", replace_then_fail)
    record = tmp_path / "g.yaml"
    result = runner.invoke(app, ["play", "--seed", "92", "--record", str(record), "-f", "json"], input="A1\nA1 top\n")
    assert result.exit_code == 74
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"{record}: cannot write: No space left on device; the record holds the game")
    assert "play --resume" in result.stderr
    assert check_record(read_source(str(record))).outcome_words() == "playing, 1 move"
    assert [p.name for p in tmp_path.iterdir()] == ["g.yaml"], "no temporary left behind"


def test_5_a_full_disk_at_the_records_first_write_leaves_no_lock_file(tmp_path, monkeypatch):
    """An outside try, on a full file system: `play --record r.yaml` said it could not write (exit 74) and
    left `.r.yaml.lock` behind, which the docs say goes when the session ends."""
    from foursquare_cli.store import files

    def full(source, target):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files.os, "replace", full)
    record = tmp_path / "r.yaml"
    result = runner.invoke(app, ["play", "--seed", "92", "--record", str(record), "-f", "json"], input="A1\n")
    assert result.exit_code == 74 and result.stderr.startswith(f"{record}: cannot write: No space left on device")
    assert list(tmp_path.iterdir()) == [], "neither the lock file nor a temporary left behind"


def test_5_stale_temporaries_of_a_record_are_removed_when_it_is_next_written(tmp_path):
    record = tmp_path / "g.yaml"
    record.write_text("foursquare: 1\nseed: 42\nmoves: [A1]\n")
    stale = tmp_path / ".g.yaml.foursquare-abc123.tmp"
    stale.write_text("half a record")
    other = tmp_path / ".other.yaml.foursquare-xyz.tmp"
    other.write_text("another record's")
    process = run("play", "--resume", "g.yaml", "-f", "json", input="A1 top\n", cwd=tmp_path)
    assert process.returncode == 0
    assert not stale.exists() and other.exists()


# -- 6. the sample is never rewritten; meta is kept as read ---------------------------------------------------


def test_6_samples_readme_suggests_a_resume_that_leaves_the_sample_alone():
    text = (SAMPLES / "README.md").read_text()
    assert "play --resume samples/unfinished.yaml --record" in text or "cp samples/unfinished.yaml" in text


def test_6_resume_keeps_meta_exactly_as_written(tmp_path):
    record = tmp_path / "g.yaml"
    meta = "meta: !!omap\n  - zeta: 1\n  - alpha: [x, 'y: z']\n"
    record.write_text("# comments are not kept\nfoursquare: 1\nseed: 7\nmoves: [B2]\n" + meta)
    process = run("play", "--resume", "g.yaml", "-f", "json", input="C2\n", cwd=tmp_path)
    assert process.returncode == 0, process.stderr
    text = record.read_text()
    assert text.endswith("result: playing\n" + meta)
    assert check_record(read_source(str(record))).valid


# -- 7. integers past Python's digit limit -------------------------------------------------------------------


def test_7_huge_numbers_are_one_line_each_and_the_next_file_is_still_checked(tmp_path):
    (tmp_path / "a.yaml").write_text("foursquare: 1\nseed: 1\nmoves: []\n")
    (tmp_path / "huge.yaml").write_text("foursquare: 1\nseed: " + "9" * 5000 + "\nmoves: []\n")
    (tmp_path / "hex.yaml").write_text("foursquare: 1\nseed: 0x" + "f" * 5000 + "\nmoves: []\n")
    (tmp_path / "b.yaml").write_text("foursquare: 1\nseed: 2\nmoves: [B2]\n")
    process = run("check", "a.yaml", "huge.yaml", "hex.yaml", "b.yaml", cwd=tmp_path)
    assert process.returncode == 1
    assert process.stdout.splitlines() == [
        "a.yaml: playing, 0 moves",
        "huge.yaml: invalid (1 problem)",
        "hex.yaml: invalid (1 problem)",
        "b.yaml: playing, 1 move",
    ]
    assert process.stderr.splitlines() == [
        "huge.yaml:2: a number of 5,000 characters; refused (a number in a file has at most 40)",
        "hex.yaml:2: a number of 5,002 characters; refused (a number in a file has at most 40)",
    ]


def test_7_a_long_word_of_hex_letters_is_text_as_the_loader_reads_it_not_a_number(tmp_path):
    sha = "3f786850e387550fdab836ed7e6dc881de23001b3f786850"  # 48 characters, a digit first: still not a number
    (tmp_path / "sha.yaml").write_text(f"foursquare: 1\nseed: 1\nmoves: []\nmeta:\n  sha: {sha}\n")
    (tmp_path / "cc.yaml").write_text("foursquare: 1\nseed: 1\nmoves: [" + "C" * 1000 + "]\n")
    process = run("check", "sha.yaml", "cc.yaml", cwd=tmp_path)
    assert process.stdout.splitlines() == ["sha.yaml: playing, 0 moves", "cc.yaml: invalid (1 problem)"]
    said = one_line(process.stderr)
    assert said.startswith("cc.yaml:3: move 1 'CCCC") and "number" not in said


def test_7_a_huge_number_in_a_move_log_or_an_option(tmp_path):
    (tmp_path / "g.moves").write_text("9" * 5000 + "\n")
    process = run("replay", "g.moves", "--seed", "1", cwd=tmp_path)
    assert process.returncode == 1 and "a number of 5,000 characters" in one_line(process.stderr)
    process = run("deal", "--seed", "9" * 5000)
    assert process.returncode == 2
    message = one_line(process.stderr)
    assert "out of range" in message and len(message) < 300


# -- 8. standard streams -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "command", [["deal", "--seed", "1"], ["replay", str(SAMPLES / "won.yaml")], ["check", str(SAMPLES / "won.yaml")]]
)
@pytest.mark.posix
def test_8_a_full_output_is_one_line_and_exit_74(command):
    with open("/dev/full", "w") as full:
        process = subprocess.run([*TOOL, *command], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
    assert process.returncode == 74
    assert one_line(process.stderr) == f"foursquare {command[0]}: cannot write the output: No space left on device"


@pytest.mark.parametrize(
    "command", [["deal", "--seed", "1"], ["check", str(SAMPLES / "won.yaml")], ["stats", "-n", "1"]]
)
@pytest.mark.posix
def test_8_a_closed_output_is_an_error_not_a_silent_success(command):
    process = subprocess.run(
        [*TOOL, *command],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(1),
    )
    assert process.returncode == 74
    assert one_line(process.stderr) == f"foursquare {command[0]}: standard output is closed; nothing could be shown"


@pytest.mark.parametrize(
    "command, message",
    [
        (["check", "-"], "<stdin>: standard input is closed"),
        (["replay", "-", "--seed", "1"], "<stdin>: standard input is closed"),
        (["play", "--seed", "1"], "foursquare play: standard input is closed; pipe moves in, or play at a terminal"),
    ],
)
@pytest.mark.posix
def test_8_a_closed_input_is_one_line(command, message):
    process = subprocess.run(
        [*TOOL, *command],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: os.close(0),
    )
    assert process.returncode == 2
    assert one_line(process.stderr) == message


def test_8_a_broken_pipe_ends_quietly_with_141(tmp_path):
    log = tmp_path / "long.moves"
    log.write_text("B2\n" + "shift up\nshift down\n" * 1000)  # 2,001 boards: far more than a pipe holds
    process = subprocess.run(
        f"{' '.join(TOOL)} replay {log} --seed 1 | head -1; exit ${{PIPESTATUS[0]}}",
        shell=True,
        executable="/bin/bash",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode == 141
    assert process.stdout == "Start\n" and process.stderr == ""


def test_8_a_broken_pipe_under_play_record_says_where_the_game_is(tmp_path):
    process = subprocess.Popen(
        [*TOOL, "play", "--seed", "92", "--record", "g.yaml", "-f", "json"],
        cwd=tmp_path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdin is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()  # the reader goes away
    process.stdin.write("A1\n")
    process.stdin.flush()
    process.stdin.close()
    assert process.wait(timeout=30) == 141
    err = process.stderr.read()
    process.stderr.close()
    assert "Traceback" not in err and "The game is saved in g.yaml" in err
    assert check_record(read_source(str(tmp_path / "g.yaml"))).outcome_words() == "playing, 1 move"


# -- 9. long lines; one way to read move lines ------------------------------------------------------------


def test_9_a_huge_line_is_refused_without_reading_it_whole():
    line = b"A" * (30 * 1024 * 1024) + b"\n"
    process = subprocess.run(
        ["/usr/bin/time", "-f", "%M", *TOOL, "play", "--seed", "1", "-f", "json"],
        input=line,
        capture_output=True,
        timeout=120,
    )
    assert process.returncode == 1
    lines = process.stderr.decode().splitlines()
    assert lines[0] == "<stdin>:1: line 1 is longer than 4,096 bytes; refused"
    assert int(lines[-1]) < 100_000, f"{lines[-1]} KB of memory for a 30 MB line"


@pytest.mark.parametrize("script", [b"\xef\xbb\xbfA1\rA1 top\r", b"A1\r\nA1 top\r\n", b"\xef\xbb\xbfA1\nA1 top"])
def test_9_play_and_replay_read_a_byte_order_mark_and_any_line_ending_alike(tmp_path, script):
    log = tmp_path / "g.moves"
    log.write_bytes(script)
    played = run("play", "--seed", "92", "-f", "json", input=script)
    replayed = run("replay", str(log), "--seed", "92", "-f", "json", input=None)
    assert replayed.returncode == 0, replayed.stderr
    assert played.stdout == replayed.stdout
    assert len(played.stdout.splitlines()) == 3


# -- 10. what is not a regular file is not read ----------------------------------------------------------------


@pytest.mark.posix
def test_10_check_refuses_a_fifo_without_blocking(tmp_path):
    fifo = tmp_path / "f.yaml"
    os.mkfifo(fifo)
    process = run("check", str(fifo), str(SAMPLES / "won.yaml"))
    assert process.returncode == 2
    assert one_line(process.stderr) == f"{fifo}: not a regular file (a FIFO); give a file, or - for standard input"
    assert process.stdout.endswith("won, score 9, 31 moves\n")


def test_10_a_directory_is_refused_too(tmp_path):
    process = run("replay", str(tmp_path), "--seed", "1")
    assert process.returncode == 2 and "not a regular file (a directory)" in one_line(process.stderr)


# -- 11. YAML 1.1 number forms, merge keys, collection keys, an empty moves --------------------------------------


@pytest.mark.parametrize(
    "written, form",
    [
        ("042", "a leading 0 means octal"),
        ("1:30", "base 60"),
        ("0b101010", "binary"),
        ("+42", "a plus sign"),
        ("1_000", "digits with underscores"),
    ],
)
def test_11_a_seed_in_a_yaml_11_number_form_is_refused_by_name(written, form):
    verdict = check_record(read_source("g.yaml", f"foursquare: 1\nseed: {written}\nmoves: []\n".encode()))
    assert [(p.line, p.message) for p in verdict.problems] == [
        (
            2,
            f"seed: {written} is a YAML 1.1 number form ({form}) that readers disagree on; "
            "write the deal number in decimal digits (or 0x hex)",
        )
    ]


@pytest.mark.parametrize(
    "key, written, said",
    [
        ("undos", "010", "undos: 010 is a YAML 1.1 number form (a leading 0 means octal) that readers disagree on"),
        ("hints", "1:30", "hints: 1:30 is a YAML 1.1 number form (base 60) that readers disagree on"),
        ("hints", "0b11", "hints: 0b11 is a YAML 1.1 number form (binary) that readers disagree on"),
        ("undos", "1_0", "undos: 1_0 is a YAML 1.1 number form (digits with underscores) that readers disagree on"),
        ("undos", "-0", "undos: -0 is written with a sign"),
        ("hints", "+3", "hints: +3 is written with a sign"),
        ("score", "+0", "score: +0 is written with a sign"),
        ("score", "00", "score: 00 is a YAML 1.1 number form (a leading 0 means octal) that readers disagree on"),
    ],
)
def test_11_a_score_or_a_count_is_written_as_a_seed_is(key, written, said):
    record = "foursquare: 1\nseed: 1\nmoves: [B2]\nresult: playing\n"
    verdict = check_record(read_source("g.yaml", f"{record}{key}: {written}\n".encode()))
    assert [(p.line, p.message) for p in verdict.problems] == [(5, f"{said}; write it in decimal digits")]
    plain = check_record(read_source("g.yaml", f"{record}undos: 0x0\nhints: 10\n".encode()))
    assert plain.valid and (plain.source.undos, plain.source.hints) == (0, 10)  # hex, as a seed may be


def test_11_decimal_and_hex_seeds_are_the_same_deal():
    decimal = check_record(read_source("g.yaml", b"foursquare: 1\nseed: 42\nmoves: [B2]\n"))
    hexadecimal = check_record(read_source("g.yaml", b"foursquare: 1\nseed: 0x2A\nmoves: [B2]\n"))
    assert decimal.valid and hexadecimal.valid and decimal.state == hexadecimal.state


@pytest.mark.parametrize(
    "written, said",
    [
        *((form, "is not a supported format version; it must be 1") for form in ("0x1", "01", "1.0", "true")),
        *((form, "is the plain number 1, written without quotes or a tag") for form in ("'1'", '!!int "1"')),
    ],
)
def test_11_the_version_is_only_the_plain_number_1(written, said):
    verdict = check_record(read_source("g.yaml", f"foursquare: {written}\nseed: 1\nmoves: []\n".encode()))
    assert [p.line for p in verdict.problems] == [1]
    assert said in verdict.problems[0].message, "'1 is not ... it must be 1' for a quoted 1 read as nonsense"


@pytest.mark.parametrize(
    "text, line, message",
    [
        (
            "foursquare: 1\nseed: 1\n<<: {moves: []}\n",
            3,
            "merge keys ('<<') are not allowed in a record; write the keys out",
        ),
        (
            "foursquare: 1\nseed: 1\nmoves: []\n? [a, b]\n: c\n",
            4,
            "a key must be a plain word, not a list or a mapping",
        ),
        (
            "foursquare: 1\nseed: 1\nmoves:\n",
            3,
            "moves: expected a list of moves, got nothing (null) (for no moves yet, write moves: [])",
        ),
        (
            "foursquare: 1\nseed:\nmoves: []\n",
            2,
            "seed: has no value; a seed is a whole number from 0 to 18446744073709551615",
        ),
    ],
)
def test_11_keys_that_are_not_plain_and_empty_values_get_their_own_message(text, line, message):
    verdict = check_record(read_source("g.yaml", text.encode()))
    assert [(p.line, p.message) for p in verdict.problems] == [(line, message)]


def test_11_depth_and_self_reference_guards_are_reached():
    deep = read_source("g.yaml", ("foursquare: 1\nseed: 1\nmoves: []\nmeta: " + "[" * 60 + "]" * 60 + "\n").encode())
    assert [(p.line, p.message) for p in deep.problems] == [(4, "nested deeper than 50 levels; refused")]
    looped = read_source("g.yaml", b"foursquare: 1\nseed: 1\nmoves: []\nmeta: {a: &x [1, *x]}\n")
    assert [(p.line, p.message) for p in looped.problems] == [
        (4, "an alias refers to the node that contains it; refused")
    ]


# -- 12 to 15. options and processes -------------------------------------------------------------------------------


def test_12_a_range_past_the_last_deal_is_refused_up_front():
    process = run("stats", "--start", "18446744073709551615", "--games", "2", "-p", "random")
    assert process.returncode == 2
    assert "runs past the last deal number" in one_line(process.stderr)
    assert process.stdout == ""


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-1", "abc"])
def test_13_a_time_limit_must_be_a_finite_number(value):
    process = run("solve", "--seed", "1", "--timeout", value)
    assert process.returncode == 2 and "--timeout" in one_line(process.stderr)


def test_13_the_solver_table_is_bounded(monkeypatch):
    from foursquare_cli.players import solver
    from foursquare_cli.rules.cards import deal

    monkeypatch.setattr(solver, "TABLE_SIZE", 500)
    bounded = solver.solve(deal(4), budget=40_000, timeout=None)
    assert bounded.status == solver.WINNABLE, "a table emptied when full never loses a win"


@pytest.mark.slow  # a long multi-process run: CI's `-m slow` step
def test_14_workers_are_capped_at_the_number_of_games():
    from foursquare_cli.runs.executor import workers_for

    assert (workers_for(1000, 2), workers_for(2, 100), workers_for(0, 5)) == (2, 2, 1)
    # (--jobs past four a core is refused: test_cli_basics; 8 is allowed on any machine)
    process = run("stats", "--jobs", "8", "--games", "2", "-p", "greedy", "-f", "json")
    assert process.returncode == 0 and process.stderr == ""


def test_14_workers_that_cannot_start_are_one_line(monkeypatch):
    import multiprocessing.context

    def refuse(*args, **kwargs):
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", refuse)
    result = runner.invoke(app, ["stats", "--games", "4", "--jobs", "2", "-p", "random"])
    assert result.exit_code == 2
    assert result.stderr == "foursquare stats: cannot start 2 worker processes: Resource temporarily unavailable\n"


@pytest.mark.slow
@pytest.mark.parametrize(
    "signum, code, word",
    [(signal.SIGINT, 130, "interrupted"), (signal.SIGTERM, 143, "terminated"), (signal.SIGHUP, 143, "terminated")],
)
@pytest.mark.posix
def test_15_a_signal_ends_every_worker_quietly(signum, code, word):
    process = subprocess.Popen(
        [*TOOL, "stats", "--games", "60", "--start", str(7_000_000 + signum), "--jobs", "2", "-p", "expert"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=signals_heard,
    )
    try:
        deadline = time.monotonic() + 10
        while len(worker_processes(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.3)
        workers = worker_processes(process.pid)
        assert len(workers) == 2, "the parent and two workers are running"
        if signum == signal.SIGINT:
            os.killpg(process.pid, signum)  # Ctrl-C reaches the whole group
        else:
            process.send_signal(signum)  # SIGTERM to the parent alone
        out, err = process.communicate(timeout=30)
        assert process.returncode == code
        assert err == f"foursquare stats: {word}\n"
        time.sleep(0.5)
        assert alive(workers) == [], "no worker is left behind"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)  # a failed test leaves no run behind either


@pytest.mark.posix
def test_15_under_nohup_a_hangup_is_left_ignored():
    from foursquare_cli.runs.executor import run_in_order

    previous = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        during = []
        for _ in run_in_order(lambda task: task, [1]):
            during.append(signal.getsignal(signal.SIGHUP))
        assert during == [signal.SIG_IGN] and signal.getsignal(signal.SIGHUP) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGHUP, previous)


# -- messages ------------------------------------------------------------------------------------------------------


def test_messages_h_means_help_and_players_ignore_case():
    assert runner.invoke(app, ["deal", "-h"], prog_name="foursquare").stdout.startswith("Usage: foursquare deal")
    result = runner.invoke(app, ["stats", "-n", "2", "-p", "GREEDY", "-f", "json"])
    assert result.exit_code == 0, result.stderr


def test_messages_contradictory_options_are_an_error():
    result = runner.invoke(
        app, ["play", "--resume", str(SAMPLES / "unfinished.yaml"), "--no-record", "--record", "b.yaml"], input=""
    )
    assert result.exit_code == 2
    assert result.stderr == "foursquare play: --no-record and --record contradict each other; give one\n"


def test_messages_a_deck_may_be_given_with_commas():
    from foursquare_cli.rules.cards import deal

    cards = ",".join(str(card) for card in deal(5))
    result = runner.invoke(app, ["solve", "--deck", cards, "--budget", "20000", "-f", "json"])
    assert result.exit_code in (0, 4), result.stderr


def test_messages_a_timed_out_solve_names_the_limit_and_the_option():
    result = runner.invoke(app, ["solve", "--seed", "1", "--timeout", "0.000001"])
    assert result.exit_code == 4
    assert "the time limit of 1e-06 s ran out before a win was found; raise it with --timeout" in result.stdout
    tiniest = runner.invoke(app, ["solve", "--seed", "1", "--timeout", "5e-324"])
    assert "the time limit of 5e-324 s ran out" in tiniest.stdout, "as typed, not 4.94066e-324"
    from foursquare_cli.errors import seconds_typed  # the one way a time is echoed: a forfeit's move time too

    assert [seconds_typed(s) for s in (5e-324, 30.0, 0.3, 1e-06, 1e10)] == ["5e-324", "30", "0.3", "1e-06", "1e+10"]


def test_messages_a_file_name_with_a_newline_is_quoted_on_one_line(tmp_path):
    odd = tmp_path / "two\nlines.yaml"
    odd.write_text("foursquare: 1\nseed: 1\nmoves: []\n")
    result = runner.invoke(app, ["check", str(odd)])
    assert result.stdout.count("\n") == 1 and "'" in result.stdout


def test_messages_resuming_a_move_log_names_options_play_has(tmp_path):
    log = tmp_path / "g.moves"
    log.write_text("B2\n")
    result = runner.invoke(app, ["play", "--resume", str(log)], input="")
    assert result.exit_code == 2
    assert result.stderr == f"{log}: a move log carries no deal; give --seed N or --deck CARDS\n"
    resumed = runner.invoke(app, ["play", "--resume", str(log), "--seed", "1", "--no-record", "-f", "json"], input="")
    assert resumed.exit_code == 0, resumed.stderr


def test_a_move_log_resumed_is_never_rewritten_as_a_record(tmp_path):
    """An outside try: `play --resume my.moves --seed 5` turned the user's commented log into a YAML record."""
    log, elsewhere = tmp_path / "my.moves", tmp_path / "g.yaml"
    log.write_text("# my opening\nB2\n")
    refused = runner.invoke(app, ["play", "--resume", str(log), "--seed", "5", "-f", "json"], input="C2\n")
    assert refused.exit_code == 2 and refused.stderr == (
        f"{log}: is a move log; recording to it would rewrite it as a record: give --record FILE (or --no-record)\n"
    )
    recorded = runner.invoke(
        app, ["play", "--resume", str(log), "--seed", "5", "--record", str(elsewhere), "-f", "json"], input="C2\n"
    )
    assert recorded.exit_code == 0 and "- C2" in elsewhere.read_text()
    assert log.read_text() == "# my opening\nB2\n", "the log as the user wrote it"
    log.write_text("B2\nundo\n")
    invalid = runner.invoke(app, ["play", "--resume", str(log), "--seed", "5", "--no-record"], input="")
    assert invalid.exit_code == 1 and invalid.stderr.splitlines()[-1] == f"{log}: cannot resume an invalid move log"


@pytest.mark.posix
def test_a_killed_resource_tracker_puts_no_traceback_on_standard_error(capfd, recwarn):
    """Python's multiprocessing resource tracker (the keeper of the workers' semaphores' names) killed during a
    run of --jobs 2: it was started again with a warning, and the new one printed a KeyError traceback for every
    name it had never been told of, on the user's standard error. It now runs with its standard error going
    nowhere, and so does its warning; the run goes on to the same results."""
    from multiprocessing import resource_tracker

    from foursquare_cli.runs.executor import run_in_order

    results = run_in_order(abs, range(-5, 1), jobs=2)  # a builtin: the workers need not import this module
    first = next(results)
    tracker = resource_tracker._resource_tracker
    assert tracker._pid is not None
    os.kill(tracker._pid, signal.SIGKILL)
    os.waitpid(tracker._pid, 0)
    tracker._pid = None  # reaped here; its pipe is seen closed when the run next needs it
    assert [first, *results] == [5, 4, 3, 2, 1, 0]  # the run's end unregisters its semaphores: a new tracker
    said, deadline = "", time.monotonic() + 0.5
    while time.monotonic() < deadline and "Traceback" not in said:  # the tracker writes in its own time
        time.sleep(0.05)
        said += capfd.readouterr().err
    assert "Traceback" not in said and "resource_tracker" not in said, said
    assert not [warning for warning in recwarn if "resource_tracker" in str(warning.message)]


@pytest.mark.posix
def test_a_worker_that_fails_puts_no_traceback_on_standard_error(capfd):
    """A worker whose setup raises (as keep_memory_private could) printed the standard library's `Exception in
    initializer:` and its traceback on the user's standard error; the run's one line (RunFailed) is what is said."""
    from foursquare_cli.errors import RunFailed
    from foursquare_cli.runs.executor import run_in_order

    with pytest.raises(RunFailed):
        list(run_in_order(abs, range(4), jobs=2, worker_setup=next))  # next(): a TypeError, cheap to pickle
    time.sleep(0.1)
    said = capfd.readouterr().err
    assert "Traceback" not in said and "initializer" not in said, said


@pytest.mark.parametrize("taken", [1, 6], ids=["stopped-early", "all-taken-end-never-asked"])
def test_a_run_its_caller_stops_leaves_no_thread_of_its_pool_running(taken):
    """A run whose caller stops taking results (compare --sprt once the test decides; every run after its
    last result, the end never asked for) shut its pool down without waiting: the pool's thread went on
    closing its pipes while Python's exit woke it through one of them, and about one run of --jobs 2 in two
    hundred printed an 'Exception ignored ... OSError: [Errno 9] Bad file descriptor' traceback on the user's
    standard error after its figures (found by the crash test, python -m fuzz.crash). The pool is now ended and
    its thread joined before the run returns: a run that took every result shuts it down as one that ended."""
    import threading

    from foursquare_cli.runs.executor import run_in_order

    results = run_in_order(abs, range(-6, 0), jobs=2)
    assert [next(results) for _ in range(taken)] == [6, 5, 4, 3, 2, 1][:taken]
    results.close()
    running = [thread for thread in threading.enumerate() if type(thread).__name__ == "_ExecutorManagerThread"]
    assert running == []


@pytest.mark.parametrize(
    ("command", "option"),
    [
        (["play", "--seed", "1"], "--record"),
        (["auto", "--seed", "1"], "--record"),
        (["solve", "--seed", "1", "--budget", "10"], "--record"),
        (["analyze", str(SAMPLES / "won.yaml"), "--playouts", "20"], "--solution"),
    ],
)
def test_force_with_no_file_to_replace_is_refused_not_ignored(command, option, tmp_path, monkeypatch):
    """An outside try: `play --force` with no --record was taken without a word (so were auto's, solve's and
    analyze's); an option that does nothing is refused, as the tool refuses every other."""
    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path / "home"))
    result = runner.invoke(app, [*command, "--force"], input="B2\n")
    assert result.exit_code == 2
    assert f"--force replaces an existing {option} FILE; give it with {option}" in result.stderr
