"""The JSON Schemas the tool ships (`foursquare schema`): valid schemas, changed only with a new version, and
every JSON the tool prints or writes, and every sample record, valid against its schema (the `jsonschema`
library, an independent validator)."""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import sys
from collections.abc import Callable

import jsonschema
import pytest
import yaml
from conftest import examples, in_process
from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare_cli.formats.jsonl import json_line
from foursquare_cli.formats.schemas import SCHEMA_NAMES, SCHEMAS, schema_entry
from foursquare_cli.rules import Card, Move

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
FINGERPRINTS = pathlib.Path(__file__).resolve().parent / "schema_fingerprints.json"
RECORD_NEW = os.environ.get("FOURSQUARE_SCHEMAS") == "record"


def _validator(name: str) -> jsonschema.Draft202012Validator:
    document = json.loads(in_process("schema", name, "-f", "json").stdout)  # as the command prints it
    return jsonschema.Draft202012Validator(document)


def _valid(name: str, lines: str | list[object]) -> list[object]:
    """Every line (a JSON Lines text, or objects) valid against the schema `name`; the objects."""
    objects = [json.loads(line) for line in lines.splitlines()] if isinstance(lines, str) else lines
    validator = _validator(name)
    problems = [
        f"{name}: {error.json_path}: {error.message}" for item in objects for error in validator.iter_errors(item)
    ]
    assert problems == []
    assert objects, f"nothing to validate against {name}"
    return objects


def test_every_schema_is_a_draft_2020_12_schema_named_by_its_format_and_version():
    listed = [json.loads(line) for line in in_process("schema", "-f", "json").stdout.splitlines()]
    assert [entry["name"] for entry in listed] == list(SCHEMA_NAMES)
    for entry in listed:
        document = json.loads(in_process("schema", entry["name"], "-f", "json").stdout)
        jsonschema.Draft202012Validator.check_schema(document)
        assert document["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert document["$id"] == entry["id"] == f"urn:foursquare:schema:{entry['name']}:{entry['version']}"
        text = in_process("schema", entry["name"]).stdout
        assert json.loads(text) == document, "the text is the same schema, indented"


def test_an_unknown_schema_is_one_line_naming_the_schemas():
    result = in_process("schema", "states")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"foursquare schema: 'states': no such schema; schemas are {', '.join(SCHEMA_NAMES)}\n"


def test_a_schema_changes_only_with_its_formats_version():
    """Each version of each schema has its fingerprint in tests/schema_fingerprints.json: a schema changed under
    the same version fails here. A new version is recorded with FOURSQUARE_SCHEMAS=record (which never
    rewrites the fingerprint of a version already recorded)."""
    recorded = json.loads(FINGERPRINTS.read_text()) if FINGERPRINTS.exists() else {}
    now = {
        f"{entry.name}:{entry.version}": hashlib.sha256(json_line(entry.document()).encode()).hexdigest()
        for entry in SCHEMAS
    }
    if RECORD_NEW:
        FINGERPRINTS.write_text(json.dumps(now | recorded, indent=1, sort_keys=True) + "\n")
        recorded = now | recorded
    changed = sorted(key for key in now if key in recorded and recorded[key] != now[key])
    assert changed == [], "a schema changed under the same version: give its format a new version"
    assert sorted(set(now) - set(recorded)) == [], "a new version: record it (FOURSQUARE_SCHEMAS=record)"


# -- what the tool prints and writes, validated ----------------------------------------------------------


def test_the_states_of_replay_play_and_auto_are_valid(tmp_path):
    for name in ("won", "lost", "unfinished"):
        _valid("state", in_process("replay", str(SAMPLES / f"{name}.yaml"), "-f", "json").stdout)
    _valid("state", in_process("replay", str(SAMPLES / "opening.moves"), "--seed", "5", "-f", "json").stdout)
    piped = in_process("play", "--seed", "42", "--no-record", "-f", "json", input="B2\nC2\nundo\nshift down\nB1\n")
    _valid("state", piped.stdout)
    for player in ("greedy", "random"):
        states = _valid("state", in_process("auto", "--seed", "3", "-p", player, "-f", "json").stdout)
        assert states[-1]["status"] in ("won", "lost")  # type: ignore[index]


def test_the_states_a_program_is_sent_are_valid(tmp_path):
    log = tmp_path / "seen.jsonl"
    bot = tmp_path / "bot.py"
    bot.write_text(
        "import json, sys\n"
        f"log = open({str(log)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    state = json.loads(line)\n"
        "    if state['status'] == 'playing':\n"
        "        print(state['legal'][0], flush=True)\n"
    )
    result = in_process("stats", "-n", "3", "-p", f"cmd:{sys.executable} {bot}", "-f", "json")
    assert result.returncode == 0, result.stderr
    states = _valid("protocol-state", log.read_text())
    assert any(state["status"] != "playing" and state["legal"] == [] for state in states)  # type: ignore[index]
    _valid("stats", result.stdout)


def test_check_hint_and_solve_print_valid_json(tmp_path):
    records = [str(SAMPLES / f"{name}.yaml") for name in ("won", "lost", "unfinished")]
    invalid = sorted(str(path) for path in (SAMPLES / "invalid").glob("*.yaml"))
    _valid("check", in_process("check", *records, *invalid, str(tmp_path / "missing.yaml"), "-f", "json").stdout)
    unfinished = str(SAMPLES / "unfinished.yaml")
    _valid("hint", in_process("hint", unfinished, "--playouts", "200", "-f", "json").stdout)
    _valid("hint", in_process("hint", unfinished, "-p", "greedy", "-f", "json").stdout)
    _valid("solve", in_process("solve", "--seed", "1", "--budget", "2000", "-f", "json").stdout)
    _valid("solve", in_process("solve", "--seed", "3", "--budget", "100000", "-f", "json").stdout)


def test_stats_compare_summarize_and_their_results_files_are_valid(tmp_path):
    run = tmp_path / "run.jsonl"
    _valid("stats", in_process("stats", "-n", "6", "-p", "greedy", "--results", str(run), "-f", "json").stdout)
    plan, *games = run.read_text().splitlines()
    _valid("results-plan", [json.loads(plan)])
    _valid("results-game", "\n".join(games))
    shard = tmp_path / "shard.jsonl"
    in_process("stats", "-n", "6", "-p", "greedy", "--shard", "1/2", "--results", str(shard))
    partial = _valid("stats", in_process("summarize", str(shard), "-f", "json").stdout)
    assert partial[0]["missing"] == 3  # type: ignore[index]
    pairs = tmp_path / "pairs.jsonl"
    _valid(
        "compare", in_process("compare", "greedy", "random", "-n", "4", "--results", str(pairs), "-f", "json").stdout
    )
    _valid("compare", in_process("summarize", str(pairs), "-f", "json").stdout)
    _valid("results-plan", [json.loads(pairs.read_text().splitlines()[0])])


def test_analyze_and_its_results_file_are_valid(tmp_path):
    results = tmp_path / "analysis.jsonl"
    arguments = ["--playouts", "30", "--solve-budget", "500"]  # the form is checked, not the figures
    lines = in_process("analyze", str(SAMPLES / "lost.yaml"), str(SAMPLES / "won.yaml"), *arguments, "-f", "json")
    analysed = _valid("analyze", lines.stdout)
    assert {line["type"] for line in analysed} == {"move", "summary"}  # type: ignore[index]
    in_process("analyze", str(SAMPLES / "lost.yaml"), *arguments, "--results", str(results))
    plan, *summaries = results.read_text().splitlines()
    _valid("results-plan", [json.loads(plan)])
    _valid("analyze", "\n".join(summaries))


def test_history_is_valid_with_games_of_every_kind(tmp_path):
    home = {"FOURSQUARE_HOME": str(tmp_path / "home")}
    won = [line.strip()[2:] for line in (SAMPLES / "won.yaml").read_text().splitlines() if line.startswith("  - ")]
    in_process("play", "--seed", "92", input="\n".join(won) + "\n", **home)
    in_process("play", "--seed", "1", input="B2\nC2\n", **home)
    in_process("play", "--daily", input="B2\n", **home)
    in_process("play", "--daily", input="B2\n", **home)  # the second of the day: practice
    report = _valid("history", in_process("history", "-f", "json", **home).stdout)
    games = report[0]["games"]  # type: ignore[index]
    assert len(games) == 4 and any(game["practice"] for game in games) and any(game["daily"] for game in games)


# -- records ----------------------------------------------------------------------------------------------


def _record(path: pathlib.Path) -> object:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_every_sample_record_and_every_record_the_tool_writes_is_valid(tmp_path):
    written = [tmp_path / "auto.yaml", tmp_path / "solved.yaml", tmp_path / "played.yaml"]
    in_process("auto", "--seed", "7", "-p", "greedy", "--record", str(written[0]))
    in_process("solve", "--seed", "3", "--budget", "100000", "--record", str(written[1]))
    in_process("play", "--seed", "42", "--record", str(written[2]), input="B2\nC2\nundo\nshift down\n")
    paths = [SAMPLES / f"{name}.yaml" for name in ("won", "lost", "unfinished")] + written
    _valid("record", [_record(path) for path in paths])


# The invalid samples whose fault is one of form, which a schema sees; the others (an illegal move, a claim the
# moves contradict, a seed and a deck that disagree, a card twice in a deck given as one string) need the game
# played, and files that are not YAML (or whose YAML a loader refuses) never reach a schema.
FORM_FAULTS = [
    "deck-39-cards",
    "deck-41-cards",
    "deck-face-card",
    "deck-unknown-card",
    "empty",
    "invalid-move",
    "missing-moves",
    "moves-mapping",
    "moves-not-a-list",
    "moves-number",
    "no-deal",
    "not-a-mapping",
    "result-maybe",
    "seed-boolean",
    "seed-float",
    "seed-negative",
    "seed-string",
    "seed-too-large",
    "unknown-key",
    "version-2",
]


@pytest.mark.parametrize("name", FORM_FAULTS)
def test_the_record_schema_refuses_each_invalid_sample_whose_fault_is_one_of_form(name):
    assert not _validator("record").is_valid(_record(SAMPLES / "invalid" / f"{name}.yaml"))


_CARDISH = st.text(alphabet="A23456789TJQK10shdcSHDC\u2660\u2665\u2666\u2663xX ", max_size=5)
_MOVEISH = st.one_of(
    st.text(alphabet="ABCDEabcde012345 top\tTOPshiftSHIFTupdownleftrightUPDOWNLEFTRIGHT", max_size=14),
    st.builds(
        lambda move, case, space: space + (str(move).upper() if case else str(move)).replace(" ", space or " "),
        st.sampled_from([Move(code) for code in range(36)]),
        st.booleans(),
        st.sampled_from(["", " ", "\t", "  "]),
    ),
)


_RECORD = jsonschema.Draft202012Validator(schema_entry("record").document())


def _reads(parse: Callable[[str], object], text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True


@settings(max_examples=examples(300), deadline=None)
@given(_MOVEISH)
def test_the_record_schema_takes_a_move_exactly_when_the_reader_does(text):
    assert _RECORD.is_valid({"foursquare": 1, "seed": 1, "moves": [text]}) is _reads(Move.from_str, text)


@settings(max_examples=examples(300), deadline=None)
@given(_CARDISH)
def test_the_record_schema_takes_a_card_exactly_when_the_reader_does(text):
    others = [str(Card(index)) for index in range(40) if str(Card(index)) != text.strip().upper()][:39]
    assert _RECORD.is_valid({"foursquare": 1, "deck": [text, *others], "moves": []}) is _reads(Card.from_str, text)
