"""Foursquare for learning agents (issue 24): the Gymnasium environment passes Gymnasium's own checker, its
mask is the engine's legal moves, its episodes are records `check` accepts, and it never shows the stock."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import redealt

gymnasium = pytest.importorskip("gymnasium", reason="the gym extra: pip install -e '.[gym]'")
np = pytest.importorskip("numpy")

from foursquare_cli.agents import environment  # noqa: E402
from foursquare_cli.agents.environment import ACTIONS, FoursquareEnv, action_mask, observation  # noqa: E402
from foursquare_cli.formats.records import check_record  # noqa: E402
from foursquare_cli.formats.source import read_source  # noqa: E402
from foursquare_cli.rules.cards import InvalidSeedError  # noqa: E402
from foursquare_cli.rules.engine import State  # noqa: E402


def test_gymnasiums_checker_passes_and_make_works_by_name():
    from gymnasium.utils.env_checker import check_env

    check_env(FoursquareEnv(render_mode="ansi"), skip_render_check=False)
    made = gymnasium.make("foursquare/Foursquare-v0")
    assert made.spec is not None and made.spec.max_episode_steps == 200
    assert gymnasium.make("foursquare_cli.agents.environment:foursquare/Foursquare-v0").unwrapped.reward == "win"


def test_the_action_table_is_public_and_independent_of_the_engine():
    assert [str(ACTIONS[i]) for i in (0, 1, 3, 4, 15, 16, 31, 32, 33, 34, 35)] == [
        "A1",
        "B1",
        "D1",
        "A2",
        "D4",
        "A1 top",
        "D4 top",
        "shift up",
        "shift down",
        "shift left",
        "shift right",
    ]


def test_the_mask_is_the_legal_moves_and_an_episode_is_a_record_check_accepts():
    env = FoursquareEnv()
    rng = np.random.default_rng(5)
    for episode in range(20):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            legal = {ACTIONS[i] for i in np.flatnonzero(info["action_mask"])}
            assert legal == set(env.state.legal_moves())
            assert (env.action_masks() == info["action_mask"]).all()
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _, reward, done, _, info = env.step(action)
        verdict = check_record(read_source("episode.yaml", env.record().encode()))
        assert verdict.valid and verdict.state is not None and verdict.state == env.state
        outcome = env.state.outcome
        assert reward == (1 + outcome.score / 24 if outcome.score is not None else 0.0)


def test_a_pinned_deal_replays_and_the_score_reward():
    env = FoursquareEnv(reward="score")
    _, info = env.reset(options={"deal": 42})
    assert info["deal"] == 42 and str(env.state.next_card) == "6D"
    assert env.reset(seed=7)[1]["deal"] == env.reset(seed=7)[1]["deal"]


@pytest.mark.parametrize("pinned", [1.5, "42", True, float("nan"), "0x2a", -1, 2**64])
def test_a_pinned_deal_that_is_no_deal_number_is_refused_by_name(pinned):
    """An outside try: 1.5 dealt deal 1, "42" and True were taken, nan gave a bare ValueError of int()."""
    env = FoursquareEnv()
    with pytest.raises(InvalidSeedError, match="deal number"):
        env.reset(options={"deal": pinned})
    assert env.reset(options={"deal": np.uint64(42)})[1]["deal"] == 42, "numpy's whole numbers are deal numbers"


def test_an_illegal_action_ends_the_episode_with_the_penalty_and_a_reason():
    env = FoursquareEnv()
    env.reset(options={"deal": 42})
    env.step(5)  # B2
    _, reward, terminated, truncated, info = env.step(16)  # A1 top: A1 is empty
    assert (reward, terminated, truncated) == (environment.ILLEGAL_PENALTY, True, False)
    assert "A1 is empty" in info["illegal"]
    assert env.step(99)[4]["illegal"] == "the episode is over"


def test_the_observation_never_depends_on_the_order_of_the_unseen_cards():
    import random

    state = State.from_seed(11)
    for move in ["B2", "C2", "C2 top"]:
        from foursquare_cli.rules.moves import Move

        state.apply(Move.from_str(move))
    seen = observation(state)
    for shuffle in range(5):
        other = redealt(state, random.Random(shuffle))
        assert other.deck != state.deck
        again = observation(other)
        assert all((np.asarray(again[key]) == np.asarray(seen[key])).all() for key in seen)
        assert (action_mask(other) == action_mask(state)).all()
    assert int(seen["unseen"].sum()) == 36 and int(seen["hand"]) == state.next_card.rank


def test_the_env_draws_itself_and_never_names_a_face_down_card():
    env = FoursquareEnv(render_mode="ansi")
    env.reset(options={"deal": 42})  # 6D 7H 6C ...
    for action in (5, 6):  # B2, C2: the 7 turns the 6 face down
        env.step(np.int64(action))
    drawn = env.render()
    assert drawn.splitlines() == [
        "    A     B     C     D",
        "1     .     .     .     .",
        "2     .  ##x1  7Hx1     .",
        "3     .     .     .     .",
        "4     .     .     .     .",
        "in hand 6C, stock 38, face down 1, playing",
    ]
    assert "6D" not in drawn


@pytest.mark.slow
def test_a_policy_becomes_a_player_that_compare_measures(tmp_path, monkeypatch):
    (tmp_path / "firstlegal.py").write_text(
        "import numpy as np\nfrom foursquare_cli.agents.environment import policy_player\n"
        "Player = policy_player(lambda observation, mask: int(np.flatnonzero(mask)[0]))\n"
    )
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    result = subprocess.run(
        [sys.executable, "-m", "foursquare_cli", "compare", "firstlegal:Player", "random", "-n", "20"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    table = result.stdout.splitlines()
    assert "  A = firstlegal:Player" in table, "the long name, listed once below the table"
    assert any(line.split()[:1] == ["A"] and "/20" in line for line in table), "its row, by its short name"
    measured = subprocess.run(
        [sys.executable, "-m", "foursquare_cli", "compare", "firstlegal:Player", "random", "-n", "20", "-f", "json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    first = json.loads(measured.stdout)["players"][0]
    assert first["player"] == "firstlegal:Player" and first["games"] == 20 and first["forfeits"] == {}


def test_the_cli_never_imports_gymnasium_or_numpy():
    probe = (
        "import sys; from foursquare_cli.cli import main; sys.argv = ['foursquare', 'deal', '--seed', '3'];\n"
        "try: main()\nexcept SystemExit: pass\nprint(sorted(m for m in ('gymnasium', 'numpy') if m in sys.modules))"
    )
    shown = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert shown.stdout.strip().splitlines()[-1] == "[]"


@pytest.mark.slow
def test_the_trained_example_plays_legal_games_that_compare_measures():
    import pathlib

    examples = pathlib.Path(__file__).resolve().parent.parent / "examples"
    result = subprocess.run(
        [sys.executable, "-m", "foursquare_cli", "compare", "train_cem:Trained", "random", "-n", "10", "-f", "json"],
        capture_output=True,
        text=True,
        timeout=120,
        env={**__import__("os").environ, "PYTHONPATH": str(examples)},
    )
    assert result.returncode == 0, result.stderr
    import json

    trained = json.loads(result.stdout)["players"][0]
    assert trained["forfeits"] == {} and trained["wins"] >= 1  # 62% of deals 0-499 (docs/agents.md)


def test_the_old_import_path_is_gone_after_its_release():
    import importlib

    with pytest.raises(ImportError):
        importlib.import_module("foursquare_cli.ui.environment")
