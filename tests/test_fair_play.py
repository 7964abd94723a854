"""Hidden stays hidden (issue 32): nothing the tool shows before a move tells more of the stock than the card
in hand and the cards not yet seen. Each test plays twin decks, the same up to the card in hand and in another
order after it: whatever a player is shown before the next draw must be the same for both, letter for letter."""

from __future__ import annotations

import json

import pytest
from test_table import table
from typer.testing import CliRunner

from foursquare_cli.app.session import Session
from foursquare_cli.cli import app
from foursquare_cli.formats.protocol import state_line
from foursquare_cli.players import PlayerSpec, Strength
from foursquare_cli.players.expert import ExpertPlayer
from foursquare_cli.players.greedy import GreedyPlayer
from foursquare_cli.rules.cards import deal
from foursquare_cli.rules.game import Game, Step
from foursquare_cli.rules.moves import Move
from foursquare_cli.ui.board import Style


def _twins(seed: int, shown: int):
    """Two decks that agree on their first `shown` cards and differ in every later place they can."""
    deck = deal(seed)
    later = deck[shown:]
    other = deck[:shown] + later[1:] + later[:1]
    assert deck[:shown] == other[:shown] and deck[shown] != other[shown]
    return deck, other


def _greedy_moves(deck, count: int) -> list[str]:
    game, player, moves = Game(deck), GreedyPlayer(0), list[str]()
    while len(moves) < count and not game.state.is_over:
        move = player.choose(game.state)
        game.play(move)
        moves.append(str(move))
    return moves


@pytest.mark.parametrize(("seed", "placed"), [(3, 0), (3, 1), (42, 5), (7, 11)])
def test_every_prompt_command_shows_the_same_to_twin_decks(seed, placed):
    moves = _greedy_moves(deal(seed), placed)
    shown = sum(1 for move in moves if not move.startswith("shift")) + 1  # the cards placed and the one in hand
    transcripts = []
    for deck in _twins(seed, shown):
        game = Game(deck)
        for move in moves:
            game.play(Move.from_str(move))
        commands = ["board", "moves", "left", "help", "hint", "hint detail"]
        commands += [f"try {move}" for move in game.state.legal_moves()]
        code, said = table(
            Session(Game(deck)),
            *moves,
            *commands,
            "undo",
            *moves[-1:],
            "quit",
            style=Style(unicode=True, color=True),
            player=PlayerSpec(strength=Strength(playouts=40)),  # no time cap: the same on every machine
            cards_to_come=True,
            meter=True,
        )
        assert code == 0
        # all but what quit prints: the record of the game, whose deal (its seed, or its deck) is how it resumes
        transcripts.append(said[: said.rindex("> ")])
    assert "If you played" in transcripts[0] and "Legal moves for" in transcripts[0]
    assert transcripts[0] == transcripts[1]


def test_a_try_never_names_the_card_after_the_one_in_hand():
    deck = deal(11)
    _, said = table(Session(Game(deck)), "B2", "try C2", "quit")
    preview = said.split("If you played C2")[1]
    assert "Next card: ?" in preview
    assert str(deck[2]) not in preview.split("Next card:")[1].split()[0]
    _, said = table(Session(Game(deck)), "B2", "try shift left", "quit")  # a shift draws no card:
    preview = said.split("If you played shift left")[1]  # the card in hand is still the next, and known
    assert preview.split("Next card:")[1].split()[0] == str(deck[1])


def test_json_states_and_the_protocol_line_show_the_same_to_twin_decks():
    moves = _greedy_moves(deal(5), 9)
    first, second = _twins(5, 10)
    printed = []
    for deck in (first, second):
        result = CliRunner().invoke(
            app, ["play", "--deck", " ".join(map(str, deck)), "--format", "json"], input="\n".join(moves) + "\n"
        )
        assert result.exit_code == 0, result.stderr
        printed.append(result.stdout)
    assert printed[0] == printed[1]
    last = json.loads(printed[0].splitlines()[-1])
    assert last["next"] == str(first[9]) and "stock_order" not in last and set(last) >= {"grid", "next", "stock"}
    lines = []
    for deck in (first, second):
        game = Game(deck)
        for move in moves:
            game.play(Move.from_str(move))
        lines.append(state_line(Step(len(moves), None, None, 0, game.state)))
    assert lines[0] == lines[1]


def test_the_expert_rates_twin_decks_alike():
    first, second = _twins(9, 4)
    states = []
    for deck in (first, second):
        game = Game(deck)
        for move in _greedy_moves(first, 3):
            game.play(Move.from_str(move))
        states.append(game.state)
    one, two = (ExpertPlayer(0, 60).rate(state) for state in states)
    assert [(r.move, r.win_rate, r.mean_score) for r in one] == [(r.move, r.win_rate, r.mean_score) for r in two]
