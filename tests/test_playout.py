"""The greedy playout in C (`rules/_playout.c`) against its Python reference, move for move."""

from __future__ import annotations

import random
import re
import struct
from typing import Any

import pytest
from conftest import examples, redealt
from hypothesis import given, settings
from hypothesis import strategies as st

from foursquare_cli.rules import integer_playout, playout
from foursquare_cli.rules.engine import State, state_after


def test_the_install_built_the_c_playout():
    # CI has a C compiler, so the project it tests is the fast one; without one the install still works.
    assert playout.ACCELERATED, "foursquare_cli/rules/_playout.c was not built: is there a C compiler?"
    assert playout.finish_from is playout._finish_c


def _position(seed: int, plies: int, shuffle: int) -> State:
    state = State.from_seed(seed)
    rng = random.Random(shuffle)
    for _ in range(plies):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state if state.is_over else redealt(state, rng)


@settings(max_examples=examples(300), deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1), plies=st.integers(0, 40), shuffle=st.integers(0, 2**32), fill_first=st.booleans()
)
def test_the_c_playout_ends_every_position_as_the_python_one_does(seed, plies, shuffle, fill_first):
    state = _position(seed, plies, shuffle)
    if state.is_over:
        return
    arguments = (playout.stock_of(state), *playout.start_of(state), fill_first)
    assert playout._finish_c is not None
    assert playout._finish_c(*arguments) == integer_playout.finish_python(*arguments)
    stop_at = state.drawn + 1 + shuffle % 8  # stopped a few cards on (a reply's future before the tail table)
    assert playout._finish_c(*arguments, stop_at) == integer_playout.finish_python(*arguments, stop_at)


def _placements_after_any_shift(state: State) -> list[tuple[int, bool, str]]:
    """(face-down count, whether the cell was empty, the move) for every placement, a shift first or not:
    the engine's flip rule, move by move."""
    options = []
    for shift in [None, *(move for move in state.legal_moves() if move.is_shift)]:
        position = state if shift is None else state_after(state, shift)
        card = position.next_card
        assert card is not None
        for count, move in position.face_downs_after(card):
            if shift is None or (not move.on_top and move.cell in shift.opened_cells):
                options.append((count, not move.on_top, f"{shift}, {move}" if shift else str(move)))
    return options


def _filled_for(state: State, plies: int) -> State:
    """The position after `plies` moves of the fill-first policy: a grid soon full, piles to come."""
    for _ in range(plies):
        if state.is_over:
            break
        for move in playout.greedy_choice(state, fill_first=True):
            if move is not None:
                state.apply(move)
    return state


def test_filling_first_takes_the_best_safe_empty_cell_and_else_the_greedy_move():
    filled = greedy_only = 0
    for seed in range(400):
        state = _position(seed, 3 + seed % 25, seed) if seed % 2 else _filled_for(State.from_seed(seed), seed % 30)
        if state.is_over or not state.occupied:
            continue
        options = _placements_after_any_shift(state)
        shift, placement = playout.greedy_choice(state, fill_first=True)
        chosen = state if shift is None else state_after(state, shift)
        count = chosen.down_after(placement, chosen.next_card).bit_count()
        safe_empty = [option for option in options if option[1] and option[0] <= 4]
        if safe_empty:
            assert not placement.on_top, (seed, options)
            assert count == min(option[0] for option in safe_empty), seed
            filled += 1
        else:
            assert (shift, placement) == playout.greedy_choice(state), seed
            greedy_only += 1
    assert filled >= 100 and greedy_only >= 20, (filled, greedy_only)  # both branches were held


def test_both_playouts_agree_on_many_positions_shifts_and_losses_included():
    ends = {"won": 0, "lost": 0}
    for seed in range(400):
        state = _position(seed, seed % 30, seed)
        if state.is_over:
            continue
        arguments = (playout.stock_of(state), *playout.start_of(state))
        python = integer_playout.finish_python(*arguments)
        assert playout._finish_c is not None and playout._finish_c(*arguments) == python, seed
        ends["won" if python[0] >= 0 else "lost"] += 1
    assert min(ends.values()) >= 20, ends  # both kinds of ending were compared


@pytest.mark.parametrize(
    "change",
    [
        {"stock": bytes(39)},
        {"stock": bytes([11] * 40)},
        {"stock": bytes(40)},
        {"drawn": 40},
        {"drawn": -1},
        {"occupied": 1 << 16},
        {"occupied": -1},
        {"down": -1},
        {"down": 1},  # a face-down cell that is not occupied
        {"ranks": bytes(15)},
        {"ranks": bytes([11] * 16)},
        {"heights": bytes([41] * 16)},
    ],
)
def test_the_c_playout_refuses_what_is_not_a_position_being_played(change):
    # Its callers are ours, but a wrong argument must be an error, never a read out of bounds.
    arguments = {"stock": bytes([1] * 40), "drawn": 0, "occupied": 0, "down": 0, "ranks": bytes(16)}
    arguments["heights"] = bytes(16)
    arguments.update(change)
    assert playout._finish_c is not None
    with pytest.raises(ValueError, match="finish: "):
        playout._finish_c(*arguments.values())


def test_the_c_playout_refuses_numbers_too_large_for_it():
    assert playout._finish_c is not None
    with pytest.raises(OverflowError):
        playout._finish_c(bytes([1] * 40), 0, 2**40 + 1, 0, bytes(16), bytes(16))


@settings(max_examples=examples(300), deadline=None)
@given(
    seen=st.binary(max_size=40),
    unseen=st.binary(max_size=40),
    key=st.integers(0, 2**64 - 1),
)
def test_both_versions_deal_the_same_future_and_it_keeps_every_card(seen, unseen, key):
    unseen = unseen[: 40 - len(seen)]
    dealt = integer_playout.deal_python(seen, unseen, key)
    assert playout._deal_c is not None and playout._deal_c(seen, unseen, key) == dealt
    assert dealt[: len(seen)] == seen and sorted(dealt[len(seen) :]) == sorted(unseen)


def test_a_deal_draws_every_order_alike():
    # 6,000 deals of three cards: each of the six orders about 1,000 times (a chi-square far below 30).
    counts: dict[bytes, int] = {}
    for key in range(6000):
        order = playout.future_stock(b"", b"\x01\x02\x03", key * 0x9E3779B97F4A7C15 % 2**64)
        counts[order] = counts.get(order, 0) + 1
    assert len(counts) == 6
    assert sum((count - 1000) ** 2 / 1000 for count in counts.values()) < 30, counts


def test_a_deal_refuses_more_than_forty_cards():
    assert playout._deal_c is not None
    with pytest.raises(ValueError, match="deal: more than 40 cards"):
        playout._deal_c(bytes(30), bytes(11), 0)


@pytest.mark.parametrize(("reply_second_ply", "reply_table"), [(0, 0), (2, 0), (0, 1)])
def test_a_reply_searched_in_c_is_the_one_ply_experts_best_in_python(reply_second_ply, reply_table):
    """The second ply's replies are searched all in C (`reply_in_c`): the same best move's figures as the
    expert of the replies finds in Python, on positions of every kind (placements, piles, shifts, ends): a reply
    of one ply (Python's own short way, the halving alone), a reply looking again at its best two, and a reply
    whose futures stop six cards on and read the tail table (the expert without a compiler's)."""
    from foursquare_cli.players import expert
    from foursquare_cli.players.futures import Futures

    if playout.reply_in_c is None:
        pytest.fail("the C module was not built (this machine has a compiler)")
    rng = random.Random(11)
    looker = expert.ExpertPlayer(
        playouts=1500, reply_playouts=97, reply_second_ply=reply_second_ply, reply_table=reply_table
    )
    compared = 0
    for seed in range(40):
        state = _position(30000 + seed, rng.randint(0, 24), seed)
        if state.is_over:
            continue
        futures = Futures(state)
        for group, supposed in futures.replies(list(range(min(2, len(futures.groups)))))[:5]:
            in_c = looker._reply(group, supposed)
            reply_in_c, playout.reply_in_c = playout.reply_in_c, None
            try:
                assert looker._reply(group, supposed) == in_c, (seed, group)
            finally:
                playout.reply_in_c = reply_in_c
            compared += 1
    assert compared > 100


def _rated_alike_in_c_and_python(monkeypatch, settings: dict[str, Any]) -> None:
    from foursquare_cli.players import expert

    state = _position(20001, 9, 4)
    fast = expert.ExpertPlayer(seed=2, **settings).rate(state)
    expert._EVALUATIONS.clear()
    monkeypatch.setattr(playout, "futures", integer_playout.futures_python)
    monkeypatch.setattr(playout, "safe_ranks", integer_playout.safe_ranks_python)
    monkeypatch.setattr(playout, "ACCELERATED", False)  # one thread: the split is C's
    monkeypatch.setattr(playout, "reply_in_c", None)  # the second ply's replies searched in Python
    assert expert.ExpertPlayer(seed=2, **settings).rate(state) == fast


@pytest.mark.parametrize("reply_table", [0, 1])
def test_the_expert_rates_alike_whichever_version_plays_its_futures(monkeypatch, reply_table):
    """At a small budget (the versions agree at any: the full one is a slow test), every part of the search."""
    base = {"playouts": 200, "second_ply": 2, "reply_playouts": 20}
    _rated_alike_in_c_and_python(
        monkeypatch, {**base, "reply_second_ply": 0, "reply_table": 1} if reply_table else base
    )


@pytest.mark.slow
@pytest.mark.parametrize("reply_table", [0, 1])
def test_the_expert_rates_alike_whichever_version_plays_its_futures_at_its_own_settings(monkeypatch, reply_table):
    settings = {"playouts": 200, "reply_second_ply": 0, "reply_table": 1} if reply_table else {"playouts": 200}
    _rated_alike_in_c_and_python(monkeypatch, settings)


@pytest.mark.slow
@pytest.mark.posix
def test_the_plain_c_bit_counts_play_as_the_compilers_builtins(tmp_path):
    """MSVC has no __builtin_popcount: `_playout.c` then counts bits in plain C (and finds the lowest with
    _BitScanForward). The plain C, forced with FOURSQUARE_PORTABLE_BITS, must play as the builtins do."""
    import importlib.machinery
    import importlib.util
    import pathlib
    import shutil
    import subprocess
    import sysconfig

    compiler = shutil.which("cc") or shutil.which("gcc")
    assert compiler is not None, "a C compiler builds the playouts in CI"
    source = pathlib.Path(playout.__file__).with_name("_playout.c")
    built = tmp_path / ("_playout" + sysconfig.get_config_var("EXT_SUFFIX"))
    include = sysconfig.get_paths()["include"]
    from foursquare_cli.rules import tables

    (tmp_path / "_tables.h").write_text(tables.c_header())  # as setup.py writes it at build time
    flags = ["-O2", "-shared", "-fPIC", "-DFOURSQUARE_PORTABLE_BITS", f"-I{include}", f"-I{tmp_path}"]
    subprocess.run([compiler, *flags, str(source), "-o", str(built)], check=True)
    loader = importlib.machinery.ExtensionFileLoader("foursquare_cli.rules._playout", str(built))
    spec = importlib.util.spec_from_loader("foursquare_cli.rules._playout", loader)
    assert spec is not None
    plain = importlib.util.module_from_spec(spec)
    loader.exec_module(plain)
    compared = 0
    for seed in range(300):
        state = _position(seed, seed % 38, seed)
        if state.is_over:
            continue
        for fill_first in (False, True):
            arguments = (playout.stock_of(state), *playout.start_of(state), fill_first)
            assert plain.finish(*arguments) == playout._finish_c(*arguments)
            compared += 1
        cards = (b"\x01\x02", bytes(range(1, 11)) * 3, seed)
        assert plain.deal(*cards) == playout._deal_c(*cards)
    assert compared > 250


@settings(max_examples=examples(200), deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1), plies=st.integers(0, 40), shuffle=st.integers(0, 2**32), fill_first=st.booleans()
)
def test_the_engine_the_python_playout_and_the_c_playout_end_every_game_alike(seed, plies, shuffle, fill_first):
    """The rules are written once (the engine's flip rule and end-of-turn check); the playouts count lines
    their own fast way from the same tables (rules/tables.py). The greedy policy's moves played through the
    engine, move by move, must end where both playouts end."""
    state = _position(seed, plies, shuffle)
    if state.is_over:
        return
    engine = state.copy()
    passed = {}  # cards drawn: the masks the game passed then (where a playout stopped there stops)
    while not engine.is_over:
        passed[engine.drawn] = (integer_playout.STOPPED, engine.drawn, engine.occupied, engine.down)
        shift, placement = playout.greedy_choice(engine, fill_first=fill_first)
        if shift is not None:
            engine.apply(shift)
        engine.apply(placement)
    outcome = engine.outcome
    ended = (outcome.score if outcome.score is not None else -1, engine.drawn, engine.occupied, engine.down)
    arguments = (playout.stock_of(state), *playout.start_of(state), fill_first)
    assert integer_playout.finish_python(*arguments) == ended
    assert playout._finish_c is not None and playout._finish_c(*arguments) == ended
    for stop_at in range(state.drawn + 1, 41):  # stopped on the way, or ended first as the whole game did
        expected = passed.get(stop_at, ended)
        assert integer_playout.finish_python(*arguments, stop_at) == expected
        assert playout._finish_c(*arguments, stop_at) == expected


def test_the_c_tables_are_written_from_the_python_ones():
    import pathlib

    from foursquare_cli.rules import tables

    header = pathlib.Path(playout.__file__).with_name("_tables.h").read_text()
    assert header == tables.c_header()
    source = pathlib.Path(playout.__file__).with_name("_playout.c").read_text()
    assert not re.search(r"static (const )?uint(8|32|64)_t [A-Z_]+\[", source), "no table of its own"


def _tail_figures() -> list[tuple[int, int, int]]:
    from foursquare_cli.players.tail_table import TAIL_TABLE

    assert len(TAIL_TABLE) == 12 * integer_playout.TAIL_CELLS
    return [struct.unpack_from("<3i", TAIL_TABLE, 12 * cell) for cell in range(integer_playout.TAIL_CELLS)]


def test_the_tail_table_never_says_more_than_the_cards_allow():
    """Each cell of the tail table (the replies' futures without a compiler stop six cards on and count it):
    a share won of 0 to 1, a score no higher than the cards left after the stop allow, a worth between a loss's
    and the best win's; and a cell no playout passed counts 0.5, nothing won."""
    from foursquare_cli.players.futures import EXPERTS_VALUATION

    best = EXPERTS_VALUATION.worth(24, 0)
    never = 0
    for cell, (worth, won, scored) in enumerate(_tail_figures()):
        drawn = cell // (5 * 17)
        assert 0 <= won <= integer_playout.TAIL_UNITS, cell
        assert 0 <= scored <= won * (40 - drawn), cell
        assert 0 < worth <= best * integer_playout.TAIL_UNITS, cell
        if (worth, won, scored) == (integer_playout.TAIL_UNITS // 2, 0, 0):
            never += 1
    assert 0 < never < integer_playout.TAIL_CELLS  # positions never passed exist (cards piled early), not all


def test_the_tail_table_is_what_its_generator_makes(monkeypatch):
    """The shipped table is the mean of what the playouts did (`benchmarks/tail_table.py`), not numbers edited by
    hand: 3,000 deals of the same generator agree with it, cell by cell, where they saw a cell often."""
    import importlib.util
    import pathlib

    path = pathlib.Path(__file__).parents[1] / "benchmarks" / "tail_table.py"
    spec = importlib.util.spec_from_file_location("tail_table_generator", path)
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    shipped = _tail_figures()
    compared = 0
    for cell, (seen, worth, won, scored) in enumerate(generator.collect(3000)):
        if seen >= 300:  # within 4 standard errors of a mean of 300 (a worth varies by about 1.2, a win by 0.5)
            assert abs(worth / seen - shipped[cell][0]) < 0.3 * integer_playout.TAIL_UNITS, cell
            assert abs(won / seen - shipped[cell][1]) < 0.12 * integer_playout.TAIL_UNITS, cell
            assert abs(scored / seen - shipped[cell][2]) < 3 * integer_playout.TAIL_UNITS, cell
            compared += 1
    assert compared > 50, compared


def test_an_expert_with_the_tail_table_says_what_it_needs():
    from foursquare_cli.players.expert import ExpertPlayer

    with pytest.raises(ValueError, match="reply_table 2: 1"):
        ExpertPlayer(reply_table=2)
    with pytest.raises(ValueError, match="reply_second_ply=0"):
        ExpertPlayer(reply_table=1, reply_second_ply=2)


@pytest.mark.parametrize(("tail", "table"), [(-1, b""), (41, bytes(12 * integer_playout.TAIL_CELLS)), (6, bytes(12))])
def test_the_c_futures_and_replies_refuse_a_tail_they_cannot_read(tail, table):
    """A tail of cards out of 0 to 40, or a table not of the tail table's size, is refused with a ValueError
    (never read beyond its bytes)."""
    from foursquare_cli.players.futures import EXPERTS_VALUATION, worth_tables

    assert playout._futures_c is not None and playout._reply_c is not None
    state = _position(7, 6, 7)
    won, lost = worth_tables(EXPERTS_VALUATION)
    prefix, unseen = playout.stock_of(state)[: state.drawn + 1], bytes(sorted(c.rank for c in state.unseen_cards()))
    record = playout.candidate_record(state_after(state, state.legal_moves()[0]))
    with pytest.raises(ValueError, match="futures: not the figures"):
        playout._futures_c(prefix, unseen, 1, 0, 3, record, True, won, lost, tail, table)
    _, occupied, down, ranks, heights = playout.start_of(state)
    card = state.next_card
    assert card is not None
    with pytest.raises(ValueError, match="reply: not a position"):
        playout._reply_c(
            occupied, down, state.drawn, ranks, heights, card.rank, unseen, 10, True, won, lost, 0, 1, tail, table
        )
