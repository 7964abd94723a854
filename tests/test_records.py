"""Records and move logs: reading, judging, writing; `replay` and `check` at the command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml
from conftest import examples, random_legal_play
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from foursquare_cli.cli import app
from foursquare_cli.formats.records import MAX_INPUT_BYTES, check_record, format_record, judge, read_source
from foursquare_cli.rules.cards import deal
from foursquare_cli.rules.engine import State
from foursquare_cli.rules.game import Game
from foursquare_cli.rules.moves import Move
from foursquare_cli.store.files import RecordFile

runner = CliRunner()


def source_of(text: str, path: str = "game.yaml"):
    return read_source(path, text.encode())


# -- what counts as a record ---------------------------------------------------------


def test_a_mapping_is_a_record_and_anything_else_a_move_log():
    assert source_of("foursquare: 1\nseed: 3\nmoves: []\n").kind == "record"
    assert source_of("{foursquare: 1, seed: 3, moves: [B2]}").kind == "record"
    log = source_of("# deal 3\nB2\n\nc2 TOP   # a comment\nshift up\n")
    assert log.kind == "log"
    assert [(m.text, m.line) for m in log.moves] == [("B2", 2), ("c2 TOP", 4), ("shift up", 5)]


def test_a_broken_record_is_reported_as_yaml_not_read_as_a_move_log():
    source = source_of("foursquare: 1\nmoves: [B2\n")
    assert source.kind == "unreadable"
    assert source.problems[0].line == 3 and "YAML syntax error" in source.problems[0].message


def test_a_python_tag_is_refused_as_a_tag_not_allowed_and_never_run():
    """An outside try: `seed: !!python/object/apply:os.system [...]` was called a YAML syntax error; it is well
    formed, and refused as a tag no record uses (nothing of it runs)."""
    source = source_of('foursquare: 1\nseed: !!python/object/apply:os.system ["echo hi"]\nmoves: [B2]\n')
    (problem,) = source.problems
    assert problem.line == 2 and problem.message.startswith("YAML tag not allowed: ")
    assert "syntax" not in problem.message


def test_deck_only_record_is_valid_and_a_list_deck_works_too():
    cards = " ".join(map(str, deal(9)))
    verdict = check_record(source_of(f"foursquare: 1\ndeck: {cards}\nmoves: [B2, B2 top]\n"))
    assert verdict.valid and verdict.outcome_words() == "playing, 2 moves"
    listed = "\n".join(f"  - {card}" for card in cards.split())
    assert check_record(source_of(f"foursquare: 1\ndeck:\n{listed}\nmoves: []\n")).valid


def test_seed_and_deck_together_must_agree():
    cards = " ".join(map(str, deal(5)))
    assert check_record(source_of(f"foursquare: 1\nseed: 5\ndeck: {cards}\nmoves: [B2]\n")).valid
    other = " ".join(map(str, deal(6)))
    verdict = check_record(source_of(f"foursquare: 1\nseed: 5\ndeck: {other}\nmoves: [B2]\n"))
    assert [p.line for p in verdict.problems] == [3]
    assert verdict.problems[0].message.startswith("deck: disagrees with seed 5: card 1 is ")


def test_every_problem_of_a_file_is_reported_in_line_order():
    verdict = check_record(source_of("foursquare: 3\nseed: -4\nmvoes: []\nresult: maybe\nscore: 99\n"))
    assert [(p.line, p.message) for p in verdict.problems] == [
        (1, "foursquare: 3 is not a supported format version; it must be 1"),
        (1, "missing required key 'moves' (a list of moves; it may be empty: moves: [])"),
        (2, "seed: -4 is negative; seeds are 0 to 18446744073709551615"),
        (3, "unknown key 'mvoes'; did you mean 'moves'?"),
        (4, "result: 'maybe' is not one of won, lost, playing"),
        (5, "score: 99 is not a score; a score is a whole number from 0 to 24"),
    ]


def test_a_seed_of_minus_zero_is_refused_for_its_sign_not_called_negative():
    verdict = check_record(source_of("foursquare: 1\nseed: -0\nmoves: []\n"))
    assert [(p.line, p.message) for p in verdict.problems] == [
        (2, "seed: -0 is written with a sign; seeds are 0 to 18446744073709551615")
    ]


def test_a_seed_with_a_capital_x_is_text_to_yaml_and_the_problem_says_how_hex_is_written():
    """An outside try: `--seed 0X10` is taken from a person at the command line, `seed: 0X5c` refused with no
    word of why (YAML reads 0x alone as hex, in 1.1 and 1.2 alike)."""
    verdict = check_record(source_of("foursquare: 1\nseed: 0X5c\nmoves: []\n"))
    assert [(p.line, p.message) for p in verdict.problems] == [
        (
            2,
            "seed: '0X5c' is a string (hex is written 0x, a small x: 0x5c); a seed is a whole number from 0 to "
            "18446744073709551615",
        )
    ]
    assert check_record(source_of("foursquare: 1\nseed: 0x5c\nmoves: []\n")).valid


@pytest.mark.parametrize("word", ["undo", "quit", "hint", "please"])
def test_a_word_in_a_move_log_is_said_to_be_no_move_not_no_such_cell(tmp_path, word):
    """An outside try: a log with `undo` was answered `no such cell; cells are A1 to D4`, where a pipe into play
    says what the word is."""
    log = tmp_path / "g.moves"
    log.write_text(f"B2\n{word}\n")
    result = runner.invoke(app, ["replay", str(log), "--seed", "1"])
    assert result.exit_code == 1
    said = "not a move; a move is a cell (B3), a cell and top (B3 top) or a shift (shift up)"
    assert result.stderr == f"{log}:2: move 2 '{word}': {said}\n"


def test_duplicate_keys_inside_meta_are_refused_too():
    verdict = check_record(source_of("foursquare: 1\nseed: 1\nmoves: []\nmeta:\n  a: 1\n  a: 2\n"))
    assert [(p.line, p.message) for p in verdict.problems] == [
        (6, "duplicate key 'a' (first at line 5); a key may appear once")
    ]


def test_an_oversized_file_is_refused_before_parsing():
    data = b"foursquare: 1\nseed: 1\nmoves: []\nmeta: {x: '" + b"x" * MAX_INPUT_BYTES + b"'}\n"
    source = read_source("big.yaml", data)
    assert [p.located("big.yaml") for p in source.problems] == ["big.yaml: larger than 1 MiB; refused before parsing"]


def test_deep_nesting_is_refused_without_a_traceback():
    source = source_of("foursquare: 1\nseed: 1\nmoves: []\nmeta: " + "[" * 100_000 + "]" * 100_000 + "\n")
    assert source.kind == "unreadable" and source.problems


def test_claims_must_match_the_moves():
    verdict = check_record(source_of("foursquare: 1\nseed: 1\nmoves: [B2]\nresult: playing\nscore: 3\n"))
    assert [p.message for p in verdict.problems] == ["score: a score is only for a won game; the moves give 'playing'"]


def test_after_an_illegal_move_later_moves_are_not_judged():
    verdict = check_record(source_of("foursquare: 1\nseed: 1\nmoves:\n  - B2\n  - D4\n  - Z9\n  - A1\n"))
    assert [(p.line, p.move_number, p.move_text) for p in verdict.problems] == [(5, 2, "D4")]
    assert verdict.problems[0].message == "move 2 'D4': D4 shares no edge with a pile"


# -- writing and reading back ------------------------------------------------------


@settings(max_examples=examples(60), deadline=None)
@given(seed=st.integers(0, 2**64 - 1), data=st.data(), with_seed=st.booleans(), undos=st.integers(0, 3))
def test_records_round_trip_and_check_accepts_them(seed, data, with_seed, undos, tmp_path_factory):
    state = State.from_seed(seed)
    moves = random_legal_play(state, data, 60)
    meta = {"player": "hypothesis", "notes": "round trip: 'quotes' and: colons"}
    game = Game(deal(seed), seed=seed if with_seed else None, meta=meta)
    game.play_all(moves)
    game.undos = undos
    path = tmp_path_factory.mktemp("records") / "game.yaml"
    with RecordFile(str(path)) as record:
        record.write(format_record(game))
    source = read_source(str(path))
    verdict = check_record(source)
    assert verdict.problems == []
    assert verdict.moves == moves
    assert verdict.state == state
    assert yaml.safe_load(source.meta) == {"meta": meta}
    assert source.result == state.status
    assert source.score == state.outcome.score
    assert source.undos == undos


def test_written_record_is_in_canonical_form():
    game = Game.from_seed(42)
    for text in ("b2", "C2", "b2   TOP", "SHIFT down"):
        game.play(Move.from_str(text))
    assert format_record(game) == (
        "foursquare: 1\nseed: 42\nmoves:\n  - B2\n  - C2\n  - B2 top\n  - shift down\nresult: playing\n"
    )
    assert format_record(Game.from_seed(42)) == "foursquare: 1\nseed: 42\nmoves: []\nresult: playing\n"
    game.undo()
    assert format_record(game).endswith("  - B2 top\nresult: playing\nundos: 1\n")


def test_a_record_file_replaces_and_leaves_no_temporary_or_lock(tmp_path):
    target = tmp_path / "game.yaml"
    target.write_text("old")
    with RecordFile(str(target), replace=True) as record:
        record.write("new")
    assert target.read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["game.yaml"]


# -- replay -------------------------------------------------------------------------

EMPTY_ROW = [None, None, None, None]


def test_replay_json_lines_are_exactly_the_spec_states(tmp_path):
    # Deal 0 begins 9S 3C 5S: B2 takes 9S; C2 takes 3C (3 < 9: B2 turns down).
    path = tmp_path / "g.yaml"
    path.write_text("foursquare: 1\nseed: 0\nmoves: [B2, c2, shift up]\n")
    result = runner.invoke(app, ["replay", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    states = [json.loads(line) for line in result.stdout.splitlines()]
    assert states[0] == {
        "ply": 0,
        "move": None,
        "card": None,
        "next": "9S",
        "stock": 40,
        "face_down": 0,
        "status": "playing",
        "score": None,
        "grid": [EMPTY_ROW] * 4,
    }
    assert states[1] == {
        "ply": 1,
        "move": "B2",
        "card": "9S",
        "next": "3C",
        "stock": 39,
        "face_down": 0,
        "status": "playing",
        "score": None,
        "grid": [EMPTY_ROW, [None, {"card": "9S", "up": True, "height": 1}, None, None], EMPTY_ROW, EMPTY_ROW],
    }
    assert states[2]["grid"][1] == [
        None,
        {"card": "9S", "up": False, "height": 1},
        {"card": "3C", "up": True, "height": 1},
        None,
    ]
    assert (states[2]["move"], states[2]["face_down"]) == ("C2", 1)
    assert states[3] == {
        "ply": 3,
        "move": "shift up",
        "card": None,
        "next": "5S",
        "stock": 38,
        "face_down": 1,
        "status": "playing",
        "score": None,
        "grid": [
            [None, {"card": "9S", "up": False, "height": 1}, {"card": "3C", "up": True, "height": 1}, None],
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
        ],
    }
    assert all(list(state) == list(states[0]) for state in states), "keys in the spec's order"


def test_replay_text_shows_each_move_and_its_card(tmp_path):
    path = tmp_path / "g.moves"
    path.write_text("B2\nshift up\n")
    result = runner.invoke(app, ["replay", str(path), "--seed", "0"])
    assert result.exit_code == 0
    headings = [line for line in result.stdout.splitlines() if line.startswith(("Start", "Move"))]
    assert headings == ["Start", "Move 1: B2 places 9S", "Move 2: shift up (free: no card drawn)"]
    assert result.stdout.count("Next card:") == 3


def test_replay_stops_at_the_first_illegal_move_with_file_line_and_move(tmp_path):
    path = tmp_path / "g.moves"
    path.write_text("# deal 0\nB2\nC2\nA4\nC3\n")
    result = runner.invoke(app, ["replay", str(path), "--seed", "0", "--format", "json"])
    assert result.exit_code == 1
    assert len(result.stdout.splitlines()) == 3  # ply 0, 1, 2
    assert result.stderr == f"{path}:4: move 3 'A4': A4 shares no edge with a pile\n"


def test_replay_needs_a_deal_for_a_move_log_and_refuses_a_conflicting_seed(tmp_path):
    log = tmp_path / "g.moves"
    log.write_text("B2\n")
    result = runner.invoke(app, ["replay", str(log)])
    assert result.exit_code == 2 and "carries no deal" in result.stderr
    record = tmp_path / "g.yaml"
    record.write_text("foursquare: 1\nseed: 3\nmoves: []\n")
    result = runner.invoke(app, ["replay", str(record), "--seed", "4"])
    assert result.exit_code == 2
    assert result.stderr == f"{record}: --seed 4 disagrees with the record's seed 3\n"
    assert runner.invoke(app, ["replay", str(record), "--seed", "3"]).exit_code == 0


def test_replay_with_a_deck_option(tmp_path):
    log = tmp_path / "g.moves"
    log.write_text("B2\n")
    result = runner.invoke(app, ["replay", str(log), "--deck", " ".join(map(str, deal(0))), "-f", "json"])
    assert result.exit_code == 0
    assert json.loads(result.stdout.splitlines()[1])["card"] == "9S"
    result = runner.invoke(app, ["replay", str(log), "--deck", "AS 2S"])
    assert result.exit_code == 2 and "exactly 40 cards" in result.stderr


def test_replay_reads_standard_input_in_a_real_process():
    process = subprocess.run(
        [sys.executable, "-m", "foursquare_cli", "replay", "-", "--format", "json"],
        input="foursquare: 1\nseed: 0\nmoves: [B2]\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode == 0 and len(process.stdout.splitlines()) == 2 and process.stderr == ""


def test_replay_of_a_missing_file_is_a_usage_error():
    result = runner.invoke(app, ["replay", "no/such/file.yaml", "--seed", "1"])
    assert result.exit_code == 2
    assert result.stderr == "no/such/file.yaml: cannot read: No such file or directory\n"


# -- check --------------------------------------------------------------------------


def test_check_json_reports_one_object_per_file(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("foursquare: 1\nseed: 0\nmoves: [B2]\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("foursquare: 1\nseed: 0\nmoves:\n  - B2\n  - B2\n")
    result = runner.invoke(app, ["check", str(good), str(bad), "--format", "json"])
    assert result.exit_code == 1
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert reports == [
        {
            "path": str(good),
            "valid": True,
            "outcome": {"status": "playing", "score": None, "moves": 1, "undos": 0},
            "problems": [],
        },
        {
            "path": str(bad),
            "valid": False,
            "outcome": {"status": "playing", "score": None, "moves": 1, "undos": 0},
            "problems": [
                {
                    "line": 5,
                    "move": 2,
                    "move_text": "B2",
                    "message": "move 2 'B2': B2 holds a pile; to place on it, write 'B2 top'",
                }
            ],
        },
    ]


def test_check_exit_codes(tmp_path):
    good = tmp_path / "good.yaml"
    good.write_text("foursquare: 1\nseed: 0\nmoves: []\n")
    assert runner.invoke(app, ["check", str(good)]).exit_code == 0
    assert runner.invoke(app, ["check", str(good), str(tmp_path / "missing.yaml")]).exit_code == 2
    assert runner.invoke(app, ["check", str(good), "--format", "xml"]).exit_code == 2
    assert runner.invoke(app, ["check"]).exit_code == 2


def test_check_names_a_move_log_and_a_file_that_is_neither_as_such():
    """Issue 48: check says what a file that is not a game record is, without guessing: a move log (every line
    a move, a pair or a comment) names no deal to check it on; any other file is neither."""
    verdict = check_record(source_of("B2\n# a comment\nshift up, then B1\n", "log.moves"))
    assert [p.located("log.moves") for p in verdict.problems] == [
        "log.moves:1: a move log, not a game record: it names no deal (replay it with --seed N to check its moves)"
    ]
    verdict = check_record(source_of("# Notes\n\nThe games of last week\n", "README.md"))
    assert [p.located("README.md") for p in verdict.problems] == [
        "README.md:3: not a game record (no YAML mapping) nor a move log: 'The games of last week' is no move"
    ]


def test_check_of_a_folder_checks_every_file_in_it(tmp_path):
    (tmp_path / "deeper").mkdir()
    (tmp_path / "deeper" / "a.yaml").write_text("foursquare: 1\nseed: 1\nmoves: [B2]\n")
    (tmp_path / "notes.txt").write_text("hello there\n")
    (tmp_path / ".hidden.yaml").write_text("not: checked\n")
    result = runner.invoke(app, ["check", str(tmp_path)])
    notes, deeper = tmp_path / "notes.txt", tmp_path / "deeper" / "a.yaml"
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [f"{notes}: invalid (1 problem)", f"{deeper}: playing, 1 move"]
    assert result.stderr == f"{notes}:1: not a game record (no YAML mapping) nor a move log: 'hello there' is no move\n"


def test_judge_reports_each_state_to_a_listener():
    seen = []
    source = source_of("foursquare: 1\nseed: 0\nmoves: [B2, shift up]\n")
    judge(source, on_step=lambda step: seen.append((step.ply, str(step.move), str(step.card))))
    assert seen == [(0, "None", "None"), (1, "B2", "9S"), (2, "shift up", "None")]


@pytest.mark.parametrize(
    "document",
    [
        "foursquare: 1\nseed: 1\nmoves: []\nmeta: [" + ",".join(["1"] * 400_000) + "]\n",
        "foursquare: 1\nseed: 1\nmoves: []\nmeta:\n"
        + "".join(f"  k{i}: &k{i} [{', '.join([f'*k{i - 1}' if i else '1'] * 9)}]\n" for i in range(12)),
        "foursquare: 1\nseed: 1\nmoves: []\nmeta: " + "[" * 200_000 + "]" * 200_000 + "\n",
    ],
    ids=["wide", "billion-laughs", "deep"],
)
def test_hostile_documents_are_refused_in_a_few_megabytes(document):
    import tracemalloc

    data = document.encode()
    assert len(data) < MAX_INPUT_BYTES
    tracemalloc.start()
    try:
        source = read_source("hostile.yaml", data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert source.kind == "unreadable" and len(source.problems) == 1
    assert peak < 3 * len(data) + 2_000_000, f"peak {peak:,} bytes for a {len(data):,}-byte file"


@pytest.mark.parametrize(
    "name, text, line, no_move",
    [
        ("moves.json", '["B2", "C2"]\n', 1, '\'["B2", "C2"]\''),
        ("notes.md", "# Notes\n\nSome *text* here.\n", 3, "'Some *text* here.'"),
    ],
)
def test_a_file_that_is_neither_record_nor_move_log_is_said_so_by_every_command(tmp_path, name, text, line, no_move):
    """A JSON array or a page of Markdown is no game record and no move log: `check` said so, but replay, hint,
    analyze and play --resume asked for a deal (`a move log carries no deal; give --seed N`), which would not
    help. Every command says it as check does, exit 1; given a deal too, as nothing in the file is a move."""
    path = tmp_path / name
    path.write_text(text)
    said = f"{path}:{line}: not a game record (no YAML mapping) nor a move log: {no_move} is no move\n"
    assert runner.invoke(app, ["check", str(path)]).stderr == said
    for command in (["replay"], ["hint"], ["analyze"], ["play", "--resume"], ["replay", "--seed", "1"]):
        result = runner.invoke(app, [*command, str(path)])
        assert result.exit_code == 1 and result.stderr.startswith(said), (command, result.stderr)
        assert "carries no deal" not in result.stderr


def test_a_move_log_with_a_mistake_further_on_is_still_played_up_to_it_with_a_deal(tmp_path):
    path = tmp_path / "typo.log"
    path.write_text("B2\nC2\nB5\n")
    result = runner.invoke(app, ["replay", str(path), "--seed", "1"])
    assert result.exit_code == 1 and result.stderr == f"{path}:3: move 3 'B5': no such cell; cells are A1 to D4\n"
    assert "Move 2" in result.stdout


def test_a_control_character_in_a_record_is_said_with_its_line_and_column():
    """An outside try: a NUL had no line (the YAML reader's errors carry a position, not a mark)."""
    for text, line, column in [("foursquare: 1\nseed: 1\nmoves: [B2\x00]\n", 3, 11), ("\ufeffseed: 1\x07\n", 1, 8)]:
        problems = read_source("g.yaml", text.encode()).problems
        assert [(p.line, p.column) for p in problems] == [(line, column)]
        assert problems[0].message.startswith("YAML syntax error: unacceptable character #x00")


def test_a_long_text_quoted_in_a_problem_is_counted_without_its_quotes():
    """An outside try: 48 characters were said to be 50."""
    text = f"foursquare: 1\nseed: 1\nmoves: []\nresult: {'a' * 48}\n"
    (problem,) = read_source("g.yaml", text.encode()).problems
    assert "... (48 characters)" in problem.message
