"""The plan of the house, held: layers that import only downward, no circles, no big files, the core free
of terminal libraries, every error a FoursquareError, and value types that never collide."""

from __future__ import annotations

import ast
import pathlib

import pytest
from typer.testing import CliRunner

import foursquare_cli
from foursquare_cli.cli import app
from foursquare_cli.errors import EXIT_INTERNAL, FoursquareError
from foursquare_cli.rules import Card, Cell, Move

PACKAGE = pathlib.Path(foursquare_cli.__file__).parent
LAYERS = ("errors", "rules", "formats", "store", "players", "runs", "app", "ui", "agents", "cli")
# The old path of the Gymnasium environment, a deprecation shim kept for a release: it re-exports
# agents.environment, so it belongs to that layer wherever it sits.
SHIMS = {"foursquare_cli.ui.environment": "agents"}


def _module_name(path: pathlib.Path) -> str:
    parts = ["foursquare_cli", *path.relative_to(PACKAGE).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, path: pathlib.Path) -> set[str]:
    """Every module of the package that `name` imports: at the top, inside functions, under TYPE_CHECKING."""
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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
    return LAYERS.index(SHIMS.get(name, parts[1]))


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
    assert "foursquare_cli.store.history" in GRAPH["foursquare_cli.app.session"]  # imported inside functions
    assert "foursquare_cli.runs.compare" in GRAPH["foursquare_cli.ui.reports"]  # under TYPE_CHECKING


def test_ui_reaches_the_store_only_through_the_application_layer():
    reaching = [f"{name} imports {target}" for name, targets in GRAPH.items() if name.startswith("foursquare_cli.ui.")
                for target in targets if target.startswith("foursquare_cli.store")]  # fmt: skip
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
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and not node.level:
                names = [node.module or ""]
            for imported in names:
                assert imported.split(".")[0] not in ("typer", "click", "rich"), f"{name} imports {imported}"


def test_no_file_is_over_500_lines():
    long = {name: n for name, path in MODULES.items() if (n := len(path.read_text().splitlines())) > 500}
    assert long == {}


# Modules that need an extra: without it they are not imported here (CI runs this test again with every
# extra installed, so each is checked there).
NEEDS_EXTRA = {
    "foursquare_cli.agents.environment": ("gymnasium", "numpy"),
    "foursquare_cli.ui.environment": ("gymnasium", "numpy"),
}


def _extra_missing(name: str) -> bool:
    import importlib.util

    return any(importlib.util.find_spec(package) is None for package in NEEDS_EXTRA.get(name, ()))


def test_every_exception_class_of_the_package_is_a_foursquare_error():
    import importlib
    import warnings

    classes = []
    for name in MODULES:
        if name.endswith("__main__") or _extra_missing(name):
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # the shim of the old environment path
            module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, BaseException) and value.__module__ == name:
                classes.append(value)
    assert len(classes) > 15
    assert [c.__qualname__ for c in classes if not issubclass(c, FoursquareError)] == []
    from foursquare_cli.errors import AlreadySaid, exit_code_of

    abstract = {FoursquareError, AlreadySaid}
    unmapped = [kind.__qualname__ for kind in classes if kind not in abstract and not kind.__name__.startswith("_")
                and exit_code_of(kind.__new__(kind)) == EXIT_INTERNAL]  # fmt: skip
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
    from foursquare_cli.rules import cards

    def broken(seed: int) -> tuple[Card, ...]:
        raise RuntimeError("a bug of ours")

    monkeypatch.setenv("FOURSQUARE_HOME", str(tmp_path))
    monkeypatch.setattr(cards, "deal", broken)
    result = CliRunner().invoke(app, ["deal", "--seed", "3"])
    assert result.exit_code == EXIT_INTERNAL
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("foursquare: internal error: RuntimeError: a bug of ours; details in ")
    log = pathlib.Path(lines[0].rsplit("details in ", 1)[1])
    assert log.parent == tmp_path
    text = log.read_text()
    assert "Traceback" in text and "a bug of ours" in text and "deal --seed 3" not in result.stdout


def test_an_error_of_the_core_is_one_line_with_its_own_exit_code(tmp_path):
    from foursquare_cli.errors import EXIT_USAGE

    result = CliRunner().invoke(app, ["replay", str(tmp_path / "missing.yaml")])
    assert result.exit_code == EXIT_USAGE
    assert result.stderr == f"{tmp_path / 'missing.yaml'}: cannot read: No such file or directory\n"


def test_a_player_name_is_parsed_without_building_it_and_building_reports_one_line(tmp_path, monkeypatch):
    from foursquare_cli.errors import EXIT_USAGE, PlayerError
    from foursquare_cli.players import parse_player

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
        assert result.exit_code == EXIT_USAGE, result.stderr
        assert result.stderr.splitlines() == [result.stderr.rstrip("\n")]
        assert result.stderr.startswith(f"foursquare stats: {said}")


def test_an_exit_code_comes_from_the_class_alone_never_from_a_raise_site():
    passed = [
        f"{name}:{node.lineno}"
        for name, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
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
    import foursquare_cli.errors as errors

    named = {value for key, value in vars(errors).items() if key.startswith("EXIT_") and isinstance(value, int)}
    assert named == set(EXIT_CODES)


def test_every_command_body_is_a_handful_of_lines():
    """A command loads its input, makes one call into the core, prints (sqlite-utils' way): 12 lines at most,
    its docstring aside."""
    long = {}
    for name, path in MODULES.items():
        if not name.startswith("foursquare_cli.cli."):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and any("command" in ast.unparse(d) for d in node.decorator_list):
                body = node.body[1:] if isinstance(node.body[0], ast.Expr) else node.body
                if (lines := body[-1].end_lineno - body[0].lineno + 1) > 12:
                    long[node.name] = lines
    assert long == {}


def test_ui_raises_and_never_hands_back_an_exit_code():
    """The exit code is the error's class's: ui raises (an AlreadySaid kind when it said what went wrong), and
    the one handler in cli/app.py maps every error to its code; no ui module names an exit code."""
    named = [
        f"{name}: {node.id}"
        for name, path in MODULES.items()
        if name.startswith("foursquare_cli.ui.")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Name) and node.id.startswith("EXIT_")
    ]
    assert named == []
    commands = (PACKAGE / "cli" / "commands.py").read_text() + (PACKAGE / "cli" / "more.py").read_text()
    assert "typer.Exit(" not in commands
