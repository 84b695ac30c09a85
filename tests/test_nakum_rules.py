"""Rules tests for Nakum: the rulebook's examples (the Yucateca's increase, "El pobre") and
every action, Market icon, the night, the end and the scoring, each position set up through
the named offsets of nakum_env.state and played through the kernels."""

from __future__ import annotations

import numpy as np
import pytest

import nakum_env.state as S
from nakum_env import GAME, data, kernels, observe, render
from nakum_env.bots import heuristic_action
from nakum_env.invariants import check_invariants
from nakum_env.kernels import (
    ENCAMPMENT_BASE,
    EXPLORE_BASE,
    FAVOUR_BASE,
    FAVOUR_REFRESH,
    FREE_BASE,
    HERITAGE_BASE,
    HERITAGE_SETUP_BASE,
    INCREASE_ACTION,
    MARKET_BASE,
    OFFERING_BASE,
    PASS_ACTION,
    PITUK_ACTION,
    REVEAL_BASE,
    SPACE_BASE,
    START_ACTION,
    STEAL_BASE,
)
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL

C, SK, M, VP = data.CORN, data.SKIN, data.MASK, data.VP


def params(n: int) -> np.ndarray:
    return GAME.make_params(GAME.validate({"num_players": n}))


def set_up(n: int = 2, seed: int = 0) -> np.ndarray:
    """A game just after the set-up: each seat played its lowest Heritage card, the first
    positions were revealed; then every warehouse, VP and hand is emptied."""
    state = np.zeros(S.STATE_SIZE, np.int32)
    kernels.init(state, params(n), seed)
    while state[S.PHASE] != S.PHASE_DAY:
        act(state, min(legal(state)))
    for p in range(n):
        state[S.RES + p * data.NUM_RES : S.RES + (p + 1) * data.NUM_RES] = 0
    return state


def legal(state: np.ndarray, player: int | None = None) -> set[int]:
    mask = np.zeros(S.N_ACTIONS, np.int8)
    kernels.legal_mask(state, state[CURRENT_PLAYER] if player is None else player, mask)
    return set(np.flatnonzero(mask).tolist())


def act(state: np.ndarray, action: int) -> None:
    assert action in legal(state), f"{render.describe_action(state, action)} is not legal"
    kernels.step(state, action)
    check_invariants(state)


def res(state: np.ndarray, p: int, r: int) -> int:
    return int(state[S.RES + p * data.NUM_RES + r])


def give(state: np.ndarray, p: int, corn: int = 0, skin: int = 0, mask: int = 0, vp: int = 0) -> None:
    for r, value in zip((C, SK, M, VP), (corn, skin, mask, vp), strict=True):
        state[S.RES + p * data.NUM_RES + r] = value


def place_tile(state: np.ndarray, position: int, name: str, revealed: bool = True) -> int:
    """Put tile `name` at `position` (swapping it with whatever tile was there), face up."""
    tile = data.TILE_NAMES.index(name)
    board = list(state[S.TILE_AT : S.TILE_AT + state[S.POSITIONS]])
    if tile in board:
        state[S.TILE_AT + board.index(tile)] = state[S.TILE_AT + position]
    state[S.TILE_AT + position] = tile
    state[S.REVEALED + position] = int(revealed)
    return tile


def set_clan(state: np.ndarray, p: int, name: str) -> None:
    clan = data.CLAN_NAMES.index(name)
    for q in range(state[NUM_PLAYERS]):
        if state[S.CLAN + q] == clan:
            state[S.CLAN + q] = state[S.CLAN + p]
    state[S.CLAN + p] = clan


def show_offering(state: np.ndarray, slot: int, name: str) -> int:
    card = data.OFFERING_NAMES.index(name)
    old = int(state[S.OFFER_SLOT + slot])
    if old == card:
        return card
    where = int(state[S.OFFERING_WHERE + card])
    if where == S.OFFER_IN_DECK:  # swap with the old card inside the deck
        deck = list(state[S.OFFER_DECK : S.OFFER_DECK + state[S.OFFER_DECK_COUNT]])
        state[S.OFFER_DECK + deck.index(card)] = old
        state[S.OFFERING_WHERE + old] = S.OFFER_IN_DECK
    elif where == S.OFFER_SHOWN:
        state[S.OFFER_SLOT + (1 - slot)] = old
    state[S.OFFER_SLOT + slot] = card
    state[S.OFFERING_WHERE + card] = S.OFFER_SHOWN
    return card


def show_market(state: np.ndarray, slot: int, card: int) -> None:
    old = int(state[S.MARKET_SLOT + slot])
    if old == card:
        return
    shown = list(state[S.MARKET_SLOT : S.MARKET_SLOT + data.MARKET_SHOWN])
    if card in shown:
        state[S.MARKET_SLOT + shown.index(card)] = old
    else:
        deck = list(state[S.MARKET_DECK : S.MARKET_DECK + state[S.MARKET_DECK_COUNT]])
        state[S.MARKET_DECK + deck.index(card)] = old
    state[S.MARKET_SLOT + slot] = card


def to_player(state: np.ndarray, p: int) -> None:
    state[CURRENT_PLAYER] = p


def space_action(position: int, space: int) -> int:
    return SPACE_BASE + position * data.MAX_SPACES + space


def encampment_action(position: int, side: int, option: int) -> int:
    return ENCAMPMENT_BASE + (position * 2 + side) * data.MAX_OPTIONS + option


def resource_space(tile: int, good: int) -> int:
    return next(
        s
        for s in range(data.MAX_SPACES)
        if data.SPACE_KIND[tile, s] == data.SPACE_RESOURCE and data.SPACE_GAIN[tile, s, good] > 0
    )


def finish_day(state: np.ndarray) -> None:
    """Every remaining worker passes its turn on the cheapest legal action until the night."""
    start_round = state[S.ROUND]
    while state[S.ROUND] == start_round and not state[TERMINAL]:
        options = legal(state)
        act(state, PASS_ACTION if PASS_ACTION in options else max(options & set(range(EXPLORE_BASE))))


# -- set-up -------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_set_up(n: int) -> None:
    state = np.zeros(S.STATE_SIZE, np.int32)
    kernels.init(state, params(n), 5)
    board = state[S.TILE_AT : S.TILE_AT + data.BOARD_TILES]
    assert len(set(board.tolist())) == 6 and not state[S.REVEALED : S.REVEALED + 8].any()
    assert (state[S.TILE_AT + 6 : S.TILE_AT + 8] == S.NO_TILE).all()  # 2 tiles in the box, unseen
    assert (state[S.OFFER_SLOT : S.OFFER_SLOT + 2] != S.NO_CARD).all()
    assert (state[S.MARKET_SLOT : S.MARKET_SLOT + 5] != S.NO_CARD).all()
    assert state[S.INCREASE_BLOCKED] == 1 and state[S.CUBE_RESERVE] == data.BLACK_CUBES - 1
    for p in range(n):
        assert (state[S.HERITAGE_HOLDER : S.HERITAGE_HOLDER + 12] == p + 1).sum() == 3
        assert state[S.OWNED + p] == state[S.AVAILABLE + p] == 2
    assert len({int(state[S.CLAN + p]) for p in range(n)}) == n
    # Every seat chooses its Heritage card at once: each has a mask before anyone has chosen.
    assert all(legal(state, p) for p in range(n)) and state[S.PHASE] == S.PHASE_HERITAGE
    check_invariants(state)


@pytest.mark.parametrize("n, reveals", [(2, 1), (3, 2), (4, 2)])
def test_the_first_players_reveal_tiles_of_their_choice(n: int, reveals: int) -> None:
    state = np.zeros(S.STATE_SIZE, np.int32)
    kernels.init(state, params(n), 9)
    for _ in range(n):
        act(state, min(legal(state)))
    assert state[S.PHASE] == S.PHASE_REVEAL and state[CURRENT_PLAYER] == 0
    assert legal(state) == {REVEAL_BASE + i for i in range(6)}
    act(state, REVEAL_BASE + 4)
    if reveals == 2:
        assert state[CURRENT_PLAYER] == 1 and REVEAL_BASE + 4 not in legal(state)
        act(state, REVEAL_BASE + 1)
    assert state[S.PHASE] == S.PHASE_DAY and state[CURRENT_PLAYER] == 0
    assert state[S.REVEALED : S.REVEALED + 6].sum() == reveals and state[S.REVEALED + 4]


def test_the_set_up_heritage_play_is_simultaneous_and_hidden() -> None:
    state = np.zeros(S.STATE_SIZE, np.int32)
    kernels.init(state, params(3), 2)
    hand0 = [c for c in range(12) if state[S.HERITAGE_HOLDER + c] == 1]
    before = [np.zeros(observe.OBS_SIZE, np.float32) for _ in range(2)]
    observe.observe(state, 1, before[0])
    act(state, HERITAGE_SETUP_BASE + hand0[0])
    observe.observe(state, 1, before[1])
    twin = state.copy()
    kernels.init(twin, params(3), 2)
    act(twin, HERITAGE_SETUP_BASE + hand0[1])
    other = np.zeros(observe.OBS_SIZE, np.float32)
    observe.observe(twin, 1, other)
    assert (other == before[1]).all(), "seat 1 can tell which card seat 0 chose"
    assert res(state, 0, VP) + res(state, 0, C) + res(state, 0, SK) + res(state, 0, M) == 0  # not yet
    assert legal(state, 0) == set() and legal(state, 1) and legal(state, 2)
    act(state, min(legal(state)))
    act(state, min(legal(state)))
    gain = data.HERITAGE_GAIN[hand0[0]]
    assert [res(state, 0, r) for r in range(4)] == gain[:4].tolist()
    assert state[S.HERITAGE_PLAYED + hand0[0]] and state[S.PHASE] == S.PHASE_REVEAL


# -- day: basic spaces, warehouse ---------------------------------------------------------------
def test_a_basic_space_gives_its_goods_and_holds_one_worker() -> None:
    state = set_up(3)
    tile = place_tile(state, 0, "Milpa")
    action = space_action(0, resource_space(tile, C))
    act(state, action)
    assert res(state, 0, C) == data.SPACE_GAIN[tile, resource_space(tile, C), C]
    assert action not in legal(state)  # 3 players: even a double space takes one worker
    assert state[S.AVAILABLE] == 1


def test_four_players_double_spaces_take_two_workers_of_different_players() -> None:
    state = set_up(4)
    tile = place_tile(state, 0, "Milpa")
    double = next(s for s in range(3) if data.SPACE_DOUBLE[tile, s])
    single = next(s for s in range(3) if not data.SPACE_DOUBLE[tile, s] and data.SPACE_KIND[tile, s] == 0)
    act(state, space_action(0, double))
    act(state, space_action(0, single))  # player 1
    assert space_action(0, double) in legal(state)  # player 2 joins the double space
    assert space_action(0, single) not in legal(state)
    to_player(state, 0)
    assert space_action(0, double) not in legal(state)  # never two of one player's
    to_player(state, 2)
    act(state, space_action(0, double))
    to_player(state, 3)
    assert space_action(0, double) not in legal(state)  # full with 2


def test_goods_stop_at_the_warehouse_limit_and_vp_do_not() -> None:
    state = set_up(2)
    set_clan(state, 0, "Kiche")
    tile = place_tile(state, 0, "Milpa")
    give(state, 0, corn=3, vp=50)
    act(state, space_action(0, resource_space(tile, C)))  # 2 corn, the limit is 4
    assert res(state, 0, C) == data.CLAN_LIMIT[data.CLAN_NAMES.index("Kiche"), C] == 4
    assert res(state, 0, VP) == 50


# -- Encampments --------------------------------------------------------------------------------
def test_an_encampment_needs_a_worker_on_its_tile_and_a_cube_covers_the_option() -> None:
    state = set_up(2)
    tile = place_tile(state, 0, "Milpa")
    camp = encampment_action(0, 0, 0)  # "1 VP and 1 Jade Mask" (the rulebook's example)
    assert data.OPTION_GAIN[tile, 0, 0].tolist() == [0, 0, 1, 1, 0]
    assert camp not in legal(state)
    act(state, space_action(0, 0))  # player 0 on a basic space of the tile
    assert camp in legal(state)  # player 1 may use it: anyone's worker opens it
    reserve = int(state[S.CUBE_RESERVE])
    act(state, camp)
    assert res(state, 1, VP) == 1 and res(state, 1, M) == 1
    assert state[S.OPTION_CUBE + (0 * 2 + 0) * 2 + 0] == 1 and state[S.CUBE_RESERVE] == reserve - 1
    # The firepit holds one worker a day; the covered option is gone for the rest of the game.
    assert encampment_action(0, 0, 1) not in legal(state)
    finish_day(state)
    act(state, space_action(0, 0))
    assert camp not in legal(state) and encampment_action(0, 0, 1) in legal(state)


# -- the Pyramid --------------------------------------------------------------------------------
def test_el_pobre() -> None:
    """The rulebook's Offering: 7 VP, 2 Corn and 1 Jaguar Skin, and a worker sacrificed."""
    card = data.EL_POBRE
    assert data.OFFERING_COST[card].tolist() == [2, 1, 0, 0, 0]
    assert data.OFFERING_SACRIFICE[card] == 1 and data.OFFERING_VP[card] == 7
    state = set_up(2)
    slot = 0
    show_offering(state, slot, "El pobre")
    give(state, 0, corn=3, skin=1)
    # The golden rule: with 2 workers the sacrifice would leave 1, so the Offering is refused.
    assert OFFERING_BASE + slot not in legal(state)
    state[S.OWNED] = state[S.AVAILABLE] = 3
    act(state, OFFERING_BASE + slot)
    assert res(state, 0, C) == 1 and res(state, 0, SK) == 0
    assert state[S.PYRAMID_WORKERS] == 2 and state[S.SACRIFICED] == 1 and state[S.AVAILABLE] == 1
    assert state[S.OFFERING_OWNER + card] == 1 and state[S.OFFER_SLOT + slot] == S.NO_CARD
    assert kernels.score_of(state, 0) == 7
    finish_day(state)
    # Night: the sacrificed worker goes to the reserve; the Offerings are back to 2.
    assert state[S.OWNED] == 2 and state[S.AVAILABLE] == 2 and kernels.reserve_workers(state, 0) == 2
    assert (state[S.OFFER_SLOT : S.OFFER_SLOT + 2] != S.NO_CARD).all()


def test_the_pyramid_takes_two_workers_and_any_number_of_players() -> None:
    state = set_up(2)
    show_offering(state, 0, "El Campesino")
    show_offering(state, 1, "El Jaguar")
    give(state, 0, corn=4, skin=1)
    give(state, 1, corn=1, skin=3)
    act(state, OFFERING_BASE)
    act(state, OFFERING_BASE + 1)  # player 1 too, the same day
    assert state[S.OFFERINGS_DONE] == 1 and state[S.OFFERINGS_DONE + 1] == 1
    assert state[S.FIRST_OFFERING] == 1 and state[S.FIRST_OFFERING + 1] == 2


def test_an_offering_needs_two_workers_left() -> None:
    state = set_up(2)
    show_offering(state, 0, "El Campesino")
    give(state, 0, corn=4, skin=1)
    state[S.AVAILABLE] = 1
    state[S.IDLE] = 1
    assert OFFERING_BASE not in legal(state)


def test_two_sacrifices_need_four_workers() -> None:
    state = set_up(2)
    show_offering(state, 0, "El Rey")
    give(state, 0, corn=2, skin=2, mask=2)
    state[S.OWNED] = state[S.AVAILABLE] = 3
    assert OFFERING_BASE not in legal(state)
    state[S.OWNED] = state[S.AVAILABLE] = 4
    act(state, OFFERING_BASE)
    assert state[S.SACRIFICED] == 2


# -- Increase the clan --------------------------------------------------------------------------
def test_the_yucateca_increase() -> None:
    """The rulebook's example: the Yucateca pays two Skins to get one more worker."""
    state = set_up(2)
    set_clan(state, 0, "Yucateca")
    assert data.CLAN_INCREASE_COST[data.YUCATECA].tolist() == [0, 2, 0, 0, 0]
    give(state, 0, skin=2)
    assert INCREASE_ACTION not in legal(state)  # blocked until the first night
    finish_day(state)
    give(state, 0, skin=2)
    to_player(state, 0)
    act(state, INCREASE_ACTION)
    assert res(state, 0, SK) == 0 and state[S.AVAILABLE] == 0 and state[S.NEW_WORKERS] == 1
    assert state[S.INCREASE_WORKER] == 1
    give(state, 1, skin=4, corn=4, mask=4)
    assert INCREASE_ACTION not in legal(state)  # the space is taken for the day
    finish_day(state)
    assert state[S.OWNED] == 3 and state[S.AVAILABLE] == 3  # the third worker plays from this round


def test_increase_needs_a_worker_in_the_reserve() -> None:
    state = set_up(2)
    finish_day(state)
    set_clan(state, 0, "Kiche")
    give(state, 0, mask=1)
    to_player(state, 0)
    state[S.OWNED] = state[S.AVAILABLE] = 4
    assert INCREASE_ACTION not in legal(state)
    state[S.OWNED] = state[S.AVAILABLE] = 3
    assert INCREASE_ACTION in legal(state)


# -- Pituk, start player, explore ---------------------------------------------------------------
def test_pituk_wakes_when_every_tile_is_explored_and_has_two_uses() -> None:
    state = set_up(2)
    assert PITUK_ACTION not in legal(state)
    for position in range(6):
        state[S.REVEALED + position] = 1
    state[S.REVEALED + 5] = 0
    state[S.EXPLORER + 5] = 2  # explored today by player 1: that counts
    state[S.AVAILABLE + 1] = 1
    assert PITUK_ACTION in legal(state)
    before = [int(c) for c in state[S.OFFER_SLOT : S.OFFER_SLOT + 2]]
    act(state, PITUK_ACTION)
    assert res(state, 0, VP) == 1 and state[S.PITUK_CUBE] == 1
    assert state[S.PHASE] == S.PHASE_EFFECT and legal(state) == {FAVOUR_BASE, FAVOUR_REFRESH}
    act(state, FAVOUR_REFRESH)
    after = [int(c) for c in state[S.OFFER_SLOT : S.OFFER_SLOT + 2]]
    assert not set(before) & set(after) and all(
        state[S.OFFERING_WHERE + c] == S.OFFER_DISCARD for c in before
    )
    act(state, PITUK_ACTION)  # player 1: the second space
    act(state, FAVOUR_BASE)
    assert [int(c) for c in state[S.OFFER_SLOT : S.OFFER_SLOT + 2]] == after
    finish_day(state)
    assert PITUK_ACTION not in legal(state)  # used up


def test_start_player() -> None:
    state = set_up(3)
    assert START_ACTION not in legal(state)  # player 0 already holds the marker
    act(
        state,
        space_action(*next((p, s) for p in range(6) for s in range(3) if space_action(p, s) in legal(state))),
    )
    act(state, START_ACTION)  # player 1
    assert state[S.START] == 1 and START_ACTION not in legal(state)
    assert state[CURRENT_PLAYER] == 2  # the day goes on in the old order
    finish_day(state)
    assert state[CURRENT_PLAYER] == 1 and state[S.LEADER] == 1


def test_explore_gives_a_vp_and_the_tile_turns_at_night() -> None:
    state = set_up(2)
    hidden = next(p for p in range(6) if not state[S.REVEALED + p])
    act(state, EXPLORE_BASE + hidden)
    assert res(state, 0, VP) == 1 and state[S.EXPLORER + hidden] == 1
    assert EXPLORE_BASE + hidden not in legal(state)
    assert not any(space_action(hidden, s) in legal(state) for s in range(3))
    finish_day(state)
    assert state[S.REVEALED + hidden] == 1 and state[S.EXPLORER + hidden] == 0


# -- Heritage and the Market --------------------------------------------------------------------
def test_heritage_space_plays_a_card_from_the_hand() -> None:
    state = set_up(2)
    place_tile(state, 0, "Selva")
    hand = [c for c in range(12) if state[S.HERITAGE_HOLDER + c] == 1 and not state[S.HERITAGE_PLAYED + c]]
    assert {a for a in legal(state) if HERITAGE_BASE <= a < ENCAMPMENT_BASE} == {
        HERITAGE_BASE + c for c in hand
    }
    act(state, HERITAGE_BASE + hand[0])
    assert state[S.HERITAGE_PLAYED + hand[0]] == 1
    assert [res(state, 0, r) for r in range(4)] == data.HERITAGE_GAIN[hand[0], :4].tolist()


def test_market_card_with_a_cost_the_rulebook_example() -> None:
    """Pay 1 Jade Mask to obtain 2 Corn; at the end of the game it awards 1 VP."""
    card = 7
    assert data.MARKET_COST[card].tolist() == [0, 0, 1, 0, 0] and data.MARKET_GAIN[card].tolist() == [
        2,
        0,
        0,
        0,
        0,
    ]
    state = set_up(2)
    place_tile(state, 0, "Milpa")
    show_market(state, 1, card)
    assert MARKET_BASE + 1 not in legal(state)  # no mask to pay with
    give(state, 0, mask=1)
    after = [int(c) for c in state[S.MARKET_SLOT + 2 : S.MARKET_SLOT + 5]]
    act(state, MARKET_BASE + 1)
    assert res(state, 0, M) == 0 and res(state, 0, C) == 2 and state[S.MARKET_OWNER + card] == 1
    assert kernels.score_of(state, 0) == 1  # 2 corn score nothing; the card 1 VP
    assert [int(c) for c in state[S.MARKET_SLOT + 1 : S.MARKET_SLOT + 5]] == after + [S.NO_CARD]
    finish_day(state)
    assert (state[S.MARKET_SLOT : S.MARKET_SLOT + 5] != S.NO_CARD).all()


def icon_card(icon: int, free: bool = True) -> int:
    return next(
        c for c in range(22) if data.MARKET_ICON[c] == icon and (not free or not data.MARKET_COST[c].any())
    )


def test_steal_icon() -> None:
    state = set_up(3)
    place_tile(state, 0, "Milpa")
    card = icon_card(data.ICON_STEAL)
    show_market(state, 0, card)
    give(state, 0, corn=1, mask=1)
    give(state, 2, vp=1)
    act(state, MARKET_BASE)
    assert state[S.PHASE] == S.PHASE_EFFECT and state[CURRENT_PLAYER] == 0
    option = int(np.argmax(data.STEAL_VP[card]))  # the 2-VP option
    victim_offset = 2  # player 2
    action = STEAL_BASE + option * S.N_SEAT_OFFSETS + victim_offset - 1
    assert action in legal(state)
    act(state, action)
    assert res(state, 2, VP) == 0 and res(state, 0, VP) == 1  # took what there was
    assert [res(state, 0, r) for r in range(3)] == (
        np.array([1, 0, 1]) - data.STEAL_COST[card, option, :3]
    ).tolist()
    assert state[CURRENT_PLAYER] == 1 and state[S.PHASE] == S.PHASE_DAY


def test_steal_icon_is_ignored_when_no_option_is_affordable() -> None:
    state = set_up(2)
    place_tile(state, 0, "Milpa")
    show_market(state, 0, icon_card(data.ICON_STEAL))
    act(state, MARKET_BASE)
    assert state[S.PHASE] == S.PHASE_DAY and state[CURRENT_PLAYER] == 1


def test_pituk_icon_works_even_when_pituk_is_not_available() -> None:
    state = set_up(2)
    place_tile(state, 0, "Milpa")
    show_market(state, 0, icon_card(data.ICON_PITUK))
    assert PITUK_ACTION not in legal(state)
    before = [int(c) for c in state[S.OFFER_SLOT : S.OFFER_SLOT + 2]]
    act(state, MARKET_BASE)
    assert res(state, 0, VP) == 1 and legal(state) == {FAVOUR_BASE, FAVOUR_REFRESH}
    act(state, FAVOUR_REFRESH)
    assert not set(before) & {int(c) for c in state[S.OFFER_SLOT : S.OFFER_SLOT + 2]}
    assert not state[S.PITUK_CUBE : S.PITUK_CUBE + 2].any()  # no Pituk space is used


def test_increase_icon_adds_a_worker_without_the_action() -> None:
    state = set_up(2)
    place_tile(state, 0, "Milpa")
    card = icon_card(data.ICON_INCREASE, free=False)
    show_market(state, 0, card)
    set_clan(state, 0, "Yucateca")
    give(state, 0, corn=3, skin=3, mask=3)
    state[S.INCREASE_WORKER] = 2  # even with the action occupied (and blocked on day 1)
    state[S.AVAILABLE + 1] -= 2
    act(state, MARKET_BASE)
    assert state[S.NEW_WORKERS] == 1 and state[S.INCREASE_WORKER] == 2
    assert [res(state, 0, r) for r in range(3)] == (3 - data.MARKET_COST[card, :3]).tolist()
    finish_day(state)
    assert state[S.OWNED] == 3


def test_free_icon_removes_a_cube_or_is_ignored() -> None:
    state = set_up(2)
    place_tile(state, 0, "Milpa")
    card = icon_card(data.ICON_FREE)
    show_market(state, 0, card)
    act(state, MARKET_BASE)
    # Only the first-round cube on "Increase the clan" is on the board.
    assert legal(state) == {FREE_BASE + S.CUBE_INCREASE}
    act(state, FREE_BASE + S.CUBE_INCREASE)
    assert state[S.INCREASE_BLOCKED] == 0 and state[S.CUBE_RESERVE] == data.BLACK_CUBES
    # With no cube on the board, the icon is ignored.
    other = next(c for c in range(22) if data.MARKET_ICON[c] == data.ICON_FREE and c != card)
    show_market(state, 0, other)
    to_player(state, 0)
    state[S.SPACE_WORKER : S.SPACE_WORKER + 48] = 0
    state[S.AVAILABLE] = 2
    act(state, MARKET_BASE)
    assert state[S.PHASE] == S.PHASE_DAY


def test_free_icon_reopens_an_encampment_option() -> None:
    state = set_up(2)
    place_tile(state, 0, "Milpa")
    state[S.OPTION_CUBE + 0] = 1
    state[S.CUBE_RESERVE] -= 1
    show_market(state, 0, icon_card(data.ICON_FREE))
    act(state, MARKET_BASE)
    assert legal(state) == {FREE_BASE, FREE_BASE + S.CUBE_INCREASE}
    act(state, FREE_BASE)
    assert encampment_action(0, 0, 0) in legal(state)  # player 1, with player 0 on Milpa


# -- pass, night, end ---------------------------------------------------------------------------
def test_pass_only_when_nothing_else_is_legal() -> None:
    state = set_up(2)
    assert PASS_ACTION not in legal(state)
    for position in range(6):
        state[S.REVEALED + position] = 0
        state[S.EXPLORER + position] = 2
    state[S.START] = 0
    state[S.PITUK_CUBE : S.PITUK_CUBE + 2] = 1
    state[S.CUBE_RESERVE] -= 2
    state[S.OWNED + 1] = 8  # (the explorers are all "player 1's"; only the legality matters here)
    assert legal(state) == {PASS_ACTION}


def test_the_night() -> None:
    state = set_up(2)
    assert state[S.ROUND] == 1
    finish_day(state)
    assert state[S.ROUND] == 2 and state[S.INCREASE_BLOCKED] == 0
    assert state[S.CUBE_RESERVE] == data.BLACK_CUBES - state[S.OPTION_CUBE : S.OPTION_CUBE + 32].sum()
    assert (state[S.AVAILABLE : S.AVAILABLE + 2] == 2).all() and not state[
        S.SPACE_WORKER : S.SPACE_WORKER + 48
    ].any()
    assert state[CURRENT_PLAYER] == state[S.START]


def test_the_game_ends_after_the_round_of_the_second_offering_without_a_night() -> None:
    state = set_up(2)
    show_offering(state, 0, "El Campesino")
    give(state, 0, corn=4, skin=1)
    state[S.OFFERINGS_DONE] = 1
    state[S.FIRST_OFFERING] = 1
    state[S.OFFERINGS_MADE] = 1
    taken = data.OFFERING_NAMES.index("El Jaguar")
    if state[S.OFFERING_WHERE + taken] == S.OFFER_SHOWN:
        show_offering(state, 1, "El Mercader")
    deck = list(state[S.OFFER_DECK : S.OFFER_DECK + state[S.OFFER_DECK_COUNT]])
    deck.remove(taken)
    state[S.OFFER_DECK_COUNT] -= 1
    state[S.OFFER_DECK : S.OFFER_DECK + len(deck)] = deck
    state[S.OFFERING_WHERE + taken] = S.OFFER_TAKEN
    state[S.OFFERING_OWNER + taken] = 1
    act(state, OFFERING_BASE)
    assert not state[TERMINAL]  # the round is finished first
    market = state[S.MARKET_SLOT : S.MARKET_SLOT + 5].copy()
    while not state[TERMINAL]:
        act(state, min(legal(state)))
    # No night: the round did not advance, the Market was not refilled, and nobody has a worker.
    filled = (state[S.MARKET_SLOT : S.MARKET_SLOT + 5] != S.NO_CARD).sum()
    assert filled <= (market != S.NO_CARD).sum() and not state[S.AVAILABLE : S.AVAILABLE + 2].any()
    assert state[S.END_CONDITION] == S.END_OFFERINGS and state[S.ROUND] == 1  # no night


def test_final_score_and_tie_breaks() -> None:
    state = set_up(2)
    give(state, 0, corn=5, skin=3, mask=1, vp=4)  # 1 + 1 + 1 + 4
    give(state, 1, corn=2, skin=1, mask=2, vp=5)  # 0 + 0 + 2 + 5
    points, ties = np.zeros(4, np.int64), np.zeros(4, np.int64)
    kernels.scores(state, points, ties)
    assert points[:2].tolist() == [7, 7]
    assert ties[1] > ties[0]  # the most masks
    give(state, 0, corn=5, skin=3, mask=2, vp=3)
    state[S.FIRST_OFFERING + 1] = 2
    state[S.FIRST_OFFERING] = 1
    kernels.scores(state, points, ties)
    assert points[:2].tolist() == [7, 7] and ties[0] > ties[1]  # then the first to make an Offering


# -- hidden information, bots, renderings -------------------------------------------------------
def test_resample_hidden_redeals_only_hidden_things() -> None:
    state = set_up(3, seed=4)
    twin = state.copy()
    kernels.resample_hidden(twin, 0, 99)
    check_invariants(twin)
    mine = S.HERITAGE_HOLDER
    assert [c for c in range(12) if twin[mine + c] == 1] == [c for c in range(12) if state[mine + c] == 1]
    for position in range(6):
        if state[S.REVEALED + position]:
            assert twin[S.TILE_AT + position] == state[S.TILE_AT + position]
    a, b = np.zeros(observe.OBS_SIZE, np.float32), np.zeros(observe.OBS_SIZE, np.float32)
    observe.observe(state, 0, a)
    observe.observe(twin, 0, b)
    assert (a == b).all()
    changed = 0
    for seed in range(10):
        other = state.copy()
        kernels.resample_hidden(other, 0, seed)
        changed += not (other[S.TILE_AT : S.TILE_AT + 8] == state[S.TILE_AT : S.TILE_AT + 8]).all()
    assert changed >= 5


@pytest.mark.parametrize("n", [2, 4])
def test_the_bot_beats_random_play(n: int) -> None:
    wins = 0
    games = 30
    for seed in range(games):
        state = np.zeros(S.STATE_SIZE, np.int32)
        kernels.init(state, params(n), seed)
        rng = np.random.default_rng(seed)
        bot = seed % n
        while not state[TERMINAL]:
            p = state[CURRENT_PLAYER]
            action = heuristic_action(state, p, seed) if p == bot else rng.choice(sorted(legal(state)))
            kernels.step(state, action)
        points, ties = np.zeros(4, np.int64), np.zeros(4, np.int64)
        kernels.scores(state, points, ties)
        wins += max(zip(points[:n], ties[:n], strict=True)) == (points[bot], ties[bot])
    assert wins >= 0.8 * games


def test_renderings_and_action_names() -> None:
    state = set_up(4, seed=3)
    text = render.render_ansi(state, viewer=0, colour=False)
    assert "Pyramid" in text and "Market" in text and "player_3" in text
    image = render.render_rgb(state)
    assert image.ndim == 3 and image.shape[2] == 3 and image.dtype == np.uint8
    for action in range(S.N_ACTIONS):
        assert render.describe_action(state, action)


def test_score_diff_rewards_with_four_players() -> None:
    """Own score minus the others' mean; with 4 players these are thirds, so the float32 sum is
    zero only to about 1e-6 relative (why the default is 3 players: docs/games/nakum.md)."""
    from nakum_env import batch

    for seed in range(20):
        state = np.zeros(S.STATE_SIZE, np.int32)
        kernels.init(state, GAME.make_params(GAME.validate({"num_players": 4, "reward": "score_diff"})), seed)
        while not state[TERMINAL]:
            kernels.step(state, heuristic_action(state, state[CURRENT_PLAYER], seed))
        points, ties = np.zeros(4, np.int64), np.zeros(4, np.int64)
        kernels.scores(state, points, ties)
        rewards = np.zeros(4, np.float32)
        batch.returns(state, rewards)
        expected = [points[p] - (points.sum() - points[p]) / 3 for p in range(4)]
        assert np.allclose(rewards, expected, rtol=1e-6, atol=1e-5)
        assert abs(float(rewards.astype(np.float64).sum())) < 1e-5 * max(1.0, float(np.abs(rewards).max()))


def test_a_game_a_fixed_strategy_prolongs_is_cut_by_the_guard() -> None:
    """A guard, not a rule: always taking the first legal action, nobody completes 2 Offerings;
    once data.MAX_ROUNDS days are over the drivers cut the game, a truncation: every agent
    truncated, rewards 0, no winner, end condition "round limit", the scores in infos."""
    from nakum_env import data
    from nakum_env.env import GAME
    from nakum_env.state import END_ROUND_LIMIT, ROUND
    from treasure_core.aec import TreasureAECEnv

    env = TreasureAECEnv(GAME, num_players=2)
    env.reset(seed=7)
    while not env.is_over():
        env.step(env.legal_actions()[0])
    assert env.is_truncated() and all(env.truncations.values()) and not any(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0}
    info = env.infos["player_0"]
    assert info["end_condition"] == END_ROUND_LIMIT and not info["winner"] and info["score"] >= 0
    assert env.get_state()[ROUND] == data.MAX_ROUNDS + 1  # the first day past the limit
    assert GAME.info_names["end_condition"][END_ROUND_LIMIT] == "round limit"
    assert GAME.guard.describe({"num_players": 2}) == f"{data.MAX_ROUNDS} rounds"
    GAME.check_invariants(env.get_state())
