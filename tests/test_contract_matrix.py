"""The contract matrix (issue 58): every command, in every format it takes and in each of its modes, run
in-process on tiny workloads (greedy and random players, a few deals, small budgets).

Every JSON a case prints, and every results file and record it writes, is valid against the schema the tool
ships for it (as `foursquare schema NAME` prints it), and every key of it is described in docs/protocol.md. A
refusal (exit 2), in JSON too, is one line on standard error; a wrong input (exit 1) is said there; never a
traceback; and each case exits with its code of docs/commands.md. The rows are held to the CLI's own table: a
command without a row fails, and so does a row that leaves out a format its `--format` takes, or (for a command
that prints JSON) a refusal in JSON.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import pathlib
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import jsonschema
import pytest
import yaml
from typer.testing import CliRunner

from foursquare_cli.cli import app
from foursquare_cli.cli.app import COMMAND_ORDER, every_command
from foursquare_cli.formats.schemas import SCHEMA_NAMES

ROOT = pathlib.Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
PROTOCOL = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
DOCUMENTED_EXITS = {
    int(code) for code in re.findall(r"^\| (\d+) \|", (ROOT / "docs" / "commands.md").read_text(), re.M)
}
A_SCHEMA = "(a JSON Schema)"  # `schema NAME -f json` prints a schema: checked against draft 2020-12's own
THE_LIST = "(the schema list)"  # `schema -f json`: a line a schema, its keys described by docs/protocol.md


def _renamed(tmp: pathlib.Path) -> None:
    """greedy's games and plan renamed random: each line still a legal game, but not random's."""
    (tmp / "bad").mkdir(exist_ok=True)
    (tmp / "bad" / "renamed.jsonl").write_text((tmp / "greedy.jsonl").read_text().replace('"greedy"', '"random"'))


def _empty(tmp: pathlib.Path) -> None:
    (tmp / "bad").mkdir(exist_ok=True)
    (tmp / "bad" / "empty.jsonl").write_text("")


def _tampered(tmp: pathlib.Path) -> None:
    """The first game's outcome claimed the other way: its moves do not give it."""
    (tmp / "bad").mkdir(exist_ok=True)
    plan, first, *rest = (tmp / "greedy.jsonl").read_text().splitlines()
    line = json.loads(first)
    line.update(won=not line["won"], score=None if line["won"] else 3)
    (tmp / "bad" / "tampered.jsonl").write_text("\n".join([plan, json.dumps(line), *rest]) + "\n")


class Case(NamedTuple):
    arguments: tuple[str, ...]
    schema: str | None  # the schema of each JSON line it prints; None: it prints no JSON
    exit: int
    stdin: str
    prepare: Callable[[pathlib.Path], None] | None


def run(
    line: str,
    *more: str,
    schema: str | None = None,
    exit: int = 0,
    stdin: str = "",
    prepare: Callable[[pathlib.Path], None] | None = None,
) -> Case:
    """A case: the words of `line`, then `more` (`{tmp}` is the row's folder, `{samples}` the samples')."""
    return Case((*line.split(), *more), schema, exit, stdin, prepare)


PIPED = "B2\nC2\nD2\n# a comment\nA2\nundo\nA2\nB1\nshift down\nB1\nquit\n"
QUICK = "--playouts 20 --solve-budget 2000"
INVALID = sorted(f"{{samples}}/invalid/{path.name}" for path in (SAMPLES / "invalid").glob("*.yaml"))

# command: its cases, in order, each in the command's own folder `{tmp}` (its own data folder too)
MATRIX: dict[str, list[Case]] = {
    "play": [
        run("play --seed 42 --no-record", stdin=PIPED),
        run("play --seed 42 --record {tmp}/piped.yaml -f json", schema="state", stdin=PIPED),
        run("play --seed 42 --no-record -f json", schema="state", exit=1, stdin="B2\nA4\n"),
        run("play --seed x -f json", exit=2),
    ],
    "rules": [run("rules"), run("rules extra", exit=2)],
    "hint": [
        run("hint {samples}/unfinished.yaml --playouts 30"),
        run("hint {samples}/unfinished.yaml --playouts 30 -f json", schema="hint"),
        run("hint {samples}/unfinished.yaml -p greedy -f json", schema="hint"),
        run("hint {samples}/won.yaml -f json", exit=1),
        run("hint {tmp}/missing.yaml -f json", exit=2),
    ],
    "history": [
        run("play --seed 1", stdin="B2\nC2\n"),
        run("history"),
        run("history -f json", schema="history"),
        run("history -f csv"),
        run("history --share 1999-01-01 -f json", exit=2),
    ],
    "replay": [
        run("replay {samples}/won.yaml"),
        run("replay {samples}/lost.yaml -f json", schema="state"),
        run("replay {samples}/opening.moves --seed 5 -f json", schema="state"),
        run("replay {samples}/invalid/illegal-move.yaml -f json", schema="state", exit=1),
        run("replay {samples}/opening.moves -f json", exit=2),
    ],
    "analyze": [
        run(f"analyze {{samples}}/lost.yaml {QUICK}"),
        run(f"analyze {{samples}}/lost.yaml {QUICK} --results {{tmp}}/analysis.jsonl -f json", schema="analyze"),
        run(f"analyze {{tmp}}/missing.yaml {QUICK} -f json", exit=2),
    ],
    "check": [
        run("check {samples}/won.yaml {samples}/lost.yaml {samples}/unfinished.yaml"),
        run("check {samples}/won.yaml {samples}/unfinished.yaml -f json", schema="check"),
        run("check {samples}/won.yaml -f json", *INVALID, schema="check", exit=1),
        run("check {samples}/won.yaml {tmp}/missing.yaml -f json", schema="check", exit=2),
    ],
    "solve": [
        run("solve --seed 3 --budget 30000"),
        run("solve --seed 3 --budget 30000 --record {tmp}/solved.yaml -f json", schema="solve"),
        run("solve --seed 1 --budget 10 -f json", schema="solve", exit=4),
        run("solve --seed -1 -f json", exit=2),
    ],
    "deal": [run("deal --seed 1"), run("deal", exit=2)],
    "auto": [
        run("auto --seed 3 -p greedy"),
        run("auto --seed 3 -p greedy -f json", schema="state"),
        run("auto --seed 4 -p random --player-seed 3 --record {tmp}/auto.yaml -f json", schema="state"),
        run("auto -p nobody -f json", exit=2),
    ],
    "stats": [
        run("stats -n 4 -p greedy"),
        run("stats -n 4 -p greedy --results {tmp}/run.jsonl -f json", schema="stats"),
        run("stats -n 4 -p greedy --results {tmp}/run.jsonl -f json", schema="stats"),  # a rerun: nothing played
        run("stats -n 4 -p random --sealed --results {tmp}/sealed.jsonl -f json", schema="stats"),
        run("stats -n 5 -p greedy --shard 1/2 --results {tmp}/half.jsonl -f json", schema="stats"),
        run("stats -n 5 -p greedy --shard 2/2"),
        run("stats -n 0 -f json", exit=2),
    ],
    "compare": [
        run("compare greedy random -n 4"),
        run("compare greedy random -n 4 --results {tmp}/pair.jsonl -f json", schema="compare"),
        run("compare greedy random -n 20 --sprt --results {tmp}/sprt.jsonl -f json", schema="compare"),
        run("compare greedy random -n 20 --sprt"),
        run("compare greedy random -n 5 --shard 2/3 --results {tmp}/third.jsonl -f json", schema="compare"),
        run("compare greedy random -n 5 --shard 1/3"),
        run("compare greedy random -n 20 --sprt --shard 1/2 -f json", exit=2),
        run("compare greedy -n 4 -f json", exit=2),
    ],
    "summarize": [
        run("stats -n 6 -p greedy --results {tmp}/greedy.jsonl"),
        run("stats -n 6 -p greedy --shard 1/2 --results {tmp}/shard1.jsonl"),
        run("stats -n 6 -p greedy --shard 2/2 --results {tmp}/shard2.jsonl"),
        run("compare greedy random -n 4 --results {tmp}/pair.jsonl"),
        run("compare greedy random -n 300 --sprt --results {tmp}/decided.jsonl"),  # decided well before 300
        run("summarize {tmp}/greedy.jsonl"),
        run("summarize {tmp}/greedy.jsonl -f json", schema="stats"),
        run("summarize {tmp}/greedy.jsonl --verify -f json", schema="stats"),
        run("summarize {tmp}/shard1.jsonl -f json", schema="stats"),
        run("summarize {tmp}/shard1.jsonl {tmp}/shard2.jsonl -f json", schema="stats"),
        run("summarize {tmp}/pair.jsonl --verify"),
        run("summarize {tmp}/pair.jsonl -f json", schema="compare"),
        run("summarize {tmp}/decided.jsonl"),
        run("summarize {tmp}/decided.jsonl -f json", schema="compare"),
        run("summarize {tmp}/missing.jsonl -f json", exit=2),
        run("summarize {tmp}/bad/empty.jsonl -f json", exit=2, prepare=_empty),
        run("summarize {tmp}/bad/tampered.jsonl -f json", exit=1, prepare=_tampered),
        run("summarize {tmp}/bad/renamed.jsonl --verify -f json", exit=1, prepare=_renamed),
        run("summarize {tmp}/greedy.jsonl {tmp}/pair.jsonl -f json", exit=2),
    ],
    "schema": [
        run("schema"),
        run("schema -f json", schema=THE_LIST),
        run("schema compare"),
        *(run(f"schema {name} -f json", schema=A_SCHEMA) for name in SCHEMA_NAMES),
        run("schema nothing -f json", exit=2),
    ],
    "config": [run("config"), run("config extra", exit=2)],
    "completion": [run("completion bash"), run("completion tcsh", exit=2)],
    "help": [run("help"), run("help compare"), run("help nothing", exit=2)],
}


@functools.cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    """The schema as the tool prints it (`foursquare schema NAME -f json`)."""
    printed = CliRunner().invoke(app, ["schema", name, "-f", "json"], prog_name="foursquare")
    return jsonschema.Draft202012Validator(json.loads(printed.stdout))


def _keys(value: object) -> Iterator[str]:
    """Every key of every object in `value`, but those of `forfeits` (a reason is a value, not a key of ours)."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            if key != "forfeits":
                yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def _invalid(name: str, values: list[Any], where: str) -> list[str]:
    validator = _validator(name)
    return [
        f"{where}: {name}: {error.json_path}: {error.message}" for v in values for error in validator.iter_errors(v)
    ]


def _written(tmp: pathlib.Path) -> tuple[list[str], list[Any]]:
    """The problems of the results files and records a row wrote (those it made bad on purpose aside), and
    their objects."""
    problems: list[str] = []
    objects: list[Any] = []
    for path in sorted(tmp.glob("*.jsonl")):
        plan, *lines = [json.loads(line) for line in path.read_text().splitlines()]
        kind = "analyze" if plan["command"] == "analyze" else "results-game"
        problems += _invalid("results-plan", [plan], path.name) + _invalid(kind, lines, path.name)
        objects += [plan, *lines]
    for path in sorted(tmp.glob("*.yaml")):
        record = yaml.safe_load(path.read_text())
        problems += _invalid("record", [record], path.name)
    return problems, objects


def _format_of(arguments: tuple[str, ...]) -> str:
    for option in ("-f", "--format"):
        if option in arguments:
            return arguments[arguments.index(option) + 1]
    return "text"


def _formats_taken(command: str) -> set[str]:
    """The choices of the command's `--format`, as the CLI declares them (text alone when it has none)."""
    formats = {
        choice for p in every_command()[command].params if p.name == "output_format" for choice in p.type.choices
    }
    return formats or {"text"}


def test_every_command_of_the_cli_has_a_row():
    assert sorted(every_command()) == sorted(COMMAND_ORDER) == sorted(MATRIX)


@pytest.mark.parametrize("command", COMMAND_ORDER)
def test_every_command_keeps_the_contract_in_every_format_and_mode(command, tmp_path, monkeypatch):
    assert command in MATRIX, f"{command} has no row in the contract matrix: give it its cases"
    cases = MATRIX[command]
    own = [case for case in cases if case.arguments[0] == command]
    assert {_format_of(case.arguments) for case in own} == _formats_taken(command), "a format without a case"
    if "json" in _formats_taken(command):
        assert any(case.exit != 0 and _format_of(case.arguments) == "json" for case in own), "no refusal in JSON"
    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("FOURSQUARE_CONFIG", str(tmp_path / "no-settings.toml"))
    monkeypatch.setenv("NO_COLOR", "1")
    problems: list[str] = []
    printed: list[Any] = []
    for case in cases:
        if case.prepare is not None:
            case.prepare(tmp_path)
        arguments = [a.replace("{tmp}", str(tmp_path)).replace("{samples}", str(SAMPLES)) for a in case.arguments]
        result = CliRunner().invoke(app, arguments, input=case.stdin, prog_name="foursquare")
        said = f"foursquare {' '.join(case.arguments)}"
        out, err = result.stdout, result.stderr
        if result.exit_code != case.exit or case.exit not in DOCUMENTED_EXITS:
            problems.append(f"{said}: exit {result.exit_code}, not {case.exit}: {err.strip()[:200]}")
        if "Traceback" in out + err or (case.exit == 2 and err.count("\n") != 1) or (case.exit == 1 and not err):
            # a refusal is one line; a wrong input is said too (with each of its problems, or the game to save)
            problems.append(f"{said}: a refusal is one line on standard error, not {err!r}")
        fmt = _format_of(case.arguments)
        if fmt == "csv":
            rows = list(csv.reader(io.StringIO(out)))
            problems += [] if rows and all(len(row) == len(rows[0]) for row in rows) else [f"{said}: not CSV"]
        if fmt != "json":
            continue
        lines = [json.loads(line) for line in out.splitlines()]
        if case.schema is None:
            problems += [f"{said}: printed JSON no schema was named for"] if lines else []
        elif case.schema == A_SCHEMA:
            for document in lines:
                jsonschema.Draft202012Validator.check_schema(document)
        else:
            if not lines:
                problems.append(f"{said}: printed nothing to hold to {case.schema}")
            if case.schema == THE_LIST:
                problems += [] if [line["name"] for line in lines] == list(SCHEMA_NAMES) else [f"{said}: names"]
            else:
                problems += _invalid(case.schema, lines, said)
            printed += lines
    written, objects = _written(tmp_path)
    problems += written
    undescribed = sorted({key for key in _keys(printed + objects) if f"`{key}`" not in PROTOCOL})
    problems += [f"keys docs/protocol.md does not describe: {undescribed}"] if undescribed else []
    assert problems == []
