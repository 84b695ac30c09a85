"""Nakum's expansions (issue 16): the Cenote with the rulebook's "El Cazador" example, the
tseek' as wild cards the player assigns, Destiny with the rulebook's example, the Forest's
set-up, each position set up through the named offsets and played through the kernels."""

from __future__ import annotations

import numpy as np
import pytest
from test_nakum_rules import give, legal, place_tile, res, show_market, show_offering

import nakum_env.state as S
from nakum_env import GAME, cenote, data, kernels, observe, render
from nakum_env.bots import heuristic_action
from nakum_env.cenote import CENOTE_BASE, PAY_DONE_ACTION, WILD_BASE, WILD_SACRIFICE_ACTION
from nakum_env.invariants import check_invariants
from nakum_env.kernels import FAVOUR_REFRESH, MARKET_BASE, OFFERING_BASE, PITUK_ACTION
from treasure_core.header import CURRENT_PLAYER, TERMINAL

C, SK, M, VP, T = data.CORN, data.SKIN, data.MASK, data.VP, data.TSEEK
EL_CAZADOR = "El Cazador"
ON_CENOTE = 0


def params(n: int, **options: bool) -> np.ndarray:
    return GAME.make_params(GAME.validate({"num_players": n, **options}))


def set_up(n: int = 3, seed: int = 0, **options: bool) -> np.ndarray:
    """A game just after the set-up (each seat played its lowest Heritage card), then every
    warehouse and VP emptied (the tseek' stay on the Cenote)."""
    options = {"cenote": True, **options}
    state = np.zeros(S.STATE_SIZE, np.int32)
    kernels.init(state, params(n, **options), seed)
    while state[S.PHASE] != S.PHASE_DAY:
        act(state, min(legal(state)))
    for p in range(n):
        state[S.RES + p * data.NUM_RES : S.RES + p * data.NUM_RES + data.TSEEK] = 0
    return state


def act(state: np.ndarray, action: int) -> None:
    assert action in legal(state), f"{render.describe_action(state, action)} is not legal"
    kernels.step(state, action)
    check_invariants(state)


def cenote_action(boost: int, where: int) -> int:
    """where: ON_CENOTE, or 1 + the Offering slot."""
    return CENOTE_BASE + boost * S.CENOTE_DESTINATIONS + where


def workers(state: np.ndarray, p: int, count: int) -> None:
    state[S.OWNED + p] = count
    state[S.AVAILABLE + p] = count


def hand_tseek(state: np.ndarray, p: int, count: int) -> None:
    """Move `count` tseek' from the Cenote tile to seat p's warehouse."""
    state[S.TSEEK_SUPPLY] -= count
    state[S.RES + p * data.NUM_RES + T] += count


def to_act(state: np.ndarray, p: int) -> None:
    state[CURRENT_PLAYER] = p


def test_cenote_tseek_per_player_count() -> None:
    for n, tseek in ((2, 4), (3, 5), (4, 6)):
        state = set_up(n)
        assert state[S.TSEEK_SUPPLY] == tseek


def test_el_cazador_purple_player_pays_4_skins_and_1_tseek_without_a_new_sacrifice() -> None:
    """Rulebook (Cenote example): purple sacrifices a worker and a Mask at the Cenote (+2 VP and a
    tseek') and puts the worker on El Cazador; it then completes it with 4 Skins and the tseek',
    its earlier sacrifice and the tseek' paying the Offering's sacrifice."""
    state = set_up(3)
    purple = 0
    card = show_offering(state, 0, EL_CAZADOR)
    workers(state, purple, 3)
    give(state, purple, mask=1, skin=4)
    to_act(state, purple)
    act(state, cenote_action(2, 1))  # boost 2: a Mask for +2 VP; the worker onto slot 0
    assert res(state, purple, VP) == 2 and res(state, purple, M) == 0 and res(state, purple, T) == 1
    assert state[S.TSEEK_SUPPLY] == 4
    assert state[S.OFFER_SLOT_WORKERS + 0 * data.MAX_PLAYERS + purple] == 1
    assert state[S.OWNED + purple] == 2
    to_act(state, purple)
    act(state, OFFERING_BASE + 0)  # with 2 workers left the golden rule forbids a sacrifice:
    assert state[S.EFFECT] == S.EFFECT_PAY  # only the tseek' can pay it
    assert legal(state) == {WILD_SACRIFICE_ACTION}
    act(state, WILD_SACRIFICE_ACTION)
    assert legal(state) == {PAY_DONE_ACTION}
    act(state, PAY_DONE_ACTION)
    assert state[S.OFFERING_OWNER + card] == purple + 1
    assert res(state, purple, SK) == 0 and res(state, purple, T) == 0
    assert state[S.SACRIFICED + purple] == 0 and state[S.TSEEK_ON_OFFERINGS + purple] == 1
    assert not state[S.OFFER_SLOT_WORKERS : S.OFFER_SLOT_WORKERS + 2 * data.MAX_PLAYERS].any()
    # The worker on the Offering went to the reserve; the tseek' on it scores 4 VP.
    assert kernels.reserve_workers(state, purple) == 2
    assert kernels.score_of(state, purple) == 2 + data.OFFERING_VP[card] + 4


def test_el_cazador_another_player_sacrifices_and_pays_3_skins_and_1_tseek() -> None:
    state = set_up(3)
    purple, other = 0, 1
    card = show_offering(state, 0, EL_CAZADOR)
    workers(state, purple, 3)
    to_act(state, purple)
    act(state, cenote_action(0, 1))
    workers(state, other, 3)
    give(state, other, skin=4)
    to_act(state, other)
    assert OFFERING_BASE not in legal(state), "an Offering carrying a worker needs a tseek'"
    hand_tseek(state, other, 1)
    give(state, other, skin=3)
    act(state, OFFERING_BASE + 0)
    assert legal(state) == {WILD_BASE + SK}, "not its worker: the tseek' replaces a Skin"
    act(state, WILD_BASE + SK)
    act(state, PAY_DONE_ACTION)
    assert state[S.OFFERING_OWNER + card] == other + 1
    assert res(state, other, SK) == 0 and res(state, other, T) == 0
    assert state[S.SACRIFICED + other] == 1 and state[S.TSEEK_ON_OFFERINGS + other] == 1
    assert kernels.reserve_workers(state, purple) == 2  # purple's worker back in the reserve


def test_cenote_once_per_round_and_its_workers_go_to_the_reserve_at_night() -> None:
    state = set_up(2)
    workers(state, 0, 3)
    to_act(state, 0)
    act(state, cenote_action(0, ON_CENOTE))
    assert state[S.CENOTE_WORKERS + 0] == 1 and state[S.CENOTE_USED + 0] == 1
    assert kernels.reserve_workers(state, 0) == 1  # on the Cenote, not in the reserve yet
    to_act(state, 0)
    assert not any(a >= CENOTE_BASE for a in legal(state)), "a second worker to the Cenote this round"
    kernels.night(state)
    check_invariants(state)
    assert state[S.CENOTE_WORKERS + 0] == 0 and state[S.CENOTE_USED + 0] == 0
    assert kernels.reserve_workers(state, 0) == 2 and state[S.OWNED + 0] == 2


def test_cenote_respects_the_golden_rule_and_the_supply() -> None:
    state = set_up(2)
    to_act(state, 0)
    assert not any(a >= CENOTE_BASE for a in legal(state)), "2 workers: no sacrifice"
    workers(state, 0, 3)
    assert cenote_action(0, ON_CENOTE) in legal(state)
    state[S.RES + data.TSEEK] = state[S.TSEEK_SUPPLY]  # every tseek' taken
    state[S.TSEEK_SUPPLY] = 0
    assert not any(CENOTE_BASE <= a < WILD_BASE for a in legal(state))


def test_cenote_boosts_cost_what_the_tile_shows() -> None:
    state = set_up(2)
    workers(state, 0, 3)
    to_act(state, 0)
    give(state, 0, skin=1)
    moves = legal(state)
    assert cenote_action(1, ON_CENOTE) in moves and cenote_action(2, ON_CENOTE) not in moves
    act(state, cenote_action(1, ON_CENOTE))
    assert res(state, 0, VP) == data.CENOTE_BOOST_VP[1] == 1 and res(state, 0, SK) == 0


def test_a_tseek_replaces_the_good_the_player_chooses() -> None:
    """M8 costs 2 Corn; the player holds 2 Corn and a tseek': it may keep a Corn (the tseek' back
    on the Cenote) or pay the Corn and keep the tseek'."""
    state = set_up(2)
    place_tile(state, 0, "Milpa")
    card = 8
    show_market(state, 0, card)
    give(state, 0, corn=2)
    hand_tseek(state, 0, 1)
    supply = int(state[S.TSEEK_SUPPLY])
    to_act(state, 0)
    milpa_market = MARKET_BASE + 0 * data.MARKET_SHOWN + 0
    act(state, milpa_market)
    assert legal(state) == {WILD_BASE + C, PAY_DONE_ACTION}
    act(state, WILD_BASE + C)
    assert legal(state) == {PAY_DONE_ACTION}
    act(state, PAY_DONE_ACTION)
    assert state[S.MARKET_OWNER + card] == 1
    assert res(state, 0, C) == 1 and res(state, 0, T) == 0 and state[S.TSEEK_SUPPLY] == supply + 1
    # With 1 Corn only the tseek' must replace the other.
    state = set_up(2)
    place_tile(state, 0, "Milpa")
    show_market(state, 0, card)
    give(state, 0, corn=1)
    to_act(state, 0)
    assert milpa_market not in legal(state)
    hand_tseek(state, 0, 1)
    act(state, milpa_market)
    assert legal(state) == {WILD_BASE + C}


def test_pituk_discarding_offerings_sends_their_workers_to_the_reserve() -> None:
    state = set_up(2, forest=True)
    workers(state, 0, 3)
    to_act(state, 0)
    act(state, cenote_action(0, 1))
    to_act(state, 0)
    act(state, PITUK_ACTION)  # the Forest: the Pituk from the first turn
    act(state, FAVOUR_REFRESH)
    assert not state[S.OFFER_SLOT_WORKERS : S.OFFER_SLOT_WORKERS + 2 * data.MAX_PLAYERS].any()
    assert kernels.reserve_workers(state, 0) == 2


def test_tseek_scoring() -> None:
    state = set_up(2)
    hand_tseek(state, 0, 2)
    state[S.TSEEK_ON_OFFERINGS + 0] = 1
    state[S.TSEEK_SUPPLY] -= 1
    check_invariants(state)
    assert kernels.score_of(state, 0) == 2 * data.TSEEK_WAREHOUSE_VP + data.TSEEK_OFFERING_VP == 10


def give_destiny(state: np.ndarray, p: int, card: int) -> None:
    """Swap Destiny cards so that seat p holds `card`."""
    holders = state[S.DESTINY_HOLDER : S.DESTINY_HOLDER + data.NUM_DESTINY]
    mine = int(np.flatnonzero(holders == p + 1)[0])
    holders[mine], holders[card] = holders[card], holders[mine]


def test_destiny_rulebook_example() -> None:
    """3 Heritage cards played: 3 VP; 3 Corn and 2 Skins still stored: 2 more. tseek' are not
    wild cards for Destiny."""
    state = set_up(2, destiny=True)
    give_destiny(state, 0, 0)
    check_invariants(state)
    for card in range(data.NUM_HERITAGE):
        if state[S.HERITAGE_HOLDER + card] == 1:
            state[S.HERITAGE_PLAYED + card] = 1
    assert cenote.destiny_points(state, 0) == 3
    give(state, 0, corn=3, skin=1)
    hand_tseek(state, 0, 1)
    assert cenote.destiny_points(state, 0) == 3, "a tseek' is no Skin for Destiny"
    give(state, 0, corn=3, skin=2)
    assert cenote.destiny_points(state, 0) == 5
    first = int(np.flatnonzero(state[S.HERITAGE_HOLDER : S.HERITAGE_HOLDER + data.NUM_HERITAGE] == 1)[0])
    state[S.HERITAGE_PLAYED + first] = 0
    assert cenote.destiny_points(state, 0) == 2, "the lower requirement alone"
    check_invariants(state)


def test_destiny_cards_are_secret_until_the_end_and_resampled() -> None:
    state = set_up(3, destiny=True)
    out = np.zeros(observe.OBS_SIZE, np.float32)
    start = observe.OBS["expansions"][0] + observe.EXPANSION["destiny"][0]
    observe.observe(state, 1, out)
    seen = out[start : start + data.MAX_PLAYERS * data.NUM_DESTINY].reshape(data.MAX_PLAYERS, -1)
    assert seen[0].sum() == 1 and seen[0, cenote.destiny_of(state, 1)] == 1 and seen[1:].sum() == 0
    own = cenote.destiny_of(state, 1)
    others = set()
    for seed in range(20):
        twin = state.copy()
        kernels.resample_hidden(twin, 1, seed)
        check_invariants(twin)
        assert cenote.destiny_of(twin, 1) == own
        others.add(cenote.destiny_of(twin, 0))
        twin_out = np.zeros_like(out)
        observe.observe(twin, 1, twin_out)
        assert np.array_equal(out, twin_out)
    assert len(others) == data.NUM_DESTINY - 1, "the others' cards come from the 5 player 1 cannot see"
    state[TERMINAL] = 1
    observe.observe(state, 1, out)
    seen = out[start : start + data.MAX_PLAYERS * data.NUM_DESTINY].reshape(data.MAX_PLAYERS, -1)
    assert seen[:3].sum() == 3, "every card shown at the end"
    # The table shows another player's score without its secret card.
    state[TERMINAL] = 0
    give_destiny(state, 0, 2)
    give(state, 0, corn=4)
    assert f"score {kernels.score_of(state, 0) - 2}" in render.render_ansi(state, viewer=1).splitlines()[-4]


def test_forest_puts_every_tile_on_the_board_and_wakes_the_pituk() -> None:
    state = np.zeros(S.STATE_SIZE, np.int32)
    kernels.init(state, params(2, forest=True), 3)
    assert state[S.POSITIONS] == 8 and state[S.VARIANT + S.V_CENOTE] == 1
    assert sorted(state[S.TILE_AT : S.TILE_AT + 8]) == list(range(8))
    while state[S.PHASE] != S.PHASE_DAY:
        act(state, min(legal(state)))
    assert PITUK_ACTION in legal(state)
    base = np.zeros(S.STATE_SIZE, np.int32)
    kernels.init(base, params(2), 3)
    while base[S.PHASE] != S.PHASE_DAY:
        act(base, min(legal(base)))
    assert PITUK_ACTION not in legal(base)


def test_options() -> None:
    flags = [S.P_CENOTE, S.P_DESTINY, S.P_FOREST, S.P_SOLO_HARD]
    assert list(params(2, forest=True)[flags]) == [1, 0, 1, 0], "the Forest plays with the Cenote"
    assert list(params(2)[flags]) == [0, 0, 0, 0]
    with pytest.raises(ValueError, match="cenote"):
        GAME.validate({"cenote": 1})
    with pytest.raises(ValueError, match="destiny"):
        GAME.validate({"destiny": "yes"})


def test_bot_plays_the_cenote_and_finishes_games() -> None:
    env_state = np.zeros(S.STATE_SIZE, np.int32)
    kernels.init(env_state, params(3, cenote=True, destiny=True, forest=True), 7)
    used = 0
    for _ in range(3000):
        if env_state[TERMINAL]:
            break
        action = heuristic_action(env_state, int(env_state[CURRENT_PLAYER]), 1)
        used += action >= CENOTE_BASE
        act(env_state, action)
    assert env_state[TERMINAL] and used > 0


def test_the_validator_refuses_inconsistent_expansion_states() -> None:
    """Fields in range but against the options or the tseek' count (issue 18's validator)."""
    from treasure_core.aec import TreasureAECEnv

    env = TreasureAECEnv(GAME, num_players=3, cenote=True, destiny=True)
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    for _ in range(60):
        env.step(int(rng.choice(env.legal_actions())))
    good = env.get_state()
    cases = []
    state = good.copy()
    state[S.VARIANT + S.V_FOREST] = 1
    cases.append((state, "forest"))
    state = good.copy()
    state[S.TSEEK_SUPPLY] = (state[S.TSEEK_SUPPLY] + 1) % (data.MAX_TSEEK + 1)
    cases.append((state, "tseek'"))
    state = good.copy()
    state[S.DESTINY_HOLDER : S.DESTINY_HOLDER + data.NUM_DESTINY] = 0
    cases.append((state, "DESTINY_HOLDER"))
    state = good.copy()
    state[S.PAY_ACTION] = WILD_BASE
    cases.append((state, "PAY_ACTION"))
    for state, match in cases:
        with pytest.raises(ValueError, match=match):
            env.set_state(state)
        assert np.array_equal(env.get_state(), good)
    base = TreasureAECEnv(GAME, num_players=3)
    base.reset(seed=1)
    state = base.get_state()
    state[S.VARIANT + S.V_CENOTE] = 1
    with pytest.raises(ValueError, match="cenote"):
        base.set_state(state)


@pytest.mark.long
@pytest.mark.parametrize(
    "options",
    [
        {"cenote": True},
        {"destiny": True},
        {"num_players": 2, "cenote": True, "destiny": True, "forest": True},
    ],
)
def test_corrupt_expansion_states_are_refused_or_play_on_with_bounds_checking(options: dict) -> None:
    """tests/test_adversarial.py runs the default options; this runs the expansions' fields."""
    from treasure_core import adversarial

    code, output = adversarial.run_in_subprocess("nakum", options)
    assert code == 0 and ", 0 failures" in output, output[-4000:]
