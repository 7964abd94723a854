"""The move protocol (docs/protocol.md, section 7) and the Python API for players (section 8): `legal` agrees
with the rules, and the examples printed in docs/protocol.md, extracted from the page, play."""

from __future__ import annotations

import json
import pathlib
import random
import re
import subprocess
import sys

import pytest
from conftest import examples, in_process
from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare_cli.formats.protocol import ProtocolState
from foursquare_cli.rules import Game, Move

ROOT = pathlib.Path(__file__).resolve().parent.parent
PROTOCOL = ROOT / "docs" / "protocol.md"
CELLS = [f"{column}{row}" for row in "1234" for column in "ABCD"]


def _legal_by_the_contract(state: dict) -> list[str]:
    """The legal moves of a JSON state, from the contract's words alone (section 1), in the protocol's order:
    empty cells that share an edge with a pile (any cell on an empty grid), then piles of fewer than 4 cards,
    then the shifts that take no pile out of the frame."""
    if state["status"] != "playing":
        return []
    grid = state["grid"]
    piles = {(r, c) for r in range(4) for c in range(4) if grid[r][c]}
    if not piles:
        return list(CELLS)
    empty = [
        f"{'ABCD'[c]}{r + 1}"
        for r in range(4)
        for c in range(4)
        if (r, c) not in piles and {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)} & piles
    ]
    tops = [
        f"{'ABCD'[c]}{r + 1} top" for r in range(4) for c in range(4) if (r, c) in piles and grid[r][c]["height"] < 4
    ]
    edges = {
        "up": {r for r, _ in piles} & {0},
        "down": {r for r, _ in piles} & {3},
        "left": {c for _, c in piles} & {0},
        "right": {c for _, c in piles} & {3},
    }
    return empty + tops + [f"shift {direction}" for direction, edge in edges.items() if not edge]


def test_legal_is_the_legal_moves_by_the_rules_on_200_random_positions():
    chooser = random.Random(2026)
    for _ in range(200):
        game = Game.from_seed(chooser.randrange(2**64))
        for _ in range(chooser.randrange(0, 60)):
            if game.state.is_over:
                break
            game.play(chooser.choice(game.state.legal_moves()))
        sent = ProtocolState(game.step).to_json()
        assert sent["legal"] == _legal_by_the_contract(sent), sent
        applies = [str(Move(code)) for code in range(36) if _applies(game, Move(code))]
        assert sorted(sent["legal"]) == sorted(applies), "legal is what the engine lets be played"


def _applies(game: Game, move: Move) -> bool:
    try:
        game.state.copy().apply(move)
    except ValueError:
        return False
    return True


def test_replay_keeps_exactly_the_keys_of_a_state():
    replayed = [
        json.loads(line)
        for line in in_process("replay", str(ROOT / "samples" / "won.yaml"), "-f", "json").stdout.splitlines()
    ]
    assert all(
        list(state) == ["ply", "move", "card", "next", "stock", "face_down", "status", "score", "grid"]
        for state in replayed
    )


# -- the examples of docs/protocol.md, as printed -----------------------------------------------------------


def _page_block(marker: str) -> str:
    """The code block of docs/protocol.md that follows the line `marker`."""
    text = PROTOCOL.read_text(encoding="utf-8")
    found = re.search(re.escape(marker) + r".*?\n```python\n(.*?)\n```", text, re.S)
    assert found is not None, f"docs/protocol.md has no python block after {marker!r}"
    return found.group(1) + "\n"


def test_the_bot_of_the_page_is_the_example_program_and_plays_the_plain_greedy(tmp_path, monkeypatch):
    bot = tmp_path / "bot.py"
    bot.write_text(_page_block("<!-- example: greedy_bot.py -->"))
    assert bot.read_text() == (ROOT / "examples" / "greedy_bot.py").read_text(), "the page shows the example file"
    monkeypatch.syspath_prepend(str(ROOT / "examples"))
    result = in_process("compare", f"cmd:{sys.executable} {bot}", "greedy_player:GreedyPlayer", "-n", "4", "-f", "json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    first, second = report["players"]
    assert first["forfeits"] == {} and second["forfeits"] == {}
    assert (first["wins"], first["lost_deals"], first["mean_score"]) == (
        second["wins"],
        second["lost_deals"],
        second["mean_score"],
    )


def test_the_player_class_of_the_page_is_the_example_class_and_plays(tmp_path, monkeypatch):
    source = _page_block("<!-- example: greedy_player.py -->")
    assert source == (ROOT / "examples" / "greedy_player.py").read_text(), "the page shows the example file"
    (tmp_path / "page_player.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = in_process("stats", "-n", "4", "-p", "page_player:GreedyPlayer", "-f", "json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["forfeits"] == {}


def test_the_example_players_use_only_the_api():
    for name in ("greedy_bot.py", "greedy_player.py"):
        text = (ROOT / "examples" / name).read_text()
        imported = re.findall(r"^\s*(?:from|import) (foursquare_cli[\w.]*)", text, re.M)
        assert set(imported) <= {"foursquare_cli.api"}, (name, imported)


@pytest.mark.posix
def test_the_session_of_the_page_is_what_a_program_is_sent(tmp_path):
    """The two lines of the page's protocol session are what the tool sends for deal 42 before and after B2."""
    text = PROTOCOL.read_text(encoding="utf-8")
    shown = re.search(r"<!-- session: deal 42 -->\n```\n(.*?)\n```", text, re.S)
    assert shown is not None
    sent = [line[3:] for line in shown.group(1).splitlines() if line.startswith("<- ")]
    log = tmp_path / "seen.jsonl"
    bot = tmp_path / "bot.py"
    bot.write_text(
        f"import sys\nlog = open({str(log)!r}, 'a')\nfor line in sys.stdin:\n"
        "    log.write(line); log.flush(); print('B2', flush=True)\n"
    )
    command = [sys.executable, "-m", "foursquare_cli", "auto", "--seed", "42", "-p", f"cmd:{sys.executable} {bot}"]
    subprocess.run(command, capture_output=True, timeout=60)
    assert [json.loads(line) for line in sent] == [json.loads(line) for line in log.read_text().splitlines()[:2]]


# -- version 2 of the protocol: a state a bot can count by (issue 50) ---------------------------------------


def test_a_version_1_state_has_exactly_the_contracts_keys_and_a_version_2_state_counts_the_cards_to_come():
    """Version 1 (the default) is the contract's state to the letter: the keys of a state and `legal`. Version 2
    adds the protocol's version, the move time and `unseen`: for each rank, the cards neither on the grid (at any
    depth) nor in hand, worked out here from the cards placed, by the rules' words."""
    import jsonschema

    document = json.loads(in_process("schema", "protocol-state", "-f", "json").stdout)  # as the command prints it
    validator = jsonschema.Draft202012Validator(document)
    chooser = random.Random(50)
    for _ in range(60):
        game = Game.from_seed(chooser.randrange(2**64))
        for _ in range(chooser.randrange(0, 30)):
            if game.state.is_over:
                break
            game.play(chooser.choice(game.state.legal_moves()))
        one = ProtocolState(game.step).to_json()
        assert list(one) == ["ply", "move", "card", "next", "stock", "face_down", "status", "score", "grid", "legal"]
        two = ProtocolState(game.step, 2, 7.5).to_json()
        assert {key: two[key] for key in one} == one and (two["protocol"], two["move_time"]) == (2, 7.5)
        seen = [card for step in game.steps[1:] if step.card is not None for card in [step.card]]
        seen += [game.state.next_card] if game.state.next_card is not None else []
        names = ["A"] + [str(number) for number in range(2, 11)]
        assert two["unseen"] == {
            name: 4 - sum(card.rank == index + 1 for card in seen) for index, name in enumerate(names)
        }
        assert validator.is_valid(one) and validator.is_valid(two)


@pytest.mark.slow  # a long multi-process run: CI's `-m slow` step
def test_a_bot_counting_from_unseen_alone_plays_with_version_2_and_says_why_without_it():
    """The done-when of issue 50: a bot written from docs/protocol.md counts cards from `unseen` alone."""
    bot = f"cmd:{sys.executable} {ROOT / 'examples' / 'counting_bot.py'}"
    played = in_process("stats", "-p", bot, "-n", "4", "--protocol", "2", "-f", "json")
    assert played.returncode == 0 and json.loads(played.stdout)["forfeits"] == {}, played.stderr
    without = in_process("stats", "-p", bot, "-n", "2", "-f", "json")
    assert json.loads(without.stdout)["forfeits"] == {"exited with code 1": 2}, "it says to ask for version 2"


def test_a_bot_that_answers_ahead_forfeits_saying_so(tmp_path):
    """Issue 50: a line written before its state was sent is never taken for a later move's answer."""
    ahead = tmp_path / "ahead.py"
    ahead.write_text(
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    state = json.loads(line)\n"
        "    if state['status'] == 'playing':\n"
        "        legal = state['legal']\n"
        "        sys.stdout.write(legal[0] + '\\n' + legal[-1] + '\\n')  # a second answer, written with the first\n"
        "        sys.stdout.flush()\n"
    )
    result = in_process("stats", "-p", f"cmd:{sys.executable} {ahead}", "-n", "2", "-f", "json")
    forfeits = json.loads(result.stdout)["forfeits"]
    assert forfeits == {"answered before its state was sent (one line, one move, for each state)": 2}, forfeits


def test_the_positions_of_the_page_run_as_printed():
    """Issue 50: State.from_seed, state_from_protocol and legal_moves are promised in the API's `__all__` and shown
    on docs/protocol.md, in an example that runs."""
    from foursquare_cli import api

    assert {"State", "legal_moves", "state_from_protocol"} <= set(api.__all__) and hasattr(api.State, "from_seed")
    exec(compile(_page_block("<!-- example: positions -->"), "docs/protocol.md", "exec"), {})


def test_a_position_rebuilt_from_a_version_2_state_is_the_position_a_player_sees():
    """On random positions of every stage: the rebuilt position sends the very same state, counts the same
    unseen cards and stands the same way; a state of version 1 is refused, saying why."""
    from foursquare_cli.api import state_from_protocol
    from foursquare_cli.rules.game import Step

    chooser = random.Random(4)
    for _ in range(150):
        game = Game.from_seed(chooser.randrange(2**64))
        for _ in range(chooser.randrange(0, 40)):
            if game.state.is_over:
                break
            game.play(chooser.choice(game.state.legal_moves()))
        sent = ProtocolState(game.step, 2, 10.0).to_json()
        rebuilt = state_from_protocol(sent, seed=chooser.randrange(100))
        step = game.step
        assert ProtocolState(Step(step.ply, step.move, step.card, step.turned, rebuilt), 2, 10.0).to_json() == sent
        assert rebuilt.unseen_by_rank() == game.state.unseen_by_rank() and rebuilt.status is game.state.status
    with pytest.raises(ValueError, match="version 1 names no unseen cards"):
        state_from_protocol(ProtocolState(game.step).to_json())


def _sent_states() -> list[dict]:
    """Version 2 states of a few positions, from the start to a game's end, for the test below to break."""
    chooser, states = random.Random(7), []
    for _ in range(4):
        game = Game.from_seed(chooser.randrange(2**64))
        while True:
            states.append(ProtocolState(game.step, 2, 10.0).to_json())
            if game.state.is_over:
                break
            for _ in range(chooser.randrange(1, 12)):
                if not game.state.is_over:
                    game.play(chooser.choice(game.state.legal_moves()))
    return states


SENT_STATES = _sent_states()
_KEYS = ["grid", "next", "unseen", "protocol", "card", "up", "height", "A", "6", "10", "status"]
_JSONISH = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 50)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=5)
    | st.sampled_from(["7H", "AS", "10D", "6c", "ZZ", "A", "10", "up"]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.sampled_from(_KEYS) | st.text(max_size=4), inner),
    max_leaves=12,
)


@st.composite
def _broken_states(draw) -> object:
    """A valid state with one part of it (a key, a row, a cell, a cell's field, a rank's count) replaced by any
    JSON value or taken out; or any JSON value at all."""
    if draw(st.integers(0, 9)) == 0:
        return draw(_JSONISH)
    sent = json.loads(json.dumps(draw(st.sampled_from(SENT_STATES))))
    holder, key = sent, draw(st.sampled_from(["grid", "next", "unseen", "protocol", "grid", "unseen"]))
    if key == "grid" and draw(st.booleans()):
        holder, key = sent["grid"], draw(st.integers(0, 3))
        if draw(st.booleans()):
            holder, key = holder[key], draw(st.integers(0, 3))
            if holder[key] is not None and draw(st.booleans()):
                holder, key = holder[key], draw(st.sampled_from(["card", "up", "height"]))
    elif key == "unseen" and draw(st.booleans()):
        holder, key = sent["unseen"], draw(st.sampled_from(["A", "2", "5", "9", "10"]))
    if isinstance(holder, dict) and draw(st.integers(0, 4)) == 0:
        holder.pop(key, None)
    else:
        holder[key] = draw(_JSONISH | st.integers(0, 5))
    return sent


@settings(max_examples=examples(300))
@given(_broken_states())
def test_a_malformed_state_is_refused_with_a_value_error_and_nothing_else(sent):
    """Whatever a program or a test builds, `state_from_protocol` answers with a position or ValueError, its
    documented error: never a TypeError, KeyError, IndexError or StopIteration from deep inside."""
    from foursquare_cli.api import State, state_from_protocol

    try:
        rebuilt = state_from_protocol(sent)
    except ValueError:
        return
    assert isinstance(rebuilt, State)


@pytest.mark.parametrize(
    "change, said",
    [
        (lambda sent: sent.pop("grid"), "grid: missing"),
        (lambda sent: sent["unseen"].pop("7"), "unseen: an object with a count for each rank"),
        (lambda sent: sent.update(protocol=3), "protocol 3: not a version of the move protocol this tool knows"),
        (lambda sent: sent.update(protocol=True), "protocol True: not a version"),
        (lambda sent: sent["grid"].__setitem__(0, "....") or None, "grid: 4 rows"),
        (lambda sent: sent["unseen"].update({"6": 1}), "do not make a deck of 40"),  # a card missing, buried nowhere
        (lambda sent: sent["unseen"].update({"6": "2"}), "each rank's count is a whole number"),
        (
            lambda sent: sent.update(next=None) or sent["unseen"].update({"6": 3}),
            "next: null, but its grid and unseen cards say the game goes on",
        ),
        (lambda sent: sent["grid"][1][1].update(height=2.0), "grid B2: up is true or false, height a whole number"),
    ],
)
def test_each_kind_of_malformed_state_is_said(change, said):
    from foursquare_cli.api import state_from_protocol

    game = Game.from_seed(42)
    for move in ("B2", "C2"):
        game.play(Move.from_str(move))
    sent = ProtocolState(game.step, 2, 10.0).to_json()
    assert state_from_protocol(json.loads(json.dumps(sent))).unseen_by_rank() == game.state.unseen_by_rank()
    change(sent)
    with pytest.raises(ValueError, match=re.escape(said)):
        state_from_protocol(sent)
