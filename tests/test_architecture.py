"""The plan of the house, held: layers that import only downward, no circles, no big files, the core free
of terminal libraries, cli that reaches only the application layer and the ui, every error a kind that the one
table maps to its exit code, JSON made only by a value's `to_json`, names defined once, no private name taken
from another module, a player that is one module and one line, and value types that never collide."""

from __future__ import annotations

import ast
import functools
import pathlib
import re

import pytest
from conftest import installed_beside
from typer.testing import CliRunner

import foursquare_cli
from foursquare_cli.cli import app
from foursquare_cli.errors import ExitStatus, FoursquareError
from foursquare_cli.rules import Card, Cell, Move

PACKAGE = pathlib.Path(foursquare_cli.__file__).parent
LAYERS = ("errors", "rules", "api", "formats", "store", "players", "agents", "runs", "app", "ui", "cli")
# `api` is the face of `rules` for players and scripts (it imports only `rules`). `agents` (the Gymnasium
# environment) stands apart above the players: it imports the layers below it, and no
# module imports it (`test_nothing_imports_the_agents`).


def _module_name(path: pathlib.Path) -> str:
    parts = ["foursquare_cli", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


@functools.cache
def _tree(path: pathlib.Path) -> ast.Module:
    """A module's syntax tree, parsed once for all the tests that read it."""
    return ast.parse(path.read_text(encoding="utf-8"))


def _imports(name: str, path: pathlib.Path) -> set[str]:
    """Every module of the package that `name` imports: at the top, inside functions, under TYPE_CHECKING."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(_tree(path)):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            root = ".".join(base + ([node.module] if node.module else []))
            targets = [f"{root}.{alias.name}" if f"{root}.{alias.name}" in MODULES else root for alias in node.names]
        else:
            continue
        found.update(target for target in targets if target.split(".")[0] == "foursquare_cli")
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _layer(name: str) -> int:
    parts = name.split(".")
    if len(parts) == 1:
        return -1  # the package's own __init__: the version, importing nothing
    if parts[1] == "__main__":
        return len(LAYERS)
    return LAYERS.index(parts[1])


def test_every_module_is_in_a_layer():
    for name in MODULES:
        parts = name.split(".")
        assert len(parts) == 1 or parts[1] in LAYERS + ("__main__",), name


def test_imports_run_only_downward():
    upward = [
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        for target in targets
        if _layer(target) > _layer(name)
    ]
    assert upward == []


def test_the_layer_test_sees_imports_inside_functions_and_under_type_checking():
    assert "foursquare_cli.app.play" in GRAPH["foursquare_cli.cli.game_commands"]  # imported inside functions
    assert "foursquare_cli.players.evaluation" in GRAPH["foursquare_cli.app.events"]  # under TYPE_CHECKING


def test_nothing_imports_the_agents():
    reaching = [
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if not name.startswith("foursquare_cli.agents")
        for target in targets
        if target.startswith("foursquare_cli.agents")
    ]
    assert reaching == []


def test_cli_reaches_only_the_application_layer_and_the_ui():
    """cli parses, calls `app`, and emits through `ui`: it never reaches the core below `app` (the handler
    reads the exit codes' table of `errors`)."""
    allowed = ("foursquare_cli.app", "foursquare_cli.ui", "foursquare_cli.cli", "foursquare_cli.errors")
    reaching = [
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if name.startswith("foursquare_cli.cli")
        for target in targets
        if target != "foursquare_cli" and not target.startswith(allowed)
    ]
    assert reaching == []


def test_no_private_name_is_taken_from_another_module():
    taken = []
    for name, path in MODULES.items():
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("foursquare_cli")):
                base = package[: len(package) - node.level + 1] if node.level else []
                source = ".".join(base + ([node.module] if node.module else []))
                private = [
                    alias.name for alias in node.names if alias.name.startswith("_") and not alias.name.endswith("__")
                ]
                taken += [f"{name} takes {source}.{alias}" for alias in private if source != name]
    assert taken == []


def _definitions(path: pathlib.Path) -> list[str]:
    names = []
    for node in _tree(path).body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [target.id for target in node.targets if isinstance(target, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return [name for name in names if not name.startswith("_")]


def test_every_name_is_defined_once_in_the_package():
    """A public name (a function, a class, a constant) means one thing: two modules never define the same one
    (re-exports aside: `from x import name` defines nothing)."""
    where: dict[str, list[str]] = {}
    for name, path in MODULES.items():
        for defined in _definitions(path):
            where.setdefault(defined, []).append(name)
    assert {name: modules for name, modules in where.items() if len(modules) > 1} == {}


def test_json_is_made_only_by_a_values_to_json():
    """JSON is written by `formats.jsonl.json_line` alone, and what reaches it is a value's own `to_json()`:
    `emit` and the results log take values' JSON and write it; every other caller hands a `to_json()` over."""
    dumps = [
        name
        for name, path in MODULES.items()
        if name != "foursquare_cli.formats.jsonl"
        and any(
            isinstance(node, ast.Attribute)
            and node.attr in ("dump", "dumps")
            and isinstance(node.value, ast.Name)
            and node.value.id == "json"
            for node in ast.walk(_tree(path))
        )
    ]
    assert dumps == []
    # emit and the results log write what values' to_json() made (the log's first line too, as a new file is
    # made whole); the history's `elsewhere.txt` keeps a path a line as a JSON string (no value's JSON)
    carriers = {
        "foursquare_cli.ui.output": ("emit",),
        "foursquare_cli.store.logs": ("append", "__init__"),
        "foursquare_cli.store.history": ("remember",),
    }
    loose = []
    for name, path in MODULES.items():
        tree = _tree(path)
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef) or function.name in carriers.get(name, ()):
                continue
            for node in ast.walk(function):
                if (
                    isinstance(node, ast.Call)
                    and getattr(node.func, "id", getattr(node.func, "attr", "")) in ("json_line", "append", "begin")
                    and name != "foursquare_cli.formats.jsonl"
                ):
                    if getattr(node.func, "id", None) == "json_line" or _is_a_log(node):
                        argument = node.args[0] if node.args else None
                        if not (isinstance(argument, ast.Call) and getattr(argument.func, "attr", "") == "to_json"):
                            loose.append(f"{name}:{node.lineno}")
    assert loose == []
    named = [
        f"{name}: {node.name}"
        for name, path in MODULES.items()
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.FunctionDef) and node.name.endswith("_json") and node.name != "to_json"
    ]
    assert named == []


def _is_a_log(call: ast.Call) -> bool:
    """A call to a results log's `append` or `begin` (`self._log.append(...)`)."""
    target = call.func
    return isinstance(target, ast.Attribute) and ast.unparse(target.value).endswith("_log")


PATIENT = """
class PatientPlayer:
    \"\"\"Waits for the right card (the greedy player in another package).\"\"\"

    SETTINGS = {"patience": int}

    def __init__(self, seed=0, patience=1):
        from foursquare_cli.players.greedy import GreedyPlayer

        if patience < 1:
            raise ValueError("patience is 1 or more")
        self._greedy = GreedyPlayer(seed)

    def choose(self, state):
        return self._greedy.choose(state)
"""


@pytest.mark.slow
def test_a_new_player_is_one_module_and_one_line_even_in_another_package(tmp_path):
    """Issue 49: a player is found through the `foursquare.players` entry points, as pytest finds its plugins. A
    package of someone else's, installed beside the tool, adds one with its module and one line: it is then in
    `--player`'s help and choices, the error for an unknown name, the docs' table, and plays in stats and compare
    (in a process of its own, as `module:` players do), its settings taken from its name."""
    import subprocess
    import sys

    folder = installed_beside(
        tmp_path, "patient-bots", "[foursquare.players]\npatient = patientbot:PatientPlayer\n", "patientbot", PATIENT
    )
    program = (
        "import sys\n"
        "from foursquare_cli.players import registry\n"
        "if sys.argv[1] == 'table':\n"
        "    print(registry.players_table())\n"
        "else:\n"
        "    from foursquare_cli.cli import main\n"
        "    main()\n"
    )
    environment = {**__import__("os").environ, "COLUMNS": "200", "PYTHONPATH": str(folder)}

    def run(*arguments: str) -> subprocess.CompletedProcess[str]:
        command = [sys.executable, "-c", program, *arguments]
        return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=120)

    from foursquare_cli.players.registry import registered_players

    listed = ", ".join([player.name for player in registered_players()] + ["patient", "cmd:COMMAND"])
    for command in ("stats", "compare"):
        helped = run(command, "--help")
        assert listed in " ".join(helped.stdout.split()), helped.stdout
    played = run("stats", "--games", "3", "--player", "patient:patience=2", "--format", "json")
    assert played.returncode == 0 and '"player":"patient:patience=2"' in played.stdout, played.stderr
    compared = run("compare", "patient", "greedy", "--games", "4", "--format", "json")
    assert compared.returncode == 0 and '"patient"' in compared.stdout, compared.stderr
    unknown = run("stats", "--games", "3", "--player", "wizard")
    assert f"players are {listed}" in " ".join(unknown.stderr.split())
    refused = run("stats", "--games", "3", "--player", "patient:patience=zero")
    assert refused.returncode == 2 and "patience takes a whole number" in refused.stderr
    assert (
        "| `patient` | Waits for the right card (the greedy player in another package) | `patience` |"
        in run("table").stdout
    )


def test_no_module_or_test_lists_the_registered_players_by_hand():
    """The registry is the one list: no source of the package, nor any test, spells the three out."""
    spelled = re.compile(r"random.{0,4}greedy.{0,4}expert|expert.{0,4}greedy.{0,4}random")
    found = [
        str(path)
        for path in [*PACKAGE.rglob("*.py"), *pathlib.Path(__file__).parent.glob("*.py")]
        if spelled.search(path.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_ui_reaches_the_store_only_through_the_application_layer():
    reaching = [
        f"{name} imports {target}"
        for name, targets in GRAPH.items()
        if name.startswith("foursquare_cli.ui.")
        for target in targets
        if target.startswith("foursquare_cli.store")
    ]
    assert reaching == []


def test_no_module_imports_itself_back_through_a_circle():
    circles = []

    def visit(name: str, trail: list[str]) -> None:
        for target in sorted(GRAPH.get(name, ())):
            if target in trail:
                circles.append(" -> ".join(trail[trail.index(target) :] + [target]))
            elif target not in done:
                visit(target, trail + [target])
        done.add(name)

    done: set[str] = set()
    for name in sorted(GRAPH):
        if name not in done:
            visit(name, [name])
    assert circles == []


def test_the_core_never_imports_a_terminal_library():
    for name, path in MODULES.items():
        if _layer(name) >= LAYERS.index("ui"):
            continue
        tree = _tree(path)
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            for imported in names:
                assert imported.split(".")[0] not in ("typer", "click", "rich"), f"{name} imports {imported}"


def test_an_import_inside_a_function_says_why_on_its_line():
    """Imports are at the top of a module; one inside a function is there for a reason its line gives (a cost
    to every start measured, an extra, a platform), as docs/development.md says."""
    unexplained = []
    for name, path in MODULES.items():
        lines = path.read_text().splitlines()
        for node in ast.walk(_tree(path)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                unexplained += [
                    f"{name}:{inner.lineno}"
                    for inner in ast.walk(node)
                    if isinstance(inner, (ast.Import, ast.ImportFrom)) and "#" not in lines[inner.lineno - 1]
                ]
    assert sorted(set(unexplained)) == []


def test_every_module_is_under_400_lines():
    long = {name: n for name, path in MODULES.items() if (n := len(path.read_text().splitlines())) >= 400}
    assert long == {}


# Modules that need an extra: without it they are not imported here (CI runs this test again with every
# extra installed, so each is checked there).
NEEDS_EXTRA = {
    "foursquare_cli.agents.environment": ("gymnasium", "numpy"),
}


def _extra_missing(name: str) -> bool:
    import importlib.util

    return any(importlib.util.find_spec(package) is None for package in NEEDS_EXTRA.get(name, ()))


def test_every_exception_class_of_the_package_is_a_foursquare_error():
    import importlib

    classes = []
    for name in MODULES:
        if name.endswith("__main__") or _extra_missing(name):
            continue
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == name:
                classes.append(value)
    assert len(classes) > 15
    assert [c.__qualname__ for c in classes if not issubclass(c, FoursquareError)] == []
    from foursquare_cli.errors import exit_code_of

    abstract = {FoursquareError}
    unmapped = [
        kind.__qualname__
        for kind in classes
        if kind not in abstract
        and not kind.__name__.startswith("_")
        and exit_code_of(kind.__new__(kind)) == ExitStatus.INTERNAL
    ]
    assert unmapped == []
    assert [kind.__qualname__ for kind in classes if "exit_code" in vars(kind)] == []  # the table alone decides


def test_the_move_and_card_errors_are_value_errors_too():
    from foursquare_cli.rules.cards import InvalidCardError
    from foursquare_cli.rules.moves import IllegalMoveError, InvalidMoveError

    for kind in (InvalidCardError, InvalidMoveError, IllegalMoveError):
        assert issubclass(kind, ValueError) and issubclass(kind, FoursquareError)
    with pytest.raises(InvalidMoveError) as caught:
        Move.from_str("Z9")
    from foursquare_cli.errors import exit_code_of

    assert exit_code_of(caught.value) == 1 and "'Z9'" in str(caught.value)


def test_cards_cells_and_moves_never_compare_equal_to_one_another():
    card, cell, move = Card.from_str("AS"), Cell.from_str("A1"), Move.from_str("A1")
    assert int(card) == int(cell) == int(move) == 0  # the same number inside
    assert card != cell and cell != move and move != card
    assert not (card == cell or cell == move or move == card)
    assert len({card, cell, move}) == 3
    assert card == Card.from_str("as") and move == Move.from_str("a1") and cell == Cell.from_str("a1")
    assert {Move.from_str("B3 top"): 1}[Move.from_str("b3  TOP")] == 1


def test_a_bug_is_one_line_a_crash_log_and_exit_70(monkeypatch, tmp_path):
    def broken(seed: int) -> tuple[Card, ...]:
        raise RuntimeError("a bug of ours")

    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path))
    monkeypatch.setattr("foursquare_cli.app.deal.deal", broken)
    result = CliRunner().invoke(app, ["deal", "--seed", "3"])
    assert result.exit_code == ExitStatus.INTERNAL
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("foursquare: internal error: RuntimeError: a bug of ours; details in ")
    log = pathlib.Path(lines[0].rsplit("details in ", 1)[1])
    assert log.parent == tmp_path
    text = log.read_text()
    assert "Traceback" in text and "a bug of ours" in text and "deal --seed 3" not in result.stdout


def test_an_error_of_the_core_is_one_line_with_its_own_exit_code(tmp_path):
    from foursquare_cli.errors import ExitStatus

    result = CliRunner().invoke(app, ["replay", str(tmp_path / "missing.yaml")])
    assert result.exit_code == ExitStatus.USAGE
    assert result.stderr == f"{tmp_path / 'missing.yaml'}: cannot read: No such file or directory\n"


def test_a_player_name_is_parsed_without_building_it_and_building_reports_one_line(tmp_path, monkeypatch):
    from foursquare_cli.app.players import canonical_player as parse_player
    from foursquare_cli.errors import ExitStatus, PlayerError

    (tmp_path / "brokenbots.py").write_text(
        "class Raises:\n    def __init__(self):\n        raise RuntimeError('no luck')\n"
        "    def choose(self, state):\n        return None\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert parse_player("brokenbots:Raises") == "brokenbots:Raises"  # nothing imported, nothing built
    assert parse_player("EXPERT") == "expert"
    for name in ("nobody", "cmd:", "cmd:'unbalanced", "module:", ":attribute", "a-b:c"):
        with pytest.raises(PlayerError):
            parse_player(name)
    for player, said in (
        ("brokenbots:Raises", "brokenbots:Raises: making the player raised RuntimeError: no luck"),
        ("nosuchmodule:Bot", "nosuchmodule:Bot: cannot import 'nosuchmodule'"),
    ):
        result = CliRunner().invoke(app, ["stats", "--games", "2", "--player", player])
        assert result.exit_code == ExitStatus.USAGE, result.stderr
        assert result.stderr.splitlines() == [result.stderr.rstrip("\n")]
        assert result.stderr.startswith(f"foursquare stats: {said}")


def test_an_exit_code_comes_from_the_class_alone_never_from_a_raise_site():
    passed = [
        f"{name}:{node.lineno}"
        for name, path in MODULES.items()
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.Call) and any(keyword.arg == "exit_code" for keyword in node.keywords)
    ]
    assert passed == []
    with pytest.raises(TypeError):
        FoursquareError("message", exit_code=3)  # type: ignore[call-arg]


def test_the_help_lists_every_exit_code_from_the_one_table():
    from foursquare_cli.errors import EXIT_CODES, exit_codes_text

    help_text = " ".join(CliRunner().invoke(app, ["--help"]).stdout.split())
    assert " ".join(exit_codes_text().split()) in help_text
    for code, meaning in EXIT_CODES.items():
        assert f"{code} {meaning}" in exit_codes_text()
    from foursquare_cli.errors import ExitStatus

    assert set(ExitStatus) == set(EXIT_CODES)


def test_every_command_body_is_a_handful_of_lines():
    """A command (and the root callback) loads its input, makes one call into the application layer, emits
    (sqlite-utils' way): 12 lines at most, its docstring aside."""
    long = {}
    for name, path in MODULES.items():
        if not name.startswith("foursquare_cli.cli."):
            continue
        for node in _tree(path).body:
            decorators = [ast.unparse(d) for d in getattr(node, "decorator_list", [])]
            if isinstance(node, ast.FunctionDef) and any("command" in d or "callback" in d for d in decorators):
                body = node.body[1:] if isinstance(node.body[0], ast.Expr) else node.body
                if (lines := body[-1].end_lineno - body[0].lineno + 1) > 12:
                    long[node.name] = lines
    assert long == {}


def test_an_exit_code_is_an_error_kind_or_a_status_and_nothing_else():
    """The exit code is the error's class's (the one handler in cli/app.py maps every error to its code), or the
    `ExitStatus` a command returns when it said what went wrong where it happened; no module writes a number
    for one, and only `exit_with` turns a status into an exit."""
    numbers = [
        f"{name}: {ast.unparse(node)}"
        for name, path in MODULES.items()
        for node in ast.walk(_tree(path))
        if isinstance(node, ast.Call)
        and ast.unparse(node.func) in {"sys.exit", "typer.Exit", "SystemExit"}
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and node.args[0].value not in (0, None)
    ]
    assert numbers == []
    commands = "".join(
        (PACKAGE / "cli" / name).read_text()
        for name in ("record_commands.py", "game_commands.py", "run_commands.py", "more.py")
    )
    assert "typer.Exit(" not in commands
