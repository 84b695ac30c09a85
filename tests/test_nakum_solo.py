"""Nakum solo against Chaak'Bot (num_players=1, solo_mode): the set-up changes, the bot's cards
and turn (the rulebook's example), the Offering check, combos in both modes, the reshuffle,
the Market rule, the start-player combo, the night, the outcome, hidden information and the
bot deck's invariants. Positions are built through nakum_env.state's named offsets and played
through the kernels (chaakbot.py's own kernels where one step of the bot is tested)."""

from __future__ import annotations

import builtins

import numpy as np
import pytest

import nakum_env.state as S
from nakum_env import GAME, chaakbot, data, kernels, observe, render
from nakum_env.bots import NakumBot
from nakum_env.invariants import check_invariants
from nakum_env.kernels import FREE_BASE, INCREASE_ACTION, PITUK_ACTION, START_ACTION, STEAL_BASE
from treasure_apps.cli import main
from treasure_core.aec import TreasureAECEnv
from treasure_core.header import CURRENT_PLAYER

C, SK, M, VP = data.CORN, data.SKIN, data.MASK, data.VP
BOT = data.BOT_SEAT
HUMAN = 0
# One env per mode, shared by the tests that play whole games (compiled once per session).
ENVS = {mode: TreasureAECEnv(GAME, num_players=1, solo_mode=mode) for mode in ("normal", "hard")}


def params(mode: str = "normal") -> np.ndarray:
    return GAME.make_params(GAME.validate({"num_players": 1, "solo_mode": mode}))


def legal(state: np.ndarray) -> set[int]:
    mask = np.zeros(S.N_ACTIONS, np.int8)
    kernels.legal_mask(state, HUMAN, mask)
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


def set_up(mode: str = "normal", seed: int = 0) -> np.ndarray:
    """Day 1 of a solo game, the human to act: the set-up played (lowest Heritage card, lowest
    tile), Chaak'Bot's first card played; then its markers, cubes and warehouse are cleared."""
    state = np.zeros(S.STATE_SIZE, np.int32)
    kernels.init(state, params(mode), seed)
    while state[S.PHASE] != S.PHASE_DAY:
        act(state, min(legal(state)))
    clear_bot(state)
    return state


def clear_bot(state: np.ndarray) -> None:
    for offset, size in ((S.EXPLORER, data.MAX_POSITIONS), (S.ENCAMP_WORKER, data.MAX_POSITIONS * 2)):
        for i in range(size):
            if state[offset + i] == S.BOT_MARK:
                state[offset + i] = 0
    if state[S.START_BLOCKED]:
        state[S.START_BLOCKED] = 0
        state[S.CUBE_RESERVE] += 1
    give(state, BOT)
    check_invariants(state)


def deal_bot(
    state: np.ndarray, cards: tuple[int, ...], orientations: tuple[int, ...], face_down: bool = False
) -> None:
    """Chaak'Bot's draw is `cards` (with these orientations), none played; the deck holds the
    others."""
    rest = [c for c in range(data.NUM_BOT_CARDS) if c not in cards]
    for i, card in enumerate(rest):
        state[S.BOT_DECK + i] = card
    state[S.BOT_DECK_COUNT] = len(rest)
    for k, (card, orientation) in enumerate(zip(cards, orientations, strict=True)):
        state[S.BOT_DRAWN + k] = card + (S.BOT_FACE_DOWN if face_down else 0)
        state[S.BOT_ORIENT + card] = orientation
    state[S.BOT_ACTED] = 0
    check_invariants(state)


def place_tile(state: np.ndarray, position: int, name: str, revealed: bool = True) -> int:
    tile = data.TILE_NAMES.index(name)
    board = list(state[S.TILE_AT : S.TILE_AT + state[S.POSITIONS]])
    if tile in board:
        other = board.index(tile)
        state[S.TILE_AT + other] = state[S.TILE_AT + position]
        state[S.REVEALED + other], state[S.REVEALED + position] = state[S.REVEALED + position], 0
    state[S.TILE_AT + position] = tile
    state[S.REVEALED + position] = int(revealed)
    return tile


def show_market(state: np.ndarray, cards: list[int]) -> None:
    """The Market row is `cards` (left to right); the rest of the unowned cards form the deck."""
    free = [c for c in range(data.NUM_MARKET) if state[S.MARKET_OWNER + c] == 0 and c not in cards]
    for slot in range(data.MARKET_SHOWN):
        state[S.MARKET_SLOT + slot] = cards[slot] if slot < len(cards) else S.NO_CARD
    for i, card in enumerate(free):
        state[S.MARKET_DECK + i] = card
    state[S.MARKET_DECK_COUNT] = len(free)


def show_offering(state: np.ndarray, slot: int, name: str) -> int:
    card = data.OFFERING_NAMES.index(name)
    old = int(state[S.OFFER_SLOT + slot])
    if old != card:
        where = int(state[S.OFFERING_WHERE + card])
        if where == S.OFFER_IN_DECK:
            deck = list(state[S.OFFER_DECK : S.OFFER_DECK + state[S.OFFER_DECK_COUNT]])
            state[S.OFFER_DECK + deck.index(card)] = old
            state[S.OFFERING_WHERE + old] = S.OFFER_IN_DECK
        else:
            state[S.OFFER_SLOT + (1 - slot)] = old
        state[S.OFFER_SLOT + slot] = card
        state[S.OFFERING_WHERE + card] = S.OFFER_SHOWN
    return card


def pass_or_cheapest(state: np.ndarray) -> int:
    """A human move that never takes the starting player marker or an Offering."""
    options = legal(state) - {START_ACTION}
    return min(options)


# -- set-up --------------------------------------------------------------------------------------
def test_solo_set_up() -> None:
    """The 2-player preparation (1 tile revealed, by the human); the human holds 4 Heritage cards;
    Increase the clan and the Pituk are open from the start; Chaak'Bot starts and plays first."""
    state = np.zeros(S.STATE_SIZE, np.int32)
    kernels.init(state, params(), 7)
    check_invariants(state)
    hand = [c for c in range(data.NUM_HERITAGE) if state[S.HERITAGE_HOLDER + c] == 1]
    assert len(hand) == 4 and state[S.START] == BOT and state[S.INCREASE_BLOCKED] == 0
    assert state[S.CUBE_RESERVE] == data.BLACK_CUBES and state[S.BOT_DECK_COUNT] == data.NUM_BOT_CARDS
    act(state, min(legal(state)))  # the set-up Heritage play
    assert state[S.PHASE] == S.PHASE_REVEAL and state[S.REVEALS_LEFT] == 1 and state[CURRENT_PLAYER] == HUMAN
    act(state, min(legal(state)))
    assert state[S.PHASE] == S.PHASE_DAY and state[S.ROUND] == 1
    assert state[S.BOT_ACTED] == 1, "Chaak'Bot starts the day"
    assert PITUK_ACTION in legal(state), "the Pituk is available from the first turn"
    give(state, HUMAN, corn=5, skin=5, mask=5)
    assert INCREASE_ACTION in legal(state), "Increase the clan is available from the first turn"


def test_options() -> None:
    with pytest.raises(ValueError, match="destiny"):
        GAME.check_options({"num_players": 1, "destiny": True, "solo_mode": "normal"})
    GAME.check_options({"num_players": 3, "destiny": True, "solo_mode": "normal"})
    with pytest.raises(ValueError, match="solo_mode"):
        TreasureAECEnv(GAME, num_players=1, solo_mode="easy")
    assert params("hard")[S.P_SOLO_HARD] == 1 and params()[S.P_SOLO_HARD] == 0
    four = GAME.make_params(GAME.validate({"num_players": 4, "solo_mode": "hard"}))
    assert four[S.P_SOLO_HARD] == 0, "solo_mode does nothing with 2-4 players"


# -- the bot's turn ------------------------------------------------------------------------------
def test_the_rulebook_example() -> None:
    """ "The bot starts its turn blocking the Encampment on the right of tile no. 5, gets a Skin and
    explores tile 1. Then it checks if it has a combo, and it does indeed have the first of the
    combos, and also gets a Mask.\""""
    state = set_up()
    place_tile(state, 4, "Selva")  # tile no. 5 (clockwise from 12 o'clock): a right Encampment
    state[S.REVEALED + 0] = 0  # tile no. 1 face down
    deal_bot(state, (0, 1, 2), (0, 0, 0))  # card 0's first top; card 1's centre is a Mask too
    assert data.BOT_COMBO[0, 0] == data.BOT_COMBO[1, 0] == data.COMBO_MASK
    state[S.SPACE_WORKER + (4 * data.MAX_SPACES + 0) * 2] = HUMAN + 1  # a human worker on tile no. 5
    state[S.AVAILABLE + HUMAN] -= 1
    right = [kernels.ENCAMPMENT_BASE + (4 * 2 + data.RIGHT) * data.MAX_OPTIONS + o for o in range(2)]
    assert set(right) & legal(state), "the human could use the right Encampment before"
    chaakbot.play_card(state)
    check_invariants(state)
    assert state[S.ENCAMP_WORKER + 4 * 2 + data.RIGHT] == S.BOT_MARK
    assert state[S.EXPLORER + 0] == S.BOT_MARK
    assert (res(state, BOT, SK), res(state, BOT, VP), res(state, BOT, M)) == (1, 1, 1)
    assert state[S.BOT_ACTED] == 1
    # The human cannot use the blocked Encampment today, nor explore tile no. 1.
    assert not set(right) & legal(state)
    assert kernels.EXPLORE_BASE + 0 not in legal(state)


def test_tile_actions_are_skipped_when_impossible() -> None:
    state = set_up()
    place_tile(state, 4, "Milpa")  # tile no. 5 has no right Encampment
    state[S.REVEALED + 0] = 1  # tile no. 1 face up: "block left"
    tile = int(state[S.TILE_AT + 0])
    deal_bot(state, (0, 3, 4), (0, 0, 0))
    chaakbot.play_card(state)
    assert state[S.ENCAMP_WORKER + 4 * 2 + data.RIGHT] == 0 and res(state, BOT, VP) == 0
    assert state[S.ENCAMP_WORKER + 0 * 2 + data.LEFT] == (
        S.BOT_MARK if data.OPTION_EXISTS[tile, 0].any() else 0
    )
    # A face-down tile the human explored already is not explored again.
    state = set_up()
    place_tile(state, 4, "Milpa")
    state[S.REVEALED + 0] = 0
    state[S.EXPLORER + 0] = HUMAN + 1
    state[S.AVAILABLE + HUMAN] -= 1
    deal_bot(state, (0, 3, 4), (0, 0, 0))
    chaakbot.play_card(state)
    assert state[S.EXPLORER + 0] == HUMAN + 1 and res(state, BOT, VP) == 0


@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_combos_next_card_in_normal_mode_previous_in_hard(mode: str) -> None:
    state = set_up(mode)
    deal_bot(state, (0, 1, 2), (0, 0, 0), face_down=mode == "hard")  # Mask, Mask, start player
    chaakbot.play_card(state)  # card 0: a Skin (+ the tiles); combo with card 1 only if normal
    assert res(state, BOT, M) == (1 if mode == "normal" else 0)
    assert not chaakbot.drawn_face_down(state, 0)
    chaakbot.play_card(state)  # card 1: 1 Corn; normal: vs card 2 (start); hard: vs card 0 (Mask)
    assert res(state, BOT, M) == 1 and state[S.BOT_ACTED] == 2
    check_invariants(state)


def test_the_start_player_combo_blocks_the_space_until_the_night() -> None:
    state = set_up()
    state[S.START] = HUMAN
    deal_bot(state, (2, 5, 3), (0, 1, 0))  # both centres: the starting player
    chaakbot.play_card(state)
    assert state[S.START] == BOT and state[S.START_BLOCKED] == 1
    assert state[S.CUBE_RESERVE] == data.BLACK_CUBES - 1
    check_invariants(state)
    assert START_ACTION not in legal(state), "the human cannot take the blocked space"
    state[S.START_BLOCKED] = 0
    state[S.CUBE_RESERVE] += 1
    assert START_ACTION in legal(state)


def test_the_night_lifts_the_start_block_and_discards_the_cards() -> None:
    state = set_up()
    deal_bot(state, (2, 5, 3), (0, 1, 0))
    chaakbot.play_card(state)
    assert state[S.START_BLOCKED] == 1
    chaakbot.night(state)
    assert state[S.START_BLOCKED] == 0 and state[S.CUBE_RESERVE] == data.BLACK_CUBES
    assert all(state[S.BOT_DRAWN + k] == S.NO_CARD for k in range(data.BOT_DRAW))


# -- the day's order -----------------------------------------------------------------------------
def human_turn(state: np.ndarray) -> None:
    """One of the human's turns: a worker, and the icon of its own Market card if any."""
    act(state, pass_or_cheapest(state))
    while state[S.PHASE] == S.PHASE_EFFECT and state[S.MARKET_OWNER + state[S.EFFECT_CARD]] != S.BOT_MARK:
        act(state, pass_or_cheapest(state))


def test_the_bot_starts_and_acts_after_each_human_turn() -> None:
    state = set_up()
    assert state[S.BOT_ACTED] == 1 and state[S.AVAILABLE + HUMAN] == 2, "the bot's first card came first"
    deal_bot(state, (3, 4, 5), (0, 1, 0))  # no Market icon: nothing for the human to decide
    state[S.BOT_ACTED] = 1
    state[S.OWNED + HUMAN] += 1  # a third worker, so that the day outlasts the bot's cards
    state[S.AVAILABLE + HUMAN] += 1
    give(state, BOT)
    human_turn(state)
    assert state[S.BOT_ACTED] == 2 and res(state, BOT, SK) == 1
    human_turn(state)
    assert state[S.BOT_ACTED] == 3 and res(state, BOT, C) == 2, "the third card: 2 Corn"
    human_turn(state)  # the human's last worker: Chaak'Bot has no card left; the night
    assert state[S.ROUND] == 2


def test_the_day_ends_when_the_human_runs_out_of_workers() -> None:
    """With the human starting and 2 workers, Chaak'Bot plays 2 of its 3 cards."""
    state = set_up()
    chaakbot.night(state)
    state[S.START] = HUMAN
    deal_bot(state, (3, 4, 5), (0, 1, 0))  # [tile 4, 1 Skin], [1 Skin, tile 4], [2 Corn, tile 5]
    human_turn(state)
    assert state[S.BOT_ACTED] == 1
    human_turn(state)  # the human's last worker, then the bot's second card, then the night
    assert state[S.ROUND] == 2, "the day ended with the human's workers"
    assert res(state, BOT, SK) == 2 and res(state, BOT, C) == 0, "the third card was not played"


# -- the Offering check -----------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["normal", "hard"])
def test_the_offering_check_resources_then_hearts(mode: str) -> None:
    hard = mode == "hard"
    state = set_up(mode)
    card = show_offering(state, 0, "El Rey")  # 2 Corn, 2 Skins, 2 Masks, 2 sacrifices
    show_offering(state, 1, "El Campesino")  # 4 Corn, 1 Skin
    # Not the resources: no check of the hearts (hard mode keeps the cards face down).
    give(state, BOT, corn=2, skin=2, mask=1)
    deal_bot(state, (0, 2, 6), (1, 1, 0), face_down=hard)  # 3 hearts
    chaakbot.offering_check(state)
    assert state[S.OFFERING_OWNER + card] == 0
    assert all(chaakbot.drawn_face_down(state, k) == hard for k in range(3))
    # The resources but 1 heart for 2 sacrifices: the cards are turned up to count them; no Offering.
    give(state, BOT, corn=2, skin=2, mask=2)
    deal_bot(state, (0, 2, 6), (1, 0, 1), face_down=hard)  # hearts 1 + 0 + 0
    chaakbot.offering_check(state)
    assert state[S.OFFERING_OWNER + card] == 0 and not any(
        chaakbot.drawn_face_down(state, k) for k in range(3)
    )
    # Enough hearts: Chaak'Bot makes the Offering, pays, discards its cards and rests all day.
    deal_bot(state, (0, 2, 6), (1, 1, 0), face_down=hard)
    chaakbot.offering_check(state)
    check_invariants(state)
    assert state[S.OFFERING_OWNER + card] == S.BOT_MARK and state[S.OFFERINGS_DONE + BOT] == 1
    assert (res(state, BOT, C), res(state, BOT, SK), res(state, BOT, M)) == (0, 0, 0)
    assert chaakbot.resting(state) and state[S.OFFER_SLOT] == S.NO_CARD
    vp = res(state, BOT, VP)
    while state[S.ROUND] == 1:
        act(state, pass_or_cheapest(state))
        if state[S.ROUND] == 1:
            assert state[S.BOT_ACTED] == 0 and res(state, BOT, VP) == vp, "the bot rests"


def test_the_bot_takes_the_left_offering_first_and_without_sacrifice_needs_no_heart() -> None:
    state = set_up()
    left = show_offering(state, 0, "El Campesino")
    show_offering(state, 1, "El Sacerdote")
    give(state, BOT, corn=5, skin=1, mask=2)
    deal_bot(state, (1, 3, 4), (1, 1, 1))  # no hearts
    chaakbot.offering_check(state)
    assert state[S.OFFERING_OWNER + left] == S.BOT_MARK and res(state, BOT, C) == 1


def test_the_bots_two_offerings_end_the_game_after_the_humans_round() -> None:
    env = ENVS["normal"]
    for seed in range(40):
        env.reset(seed=seed)
        while not env.is_over():
            env.step(min(env.legal_actions()))
        state = env.get_state()
        if state[S.OFFERINGS_DONE + BOT] >= 2:
            assert state[S.END_CONDITION] == S.END_OFFERINGS and state[S.AVAILABLE + HUMAN] == 0
            return
    raise AssertionError("Chaak'Bot never made 2 Offerings in 40 games")


# -- the reshuffle ---------------------------------------------------------------------------------
def test_the_reshuffle_completes_the_draw_and_turns_cards_at_random() -> None:
    turned = set()
    for seed in range(20):
        state = set_up(seed=seed)
        chaakbot.night(state)
        state[S.BOT_DECK + 0], state[S.BOT_DECK + 1] = 6, 7
        state[S.BOT_DECK_COUNT] = 2
        state[S.BOT_ORIENT : S.BOT_ORIENT + 8] = 0
        chaakbot.draw(state)
        drawn = [chaakbot.drawn_card(state, k) for k in range(3)]
        assert drawn[:2] == [7, 6], "the rest of the old deck first"
        deck = list(state[S.BOT_DECK : S.BOT_DECK + state[S.BOT_DECK_COUNT]])
        assert len(deck) == 5 and sorted(deck + drawn) == list(range(8)), "every card once"
        turned |= {int(c) for c in range(6) if state[S.BOT_ORIENT + c] == 1}
        check_invariants(state)
    assert turned == set(range(6)), "the reshuffled cards are turned at random"


# -- the Market rule -------------------------------------------------------------------------------
def test_the_market_rule_leftmost_affordable_pituk_and_increase_without_benefit() -> None:
    state = set_up()
    pituk, increase, plain = 16, 18, 0
    assert data.MARKET_ICON[pituk] == data.ICON_PITUK and data.MARKET_ICON[increase] == data.ICON_INCREASE
    show_market(state, [12, pituk, plain, 3, 5])  # card 12 costs 3 Corn
    give(state, BOT, corn=2)
    chaakbot.market(state)
    assert state[S.MARKET_OWNER + pituk] == S.BOT_MARK and state[S.EFFECT] == S.EFFECT_NONE
    assert res(state, BOT, VP) == 0, "the Pituk card gives Chaak'Bot nothing"
    assert list(state[S.MARKET_SLOT : S.MARKET_SLOT + 5]) == [12, plain, 3, 5, S.NO_CARD], "shifted left"
    show_market(state, [12, increase, plain, 3])
    give(state, BOT, corn=1, skin=1)
    new_workers = int(state[S.NEW_WORKERS + BOT])
    chaakbot.market(state)
    assert state[S.MARKET_OWNER + increase] == S.BOT_MARK and res(state, BOT, C) == 0
    assert state[S.NEW_WORKERS + BOT] == new_workers
    show_market(state, [12, 11])  # 3 Corn, 1 Mask: neither affordable
    give(state, BOT)
    chaakbot.market(state)
    assert list(state[S.MARKET_SLOT : S.MARKET_SLOT + 2]) == [12, 11], "the action is lost"
    check_invariants(state)
    # At night the Market is refilled from the left.
    state[S.BOT_ACTED] = 3
    while state[S.ROUND] == 1:
        act(state, pass_or_cheapest(state))
    assert all(state[S.MARKET_SLOT + s] != S.NO_CARD for s in range(5))


def test_the_human_chooses_the_cube_of_the_bots_free_card_then_the_combo() -> None:
    state = set_up()
    free = 20  # free, +1 Skin, free an Encampment
    assert data.MARKET_ICON[free] == data.ICON_FREE
    show_market(state, [free, 0])
    state[S.START_BLOCKED] = 1  # a cube on the start-player space (from an earlier combo)
    state[S.CUBE_RESERVE] -= 1
    deal_bot(state, (0, 3, 1), (1, 1, 0))  # [1 Corn, Market], centre start; [1 Corn, Market], Mask
    chaakbot.play_card(state)
    check_invariants(state)
    assert state[S.PHASE] == S.PHASE_EFFECT and state[S.EFFECT] == S.EFFECT_FREE
    assert state[CURRENT_PLAYER] == HUMAN and state[S.MARKET_OWNER + free] == S.BOT_MARK
    assert legal(state) == {FREE_BASE + S.CUBE_START}, "the only cube: the bot's own start block"
    act(state, FREE_BASE + S.CUBE_START)
    assert state[S.START_BLOCKED] == 0 and state[S.BOT_ACTED] == 1
    assert state[S.PHASE] == S.PHASE_DAY and res(state, BOT, SK) == 1


def test_the_bot_steals_from_the_human_and_the_human_from_the_bot() -> None:
    state = set_up()
    steal = 14  # options: 1 Corn -> 1 VP, 1 Mask -> 2 VP
    show_market(state, [steal])
    give(state, BOT, corn=1, mask=1)
    give(state, HUMAN, vp=3)
    state[S.BOT_ACTED] = data.BOT_DRAW  # every card played: the human's turn goes on alone
    chaakbot.market(state)
    assert res(state, HUMAN, VP) == 1 and res(state, BOT, VP) == 2 and res(state, BOT, M) == 0
    # The human's steal icon names Chaak'Bot as the victim.
    state[S.MARKET_OWNER + steal] = HUMAN + 1
    state[S.EFFECT] = S.EFFECT_STEAL
    state[S.EFFECT_CARD] = steal
    state[S.PHASE] = S.PHASE_EFFECT
    give(state, HUMAN, mask=1, vp=1)
    assert legal(state) == {STEAL_BASE + 1 * S.N_SEAT_OFFSETS + 0}
    act(state, STEAL_BASE + 1 * S.N_SEAT_OFFSETS + 0)
    assert res(state, HUMAN, VP) == 3 and res(state, BOT, VP) == 0


# -- outcome -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("reward", ["win_loss", "score_diff"])
def test_the_outcome_against_the_bot(reward: str) -> None:
    env = TreasureAECEnv(GAME, num_players=1, reward=reward)
    bot = NakumBot(0)
    outcomes = set()
    for seed in range(30):
        env.reset(seed=seed)
        while not env.is_over():
            env.step(bot.act(env, "player_0"))
        info = env.infos["player_0"]
        human, chaak = info["scores"]
        assert info["score"] == human and info["bot_score"] == chaak and info["bot_margin"] == human - chaak
        reward_now = env.rewards["player_0"]
        if reward == "win_loss":
            assert reward_now == (1.0 if info["winner"] else -1.0)
            if human != chaak:
                assert info["winner"] == (human > chaak)
        else:
            assert reward_now == pytest.approx(human - chaak)
        outcomes.add(bool(info["winner"]))
    assert outcomes == {True, False}, "the scripted bot both wins and loses against Chaak'Bot"


def test_infos_have_the_same_keys_at_every_step() -> None:
    env = ENVS["hard"]
    env.reset(seed=3)
    keys = set(env.infos["player_0"])
    assert {"bot_score", "bot_margin", "bot_offerings"} <= keys
    while not env.is_over():
        env.step(min(env.legal_actions()))
        assert set(env.infos["player_0"]) == keys


# -- hidden information ------------------------------------------------------------------------------
def test_hard_mode_hides_the_unplayed_cards_and_normal_mode_shows_them() -> None:
    for mode in ("normal", "hard"):
        state = set_up(mode, seed=5)
        out = np.zeros(observe.SOLO_OBS_SIZE, np.float32)
        observe.observe(state, HUMAN, out)
        block = observe._BOT_OBS
        drawn = out[block + observe._B_DRAWN : block + observe._B_DRAWN + 3 * data.NUM_BOT_CARDS]
        shown = drawn.reshape(3, data.NUM_BOT_CARDS).sum(1)
        assert list(shown) == ([1, 1, 1] if mode == "normal" else [1, 0, 0])
        changed = False
        for seed in range(10):
            twin = state.copy()
            kernels.resample_hidden(twin, HUMAN, seed)
            check_invariants(twin)
            again = np.zeros_like(out)
            observe.observe(twin, HUMAN, again)
            assert np.array_equal(out, again), "resample_hidden changed what the human sees"
            assert chaakbot.drawn_card(twin, 0) == chaakbot.drawn_card(state, 0), "a played card moved"
            changed |= not np.array_equal(
                twin[S.BOT_DRAWN : S.BOT_DRAWN + 3], state[S.BOT_DRAWN : S.BOT_DRAWN + 3]
            )
        assert changed == (mode == "hard"), "hard mode's face-down cards are re-dealt, normal mode's are seen"


# -- invariants and the validator -----------------------------------------------------------------------
def test_invariants_of_the_bot_deck() -> None:
    state = set_up("hard")
    bad = state.copy()
    bad[S.BOT_DECK] = chaakbot.drawn_card(state, 0)  # a card in the deck and in the draw
    with pytest.raises(AssertionError, match="BOT_DECK"):
        check_invariants(bad)
    bad = state.copy()
    bad[S.BOT_DRAWN] += S.BOT_FACE_DOWN  # the card played this morning lies face down
    with pytest.raises(AssertionError, match="BOT_DRAWN"):
        check_invariants(bad)
    bad = state.copy()
    bad[S.BOT_DRAWN + 1] = S.NO_CARD
    with pytest.raises(AssertionError, match="BOT_DRAWN"):
        check_invariants(bad)
    normal = set_up("normal")
    normal[S.BOT_DRAWN + 2] += S.BOT_FACE_DOWN
    with pytest.raises(AssertionError, match="normal mode"):
        check_invariants(normal)
    env = ENVS["normal"]
    env.reset(seed=0)
    with pytest.raises(ValueError, match="VARIANT"):
        env.set_state(state)  # a hard-mode state in a normal-mode env


# -- the terminal ------------------------------------------------------------------------------------
def test_play_solo_from_the_keyboard(monkeypatch, capsys) -> None:
    def first_legal(prompt: str) -> str:
        return prompt.split("(")[1].split(",")[0].split(" ")[0]

    monkeypatch.setattr(builtins, "input", first_legal)
    assert main(["play", "nakum", "--players", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "Chaak'Bot" in out and "bot score" in out and "game over" in out


def test_render_shows_only_what_the_human_sees() -> None:
    state = set_up("hard", seed=1)
    text = render.render_ansi(state, viewer=HUMAN, colour=False)
    assert "Chaak'Bot (hard mode)" in text and text.count("face down") >= 2
    card = chaakbot.drawn_card(state, 1)
    assert render.bot_card_words(card, int(state[S.BOT_ORIENT + card])) not in text
    assert render.render_rgb(state).ndim == 3
