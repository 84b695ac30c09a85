"""Rules tests for Treasures of Nakbe (Temple side): the rulebook's Examples 1-6 and the rules
around them, each set up through the named offsets of nakbe_env.state and checked against the
outcome the rulebook states.

Board used (nakbe_env.data, assumed layout): track 1..47, exit beyond 47;
treasures 3 5 8 12 16 18 21 25 28 33 35 42 45; traps 6 14 23 31 40; lightless 7 15 22.
"""

import numpy as np
import pytest
from numba import njit

from nakbe_env import batch, data, kernels
from nakbe_env.bots import heuristic_action
from nakbe_env.env import GAME, raw_env
from nakbe_env.state import (
    BOX_TOKENS,
    DIE,
    END_CONDITIONS,
    END_EXIT,
    END_LAST_ONE,
    END_LIGHTLESS,
    END_NONE,
    EVENT_CATCH,
    EVENT_EXIT,
    EVENT_PASSAGE,
    EVENT_PASSAGE_CATCH,
    EVENT_ROUND_END,
    EVENT_SNAKES,
    EVENT_TRAP,
    EVENT_TREASURE,
    EXITED,
    EXPLORER_DARK,
    EXPLORER_POS,
    EXPLORER_SLOT,
    GUARDIAN_POS,
    LAST_CAUGHT,
    LAST_EVENTS,
    LAST_TO,
    MOVES_BY_SEAT,
    N_ACTIONS,
    NO_MOVE,
    NO_SLOT,
    NO_TOKEN,
    NOBODY,
    OFF_BOARD,
    ROUND,
    SIDE,
    SNAKES_WAITING,
    SPACE_TOKEN,
    STATE_SIZE,
    TEAM_CARD,
    TOKEN_KINDS,
    TOKEN_VALUE_COUNTS,
    TRAP_FROM_CHAMBER,
    TRAP_FROM_ROOM,
    TRAP_ORIGIN,
)
from nakbe_env.state import GUARDIAN_START as GUARDIAN_ROOM
from nakbe_env.state import START as CHAMBER
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, REWARD_WIN_LOSS, TERMINAL

END_CONDITION = END_CONDITIONS + data.TEMPLE  # these tests play the temple side
TEMPLE_FLAGS = data.SPACE_FLAGS[data.TEMPLE]
NAMES = data.EXPLORER_NAMES
IDX = {name: i for i, name in enumerate(NAMES)}
FACES = (1, 2, 3, 4, 6)


# -- helpers -----------------------------------------------------------------------------
def slot_index(value: int) -> int:
    """Index into SLOT_VALUES of the scoring slot worth `value` points."""
    matches = np.flatnonzero(data.SLOT_VALUES == value)
    assert matches.size == 1, f"no scoring slot worth {value}"
    return int(matches[0])


def fresh(
    num_players: int = 4,
    seed: int = 0,
    reward_mode: int = REWARD_WIN_LOSS,
    trap_origin: int = TRAP_FROM_CHAMBER,
) -> np.ndarray:
    state = np.zeros(STATE_SIZE, np.int32)
    # header; side, campaign, features, trap origin
    params = [num_players, reward_mode, data.TEMPLE, 0, 0, trap_origin]
    kernels.init(state, np.array(params, np.int32), seed)
    return state


def build(
    *,
    board: dict[str, int],
    guardian: int,
    die: int,
    dark: tuple[str, ...] = (),
    slots: dict[str, int] | None = None,
    tokens: dict[int, int] | None = None,
    player: int = 0,
    num_players: int = 4,
    seed: int = 0,
) -> np.ndarray:
    """A position: `board` maps every explorer still in the temple to its space (CHAMBER or a
    track space), `dark` names those on the dark side, `slots` maps every explorer already
    off the board to the points of its scoring slot. A treasure space an explorer stands on has
    lost its token (that explorer's mover took it); `tokens` sets chosen token values."""
    slots = slots or {}
    assert set(board) | set(slots) == set(NAMES) and not set(board) & set(slots)
    assert set(dark) <= set(board)
    state = fresh(num_players, seed)
    for name, space in board.items():
        e = IDX[name]
        assert space == CHAMBER or 1 <= space <= data.TEMPLE_TRACK_LENGTH
        assert not (space == CHAMBER and name in dark), "the chamber has no dark side"
        assert not (space != CHAMBER and TEMPLE_FLAGS[space] & data.TRAP), "nobody stays on a trap"
        lightless = space != CHAMBER and TEMPLE_FLAGS[space] & data.LIGHTLESS
        assert not (lightless and name not in dark), "a lightless space has no light side"
        state[EXPLORER_POS + e] = space
        state[EXPLORER_DARK + e] = 1 if name in dark else 0
        state[EXPLORER_SLOT + e] = NO_SLOT
        if space != CHAMBER:
            state[SPACE_TOKEN + space] = NO_TOKEN
    for name, value in slots.items():
        e = IDX[name]
        state[EXPLORER_POS + e] = OFF_BOARD
        state[EXPLORER_DARK + e] = 0
        state[EXPLORER_SLOT + e] = slot_index(value)
    for space, value in (tokens or {}).items():
        assert TEMPLE_FLAGS[space] & data.TREASURE
        state[SPACE_TOKEN + space] = value
    state[GUARDIAN_POS] = guardian
    state[DIE] = die
    state[CURRENT_PLAYER] = player
    return state


def pos(state: np.ndarray, name: str) -> int:
    return int(state[EXPLORER_POS + IDX[name]])


def is_dark(state: np.ndarray, name: str) -> bool:
    return bool(state[EXPLORER_DARK + IDX[name]])


def slot_value(state: np.ndarray, name: str) -> int | None:
    slot = int(state[EXPLORER_SLOT + IDX[name]])
    return None if slot == NO_SLOT else int(data.SLOT_VALUES[slot])


def all_slot_values(state: np.ndarray) -> dict[str, int | None]:
    return {name: slot_value(state, name) for name in NAMES}


def legal(state: np.ndarray) -> set[str]:
    """The explorers the player to act may move (empty when "no move" is its only action)."""
    mask = np.zeros(N_ACTIONS, np.int8)
    count = kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask)
    names = {NAMES[e] for e in range(data.NUM_EXPLORERS) if mask[e]}
    assert count == len(names) + mask[NO_MOVE] and not (names and mask[NO_MOVE])
    return names


def held(state: np.ndarray, seat: int) -> np.ndarray:
    start = TOKEN_VALUE_COUNTS + seat * TOKEN_KINDS
    return state[start : start + TOKEN_KINDS].copy()


def move(state: np.ndarray, name: str) -> None:
    """Play explorer `name` with the die showing; it must be a legal move."""
    assert name in legal(state), f"{name} may not move with a {state[DIE]}"
    kernels.step(state, IDX[name])


def events(state: np.ndarray) -> int:
    return int(state[LAST_EVENTS])


def final_scores(state: np.ndarray) -> tuple[list[int], list[int]]:
    n = int(state[NUM_PLAYERS])
    points = np.zeros(n, np.int64)
    tiebreaks = np.zeros(n, np.int64)
    kernels.scores(state, points, tiebreaks)
    return [int(x) for x in points], [int(x) for x in tiebreaks]


def final_returns(state: np.ndarray) -> list[float]:
    out = np.zeros(int(state[NUM_PLAYERS]), np.float64)
    batch.returns(state, out)
    return [float(x) for x in out]


# -- Example 1: a roll of 4 -------------------------------------------------------------------
# Guardian in the Treasure Chamber. Dark: Yellow 1, Green 2, Blue 4. Light: Purple 11, Brown 12,
# Red 19, Black 24. A = 28 (Black), B = 16 (Brown; Purple skips Brown), C = trap 23 (Red), then
# from the chamber 3 steps skipping 1, 2, 4 (occupied) and 6 (trap): 3, 5, D = 7.
EXAMPLE_1 = dict(
    board={"yellow": 1, "green": 2, "blue": 4, "purple": 11, "brown": 12, "red": 19, "black": 24},
    dark=("yellow", "green", "blue"),
    guardian=CHAMBER,
    die=4,
    tokens={16: 2, 28: 3},
)


def test_example_1_only_light_explorers_may_move_with_a_4():
    state = build(**EXAMPLE_1)
    assert legal(state) == {"black", "brown", "purple", "red"}


@pytest.mark.parametrize(
    "mover, target, trapped, token",
    [
        pytest.param("black", 28, False, 3, id="black-to-A"),
        pytest.param("brown", 16, False, 2, id="brown-to-B"),
        pytest.param("purple", 16, False, 2, id="purple-skips-brown-to-B"),
        pytest.param("red", 7, True, None, id="red-trap-C-to-D"),
    ],
)
def test_example_1_moves(mover, target, trapped, token):
    state = build(**EXAMPLE_1)
    before = state.copy()
    move(state, mover)
    assert pos(state, mover) == target
    assert int(state[LAST_TO]) == target
    assert is_dark(state, mover), "the moved explorer ends on the dark side"
    for name in NAMES:
        if name != mover:
            assert pos(state, name) == pos(before, name) and is_dark(state, name) == is_dark(before, name)
    assert bool(events(state) & EVENT_TRAP) == trapped
    gained = held(state, 0) - held(before, 0)
    if token is None:
        assert not events(state) & EVENT_TREASURE
        assert (gained == 0).all()
    else:
        assert events(state) & EVENT_TREASURE
        assert state[SPACE_TOKEN + target] == NO_TOKEN
        assert gained.tolist() == [1 if v == token else 0 for v in range(TOKEN_KINDS)]
    # Light explorers remain, so the round goes on: the Guardian stays in the chamber.
    assert state[GUARDIAN_POS] == CHAMBER and state[ROUND] == before[ROUND]
    assert not events(state) & EVENT_ROUND_END
    assert state[CURRENT_PLAYER] == 1


# -- Example 2: a roll of 2 -------------------------------------------------------------------
# Guardian on 9. Purple 10, Red 11, Yellow 13, Green 15, Brown 19, Blue 26 all dark; Black 34
# light. A = 21 (Brown), B = 16 (Yellow, skipping Green on 15), C = trap 14 (Red skips Yellow on
# 13; Purple skips Red and Yellow). From the Guardian's space 9, three steps skipping occupied
# spaces and the trap 14 end on B = 16, whichever of Red and Purple was trapped.
EXAMPLE_2 = dict(
    board={"purple": 10, "red": 11, "yellow": 13, "green": 15, "brown": 19, "blue": 26, "black": 34},
    dark=("purple", "red", "yellow", "green", "brown", "blue"),
    guardian=9,
    die=2,
    tokens={16: 1, 21: 2},
)


def test_example_2_a_2_moves_dark_explorers_too():
    state = build(**EXAMPLE_2)
    assert legal(state) == set(NAMES)
    state[DIE] = 4
    assert legal(state) == {"black"}


@pytest.mark.parametrize(
    "mover, target, trapped, token",
    [
        pytest.param("brown", 21, False, 2, id="brown-to-A"),
        pytest.param("yellow", 16, False, 1, id="yellow-to-B"),
        pytest.param("red", 16, True, 1, id="red-trap-C-to-B"),
        pytest.param("purple", 16, True, 1, id="purple-trap-C-to-B"),
    ],
)
def test_example_2_moves(mover, target, trapped, token):
    state = build(**EXAMPLE_2, player=3)
    before = state.copy()
    move(state, mover)
    assert pos(state, mover) == target
    assert is_dark(state, mover)
    assert bool(events(state) & EVENT_TRAP) == trapped
    assert events(state) & EVENT_TREASURE
    assert state[SPACE_TOKEN + target] == NO_TOKEN
    gained = held(state, 3) - held(before, 3)
    assert gained.tolist() == [1 if v == token else 0 for v in range(TOKEN_KINDS)]
    assert state[GUARDIAN_POS] == 9
    assert state[CURRENT_PLAYER] == 0  # seat 3 of 4: the next seat is 0


# -- Example 3: the end of a round --------------------------------------------------------------
# Green, Blue, Black hold the slots 1, 2, 3. Guardian on 10, Purple 12 (the Guardian's second
# space), Brown 16, Yellow 22 (lightless), all dark; Red 26 light moves 1 to 27 and the round ends.
def test_example_3_guardian_catches_the_first_explorer_it_meets():
    state = build(
        board={"purple": 12, "brown": 16, "yellow": 22, "red": 26},
        dark=("purple", "brown", "yellow"),
        slots={"green": 1, "blue": 2, "black": 3},
        guardian=10,
        die=1,
    )
    move(state, "red")
    assert events(state) & EVENT_ROUND_END and events(state) & EVENT_CATCH
    assert state[GUARDIAN_POS] == 12, "the Guardian stops on Purple's space instead of moving 5"
    assert pos(state, "purple") == OFF_BOARD
    assert slot_value(state, "purple") == 4, "the lowest empty slot"
    assert state[LAST_CAUGHT] == IDX["purple"]
    assert (pos(state, "red"), pos(state, "brown"), pos(state, "yellow")) == (27, 16, 22)
    assert not is_dark(state, "red") and not is_dark(state, "brown")
    assert is_dark(state, "yellow"), "a lightless space has no light side"
    assert state[ROUND] == 2
    assert state[TERMINAL] == 0 and state[END_CONDITION] == END_NONE
    assert all_slot_values(state) == {
        "red": None,
        "yellow": None,
        "green": 1,
        "blue": 2,
        "purple": 4,
        "brown": None,
        "black": 3,
    }


# -- Example 4: an explorer exits ----------------------------------------------------------------
# Green, Blue, Purple, Black hold 1 to 4. Yellow 39, Brown 44, Red 46. Brown rolls 4: 45, (Red's 46
# skipped), 47, then beyond the last space.
def test_example_4_exit_ends_the_game_and_ranks_the_rest_from_the_exit():
    state = build(
        board={"yellow": 39, "brown": 44, "red": 46},
        dark=("yellow", "red"),
        slots={"green": 1, "blue": 2, "purple": 3, "black": 4},
        guardian=30,
        die=4,
        tokens={45: 3},
    )
    before = state.copy()
    move(state, "brown")
    assert events(state) & EVENT_EXIT
    assert state[LAST_TO] == EXITED
    assert state[TERMINAL] == 1 and state[END_CONDITION] == END_EXIT
    assert slot_value(state, "brown") == 8
    assert slot_value(state, "red") == 6
    assert slot_value(state, "yellow") == 5
    assert all(pos(state, name) == OFF_BOARD for name in NAMES)
    assert sorted(all_slot_values(state).values()) == [1, 2, 3, 4, 5, 6, 8]
    # Brown only passed the treasure on 45.
    assert state[SPACE_TOKEN + 45] == 3 and (held(state, 0) == held(before, 0)).all()


# -- Example 5: end condition C ------------------------------------------------------------------
# Red, Yellow, Brown, Black hold 1 to 4. Green 7 and Purple 15 (lightless, dark); Blue 20 moves
# 2 onto the lightless 22: every remaining explorer is on a lightless space.
def test_example_5_all_on_lightless_spaces_the_guardian_catches_from_the_back():
    state = build(
        board={"green": 7, "purple": 15, "blue": 20},
        dark=("green", "purple"),
        slots={"red": 1, "yellow": 2, "brown": 3, "black": 4},
        guardian=5,
        die=2,
    )
    move(state, "blue")
    assert state[TERMINAL] == 1 and state[END_CONDITION] == END_LIGHTLESS
    assert slot_value(state, "green") == 5
    assert slot_value(state, "purple") == 6
    assert slot_value(state, "blue") == 8
    assert all(pos(state, name) == OFF_BOARD for name in NAMES)
    assert state[GUARDIAN_POS] == 15, "the Guardian walked to Purple, the last one it caught"
    # The game ends at once: no round end, no Guardian move of 5 first.
    assert not events(state) & EVENT_ROUND_END and state[ROUND] == 1
    assert events(state) & EVENT_CATCH and state[LAST_CAUGHT] == IDX["purple"]


def test_end_condition_c_after_a_round_end_catch():
    # Red, Yellow, Brown hold 1 to 3. Black 4 (not lightless) is the Guardian's prey; after the
    # catch, Green 7, Purple 15 and Blue 22 are all on lightless spaces: the game ends at once.
    state = build(
        board={"black": 4, "green": 7, "purple": 15, "blue": 20},
        dark=("black", "green", "purple"),
        slots={"red": 1, "yellow": 2, "brown": 3},
        guardian=2,
        die=2,
    )
    move(state, "blue")
    assert events(state) & EVENT_ROUND_END and events(state) & EVENT_CATCH
    assert state[TERMINAL] == 1 and state[END_CONDITION] == END_LIGHTLESS
    assert all_slot_values(state) == {
        "red": 1,
        "yellow": 2,
        "green": 5,
        "blue": 8,
        "purple": 6,
        "brown": 3,
        "black": 4,
    }


# -- Example 6: scoring ----------------------------------------------------------------------------
def finished(slot_points: dict[str, int], num_players: int, cards: list[int], tokens: list[list[int]]):
    """A finished game: every explorer on the slot worth slot_points[name], seat p holds team
    card cards[p] and the token values tokens[p]."""
    state = build(board={}, slots=slot_points, guardian=30, die=0, num_players=num_players)
    state[TERMINAL] = 1
    state[END_CONDITION] = END_EXIT
    # The unused cards stay in the box, in the seats past the players.
    box = [c for c in range(data.MAX_PLAYERS) if c not in cards]
    state[TEAM_CARD : TEAM_CARD + data.MAX_PLAYERS] = list(cards) + box
    state[TOKEN_VALUE_COUNTS : TOKEN_VALUE_COUNTS + data.MAX_PLAYERS * TOKEN_KINDS] = 0
    for seat, values in enumerate(tokens):
        for value in values:
            state[TOKEN_VALUE_COUNTS + seat * TOKEN_KINDS + value] += 1
    return state


def team(card: int) -> list[str]:
    return [NAMES[e] for e in data.TEAM_CARDS[card]]


def test_example_6_team_slots_plus_treasures():
    """ "EXAMPLE 6: Yellow, Blue, and Purple were in your Team. You also collected 3 Treasure
    Tokens with total values of 3 (0 + 1 + 2). You score 21 (4 + 6 + 8 + 3) victory points."
    That team is card 0, on the slots 4, 6 and 8."""
    card = 0
    assert sorted(team(card)) == ["blue", "purple", "yellow"]
    slot_points = {"yellow": 4, "blue": 6, "purple": 8, "red": 1, "green": 2, "brown": 3, "black": 5}
    state = finished(slot_points, 4, [card, 1, 2, 3], [[0, 1, 2], [1], [], [3]])
    points, tiebreaks = final_scores(state)
    assert points[0] == 21 and tiebreaks[0] == 3
    for seat, own in ((1, 1), (2, 0), (3, 3)):
        expected = sum(slot_points[name] for name in team(int(state[TEAM_CARD + seat]))) + own
        assert points[seat] == expected and tiebreaks[seat] == own


# Two players: seat 0 holds card 0 (purple, yellow, blue), seat 1 card 4 (yellow, green, black);
# they share Yellow.
@pytest.mark.parametrize(
    "slot_points, tokens, expected_points, expected_returns",
    [
        pytest.param(
            {"purple": 1, "yellow": 8, "green": 2, "blue": 6, "red": 5, "brown": 4, "black": 3},
            [[1], [3]],
            [16, 16],
            [-1.0, 1.0],
            id="tie-more-treasure-wins",
        ),
        pytest.param(
            {"purple": 1, "yellow": 8, "green": 2, "blue": 6, "red": 5, "brown": 4, "black": 3},
            [[3], [1]],
            [18, 14],
            [1.0, -1.0],
            id="higher-total-wins",
        ),
        pytest.param(
            {"purple": 3, "yellow": 2, "green": 6, "blue": 8, "red": 5, "brown": 4, "black": 1},
            [[0], [1, 1, 1]],
            [13, 12],
            [1.0, -1.0],
            id="higher-total-beats-more-treasure",
        ),
        pytest.param(
            {"purple": 1, "yellow": 8, "green": 2, "blue": 5, "red": 6, "brown": 3, "black": 4},
            [[2], [1, 1]],
            [16, 16],
            [1.0, 1.0],
            id="full-tie-shared-victory",
        ),
    ],
)
def test_winner_and_tie_break(slot_points, tokens, expected_points, expected_returns):
    state = finished(slot_points, 2, [0, 4], tokens)
    points, _ = final_scores(state)
    assert points == expected_points
    assert final_returns(state) == expected_returns


def test_tie_among_three_shares_victory_and_the_rest_lose():
    # Cards 0 (purple, yellow, blue), 4 (yellow, green, black), 5 (green, blue, red): team
    # points 11, 11, 15; treasures 5, 5, 0 -> 16, 16, 15, the two leaders tied on treasure too.
    slot_points = {"purple": 2, "yellow": 1, "green": 4, "blue": 8, "red": 3, "brown": 5, "black": 6}
    state = finished(slot_points, 3, [0, 4, 5], [[2, 3], [1, 1, 3], []])
    points, tiebreaks = final_scores(state)
    assert points == [16, 16, 15] and tiebreaks == [5, 5, 0]
    assert final_returns(state) == [1.0, 1.0, -1.0]


def test_team_cards_hold_both_example_teams_and_each_explorer_three_times():
    """ "Some explorers may be part of more than one team": the 7 cards hold Example 6's team
    (Yellow, Blue, Purple) and Example 7's (Red, Brown, Black), which share nobody; every
    explorer is on 3 cards; of the 21 pairs of cards 17 share one explorer, 2 two, 2 none."""
    cards = [frozenset(int(e) for e in card) for card in data.TEAM_CARDS]
    assert len(set(cards)) == 7 and all(len(card) == 3 for card in cards)
    assert cards[0] == {IDX["yellow"], IDX["blue"], IDX["purple"]}
    assert cards[1] == {IDX["red"], IDX["brown"], IDX["black"]}
    assert all(sum(e in card for card in cards) == 3 for e in range(data.NUM_EXPLORERS))
    overlaps = [len(a & b) for i, a in enumerate(cards) for b in cards[i + 1 :]]
    assert sorted(overlaps).count(1) == 17 and overlaps.count(2) == 2 and overlaps.count(0) == 2


@njit(cache=True)
def play_many(params, games, use_bot, seed, out):
    """`games` whole games from kernels.init (seeds seed, seed + 1, ...), every seat random
    (a fixed hash of seed, game and step) or the scripted bot (salted per game and seat).
    out[g]: end condition, round the snakes struck (0: never), passage uses forward and back,
    passage catches forward and back."""
    state = np.zeros(STATE_SIZE, np.int32)
    mask = np.zeros(N_ACTIONS, np.int8)
    low = data.JUNGLE_PASSAGE[0]
    for g in range(games):
        kernels.init(state, params, seed + g)
        step = 0
        while state[TERMINAL] == 0:
            player = state[CURRENT_PLAYER]
            if use_bot:
                action = heuristic_action(state, player, (seed + g) * 8 + player)
            else:
                count = kernels.legal_mask(state, player, mask)
                pick = (
                    np.uint64(seed * 1_000_003 + g) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(step)
                ) >> np.uint64(7)
                pick = int(pick % np.uint64(count))
                action = -1
                for a in range(N_ACTIONS):
                    if mask[a]:
                        if pick == 0:
                            action = a
                            break
                        pick -= 1
            snakes_waiting = state[SNAKES_WAITING]
            round_now = state[ROUND]
            kernels.step(state, action)
            step += 1
            events = state[LAST_EVENTS]
            if snakes_waiting and events & EVENT_SNAKES:
                out[g, 1] = round_now
            if events & EVENT_PASSAGE:
                back = 0 if state[LAST_TO] == low else 1
                out[g, 2 + back] += 1
                if events & EVENT_PASSAGE_CATCH:
                    out[g, 4 + back] += 1
        out[g, 0] = state[END_CONDITIONS + state[SIDE]]


def many_games(side: int, games: int, use_bot: bool, seed: int = 0) -> np.ndarray:
    jungle = side == data.JUNGLE  # on the Jungle side every feature is on
    options = {"num_players": 4, "board": "jungle" if jungle else "temple", "trap_origin": "chamber"}
    options.update(river=jungle, secret_passage=jungle, snakes=jungle)
    params = GAME.make_params(GAME.validate(options))
    out = np.zeros((games, 6), np.int64)
    play_many(params, games, use_bot, seed, out)
    return out


@pytest.mark.parametrize("use_bot", [False, True], ids=["random", "bot"])
def test_end_c_is_highly_unlikely(use_bot):
    """ "C. All Remaining Explorers Are On A Lightless Space: This is highly unlikely": under 1%
    of 2,000 four-player Temple games, random or scripted (docs: The Temple board layout)."""
    ends = many_games(data.TEMPLE, 2000, use_bot)[:, 0]
    assert set(np.unique(ends)) <= {END_EXIT, END_LAST_ONE, END_LIGHTLESS}
    assert (ends == END_LIGHTLESS).mean() < 0.01
    assert (ends == END_EXIT).mean() > 0.2 and (ends == END_LAST_ONE).mean() > 0.2


# -- the die -----------------------------------------------------------------------------------
def test_die_faces_are_1_2_2_3_4_6():
    draws = 12_000
    rolls = np.array([fresh(seed=seed)[DIE] for seed in range(draws)])
    values, counts = np.unique(rolls, return_counts=True)
    assert values.tolist() == list(FACES)
    frequencies = dict(zip(values.tolist(), (counts / draws).tolist(), strict=True))
    expected = {1: 1 / 6, 2: 2 / 6, 3: 1 / 6, 4: 1 / 6, 6: 1 / 6}
    for face, p in expected.items():
        assert abs(frequencies[face] - p) < 0.015, (face, frequencies[face])


# -- treasures and traps -------------------------------------------------------------------------
def test_treasure_goes_to_the_player_who_moved_even_for_another_team():
    state = fresh(num_players=4, seed=7)
    seat = 2
    own_team = set(team(int(state[TEAM_CARD + seat])))
    strangers = [name for name in NAMES if name not in own_team]
    assert len(strangers) == 4
    for mover in strangers:
        # The stranger stands on 30 (light), the others in the chamber; a 3 ends on treasure 33.
        board = {name: CHAMBER for name in NAMES} | {mover: 30}
        state = build(board=board, guardian=GUARDIAN_ROOM, die=3, tokens={33: 3}, player=seat, seed=7)
        assert set(team(int(state[TEAM_CARD + seat]))) == own_team
        before = state.copy()
        move(state, mover)
        assert pos(state, mover) == 33
        assert state[SPACE_TOKEN + 33] == NO_TOKEN
        assert events(state) & EVENT_TREASURE
        assert (held(state, seat) - held(before, seat)).tolist() == [0, 0, 0, 1]
        for other in range(4):
            if other != seat:
                assert (held(state, other) == held(before, other)).all()


@pytest.mark.parametrize(
    "others",
    [
        pytest.param(CHAMBER, id="others-in-chamber"),
        pytest.param(None, id="chamber-empty"),
    ],
)
def test_trap_while_the_guardian_is_in_its_room_restarts_from_the_chamber(others):
    # Red on 2 rolls 4 onto the trap 6; the Guardian has not left its room, so Red restarts in
    # the Treasure Chamber and counts 3 track spaces: 1 (Yellow, skipped), 2, 3, 4. The chamber
    # itself is never one of the 3 steps, whether explorers are still in it or not.
    if others == CHAMBER:
        rest = {name: CHAMBER for name in ("green", "blue", "purple", "brown", "black")}
    else:
        rest = {"green": 9, "blue": 10, "purple": 12, "brown": 13, "black": 17}
    board = {"red": 2, "yellow": 1} | rest
    dark = ("yellow",) if others == CHAMBER else ("yellow", "green", "blue", "purple", "brown")  # Black light
    state = build(board=board, dark=dark, guardian=GUARDIAN_ROOM, die=4, tokens={3: 1})
    move(state, "red")
    assert events(state) & EVENT_TRAP
    assert pos(state, "red") == 4 and is_dark(state, "red")
    assert state[SPACE_TOKEN + 3] == 1, "Red passed treasure 3 without stopping"
    assert state[GUARDIAN_POS] == GUARDIAN_ROOM and not events(state) & EVENT_ROUND_END
    assert all(slot_value(state, name) is None for name in NAMES)


@pytest.mark.parametrize(
    "others", [pytest.param(CHAMBER, id="others-in-chamber"), pytest.param(None, id="chamber-empty")]
)
def test_trap_origin_room_counts_from_the_guardians_room_with_the_chamber_as_the_first_step(others):
    # "Place the Explorer back on the space occupied by the Guardian, then move the Explorer
    # forward by 3 spaces": read literally while the Guardian is still in its Room
    # (trap_origin="room"), Red restarts in the Room and counts the chamber (never skipped: it
    # holds any number of explorers), 1 (Yellow, skipped), 2 (Red's own space, free now), 3.
    if others == CHAMBER:
        rest = {name: CHAMBER for name in ("green", "blue", "purple", "brown", "black")}
    else:
        rest = {"green": 9, "blue": 10, "purple": 12, "brown": 13, "black": 17}
    board = {"red": 2, "yellow": 1} | rest
    dark = ("yellow",) if others == CHAMBER else ("yellow", "green", "blue", "purple", "brown")
    chamber_reading = build(board=board, dark=dark, guardian=GUARDIAN_ROOM, die=4, tokens={3: 1})
    state = chamber_reading.copy()
    state[TRAP_ORIGIN] = TRAP_FROM_ROOM
    before = state.copy()
    move(state, "red")
    assert events(state) & EVENT_TRAP and events(state) & EVENT_TREASURE
    assert pos(state, "red") == 3 and is_dark(state, "red")
    assert (held(state, 0) - held(before, 0)).tolist() == [0, 1, 0, 0], "Red's mover took the 1 on 3"
    move(chamber_reading, "red")
    assert pos(chamber_reading, "red") == 4, "the default reading counts 3 track spaces from the chamber"
    # Once the Guardian is on the track both readings agree: 3 forward from its space.
    on_track = build(board=board, dark=dark, guardian=CHAMBER, die=4, tokens={3: 1})
    on_track[TRAP_ORIGIN] = TRAP_FROM_ROOM
    move(on_track, "red")
    assert pos(on_track, "red") == 4


def test_trap_origin_is_an_option_and_both_readings_fill_the_state():
    for origin, value in (("chamber", TRAP_FROM_CHAMBER), ("room", TRAP_FROM_ROOM)):
        game = raw_env(trap_origin=origin)
        game.reset(seed=0)
        assert game.get_state()[TRAP_ORIGIN] == value
    with pytest.raises(ValueError, match="trap_origin"):
        raw_env(trap_origin="guardian")


def test_trap_reroute_can_exit_the_temple():
    # Guardian on 38; Red on 39 rolls 1 onto the trap 40. From 38: 39 (Red's own space, now
    # free), 40 (trap, not counted), 41-46 occupied, 47, then beyond the exit.
    board = {"red": 39, "yellow": 41, "green": 42, "blue": 43, "purple": 44, "brown": 45, "black": 46}
    state = build(
        board=board, dark=("yellow", "green", "blue", "purple", "brown", "black"), guardian=38, die=1
    )
    move(state, "red")
    assert events(state) & EVENT_TRAP and events(state) & EVENT_EXIT
    assert state[LAST_TO] == EXITED
    assert state[TERMINAL] == 1 and state[END_CONDITION] == END_EXIT
    ranking = ["red", "black", "brown", "purple", "blue", "green", "yellow"]
    assert [slot_value(state, name) for name in ranking] == [8, 6, 5, 4, 3, 2, 1]


def test_trap_from_a_guardian_on_the_track():
    # Guardian on 30; Red on 39 rolls 1 onto the trap 40, goes back to 30 and moves 3 skipping the
    # trap 31 and Blue on 33: 32, 34, 35.
    board = {"red": 39, "blue": 33, "green": 44, "yellow": 45, "purple": 46, "brown": 47, "black": 37}
    state = build(board=board, dark=("blue",), guardian=30, die=1, tokens={35: 2})
    before = state.copy()
    move(state, "red")
    assert events(state) & EVENT_TRAP and events(state) & EVENT_TREASURE
    assert pos(state, "red") == 35 and is_dark(state, "red")
    assert state[SPACE_TOKEN + 35] == NO_TOKEN
    assert (held(state, 0) - held(before, 0)).tolist() == [0, 0, 1, 0]
    assert state[GUARDIAN_POS] == 30


# -- moving ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("die, target", [(1, 34), (3, 37), (4, 38)])
def test_a_move_skips_occupied_spaces(die, target):
    # Red on 32; Yellow on 33 and Green on 35 (dark) are skipped, not counted.
    board = {name: CHAMBER for name in NAMES} | {"red": 32, "yellow": 33, "green": 35}
    state = build(board=board, dark=("yellow", "green"), guardian=GUARDIAN_ROOM, die=die)
    move(state, "red")
    assert pos(state, "red") == target
    assert (pos(state, "yellow"), pos(state, "green")) == (33, 35)


def test_the_chamber_is_not_an_occupied_space_and_holds_everyone():
    # All seven start in the chamber; a 1 from the chamber skips Yellow on 1 and Green on 2.
    state = fresh(seed=3)
    assert all(pos(state, name) == CHAMBER for name in NAMES)
    assert state[GUARDIAN_POS] == GUARDIAN_ROOM
    assert legal(state) == set(NAMES)
    board = {name: CHAMBER for name in NAMES} | {"yellow": 1, "green": 2}
    state = build(board=board, dark=("yellow", "green"), guardian=GUARDIAN_ROOM, die=1)
    move(state, "red")
    assert pos(state, "red") == 3
    state[DIE] = 1
    move(state, "blue")
    assert pos(state, "blue") == 4, "explorers in the chamber do not block each other"


@pytest.mark.parametrize(
    "mover, die, ranking",
    [
        # Red 45, Yellow 46, Green 47, Blue 30, Purple 20, Brown 10, Black 3.
        pytest.param(
            "red", 1, ["red", "green", "yellow", "blue", "purple", "brown", "black"], id="skips-to-exit"
        ),
        pytest.param(
            "yellow", 6, ["yellow", "green", "red", "blue", "purple", "brown", "black"], id="steps-left"
        ),
        pytest.param(
            "green", 4, ["green", "yellow", "red", "blue", "purple", "brown", "black"], id="from-47"
        ),
    ],
)
def test_moving_past_the_last_space_exits(mover, die, ranking):
    board = {"red": 45, "yellow": 46, "green": 47, "blue": 30, "purple": 20, "brown": 10, "black": 3}
    state = build(board=board, guardian=CHAMBER, die=die)
    move(state, mover)
    assert events(state) & EVENT_EXIT and state[LAST_TO] == EXITED
    assert state[TERMINAL] == 1 and state[END_CONDITION] == END_EXIT
    assert [slot_value(state, name) for name in ranking] == [8, 6, 5, 4, 3, 2, 1]


# -- the end of a round and of the game ---------------------------------------------------------------
def test_end_condition_b_the_last_explorer_gets_the_8():
    # Red..Purple hold 1 to 5. Guardian on 20, Brown 22 (dark), Black 36 rolls 1 to 37: the round
    # ends, the Guardian catches Brown (6) and Black, alone in the temple, takes the 8.
    state = build(
        board={"brown": 22, "black": 36},
        dark=("brown",),
        slots={"red": 1, "yellow": 2, "green": 3, "blue": 4, "purple": 5},
        guardian=20,
        die=1,
    )
    move(state, "black")
    assert events(state) & EVENT_CATCH and state[LAST_CAUGHT] == IDX["brown"]
    assert state[GUARDIAN_POS] == 22
    assert state[TERMINAL] == 1 and state[END_CONDITION] == END_LAST_ONE
    assert slot_value(state, "brown") == 6 and slot_value(state, "black") == 8
    assert all(pos(state, name) == OFF_BOARD for name in NAMES)


def test_the_first_catch_takes_the_1():
    # Nobody caught yet; the Guardian leaves the chamber and meets Red on 3.
    board = {"red": 3, "yellow": 8, "green": 9, "blue": 10, "purple": 12, "brown": 13, "black": 17}
    state = build(
        board=board, dark=("red", "yellow", "green", "blue", "purple", "brown"), guardian=CHAMBER, die=1
    )
    move(state, "black")
    assert events(state) & EVENT_ROUND_END and events(state) & EVENT_CATCH
    assert state[GUARDIAN_POS] == 3
    assert all_slot_values(state) == {name: (1 if name == "red" else None) for name in NAMES}
    assert state[TERMINAL] == 0


def test_exit_ranks_the_chamber_last_ties_to_the_lower_index():
    # Red on 44 exits with a 4; Yellow on 10 is next nearest; the rest are still in the chamber.
    board = {name: CHAMBER for name in NAMES} | {"red": 44, "yellow": 10}
    state = build(board=board, guardian=GUARDIAN_ROOM, die=4)
    move(state, "red")
    assert state[TERMINAL] == 1 and state[END_CONDITION] == END_EXIT
    # The chamber explorers tie; the lower index ranks first (purple 0, green 2, blue 3, ...).
    assert all_slot_values(state) == {
        "red": 8,
        "yellow": 6,
        "purple": 5,
        "green": 4,
        "blue": 3,
        "brown": 2,
        "black": 1,
    }


def test_an_explorer_in_the_chamber_keeps_the_round_going():
    # Everyone on the track is dark after Blue's move, but Red is still in the chamber.
    board = {"red": CHAMBER, "yellow": 4, "green": 7, "blue": 9, "purple": 13, "brown": 15, "black": 17}
    state = build(
        board=board, dark=("yellow", "green", "purple", "brown", "black"), guardian=GUARDIAN_ROOM, die=1
    )
    move(state, "blue")
    assert pos(state, "blue") == 10 and is_dark(state, "blue")
    assert not events(state) & EVENT_ROUND_END
    assert state[GUARDIAN_POS] == GUARDIAN_ROOM and state[ROUND] == 1
    assert all(is_dark(state, name) for name in NAMES if name != "red")
    for die in (1, 3, 4, 6):
        state[DIE] = die
        assert legal(state) == {"red"}


def test_first_round_end_moves_the_guardian_into_the_chamber_without_a_catch():
    # Red on 1 would be caught by a Guardian moving 5 from the chamber; from its room it only
    # enters the chamber. Green on the lightless 7 stays dark.
    board = {"red": 1, "yellow": 2, "green": 7, "blue": 4, "purple": 11, "brown": 9, "black": 12}
    state = build(
        board=board, dark=("red", "yellow", "green", "blue", "purple", "brown"), guardian=GUARDIAN_ROOM, die=1
    )
    move(state, "black")
    assert pos(state, "black") == 13
    assert events(state) & EVENT_ROUND_END and not events(state) & EVENT_CATCH
    assert state[LAST_CAUGHT] == NOBODY
    assert state[GUARDIAN_POS] == CHAMBER
    assert all(slot_value(state, name) is None for name in NAMES)
    assert {name: pos(state, name) for name in NAMES} == board | {"black": 13}
    assert [name for name in NAMES if is_dark(state, name)] == ["green"]
    assert state[ROUND] == 2


def round_end_position(num_players: int, player: int, seed: int) -> np.ndarray:
    board = {"red": 1, "yellow": 2, "green": 7, "blue": 4, "purple": 11, "brown": 9, "black": 12}
    dark = ("red", "yellow", "green", "blue", "purple", "brown")
    return build(
        board=board,
        dark=dark,
        guardian=GUARDIAN_ROOM,
        die=1,
        player=player,
        num_players=num_players,
        seed=seed,
    )


@pytest.mark.parametrize("num_players, player", [(2, 1), (3, 0), (3, 2), (4, 3), (7, 5), (7, 6)])
def test_after_a_round_end_the_next_seat_plays_with_a_fresh_roll(num_players, player):
    faces = set()
    for seed in range(60):
        state = round_end_position(num_players, player, seed)
        move(state, "black")
        assert events(state) & EVENT_ROUND_END
        assert state[CURRENT_PLAYER] == (player + 1) % num_players
        assert state[TERMINAL] == 0
        faces.add(int(state[DIE]))
        assert legal(state), "the next player can move"
    assert faces == set(FACES), "the die is rolled afresh for the next player"


def test_after_the_end_terminal_is_set_and_nothing_is_legal():
    board = {"red": 45, "yellow": 46, "green": 47, "blue": 30, "purple": 20, "brown": 10, "black": 3}
    state = build(board=board, guardian=CHAMBER, die=4)
    move(state, "green")
    assert state[TERMINAL] == 1 and state[DIE] == 0
    mask = np.ones(data.NUM_EXPLORERS, np.int8)
    assert kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask) == 0
    assert not mask.any()
    for die in FACES:  # whatever the die field holds
        state[DIE] = die
        assert kernels.legal_mask(state, int(state[CURRENT_PLAYER]), mask) == 0 and not mask.any()


@pytest.mark.parametrize("seed", range(8))
def test_random_games_end_with_every_slot_assigned_and_no_legal_move(seed):
    rng = np.random.default_rng(seed)
    state = fresh(num_players=2 + seed % 6, seed=seed)
    for _ in range(2000):
        if state[TERMINAL]:
            break
        options = sorted(legal(state))
        assert options
        move(state, options[rng.integers(len(options))])
    assert state[TERMINAL] == 1 and state[END_CONDITION] in (END_EXIT, END_LAST_ONE, END_LIGHTLESS)
    assert sorted(all_slot_values(state).values()) == [1, 2, 3, 4, 5, 6, 8]
    assert all(pos(state, name) == OFF_BOARD for name in NAMES)
    assert legal(state) == set()


def test_moves_by_seat_record_who_moved_which_explorer():
    state = fresh(num_players=3, seed=2)
    seat = int(state[CURRENT_PLAYER])
    explorer = IDX["green"]
    kernels.step(state, explorer)
    moves = state[MOVES_BY_SEAT : MOVES_BY_SEAT + data.MAX_PLAYERS * data.NUM_EXPLORERS]
    assert moves.sum() == 1 and moves[seat * data.NUM_EXPLORERS + explorer] == 1


def test_move_preview_describes_each_legal_move():
    from nakbe_env import observe

    start = observe.OBS["move_preview"][0]
    features = observe.PREVIEW_FEATURES
    board = {name: CHAMBER for name in NAMES} | {"red": 45, "yellow": 10, "green": 4}
    state = build(board=board, dark=("green",), guardian=CHAMBER, die=3)
    out = np.zeros(observe.OBS_SIZE, np.float32)
    observe.observe(state, 0, out)
    preview = out[start : start + data.NUM_EXPLORERS * features].reshape(data.NUM_EXPLORERS, features)
    red, yellow, green, purple = (preview[IDX[name]] for name in ("red", "yellow", "green", "purple"))
    assert red[observe.PREVIEW_EXITS] == 1 and red[observe.PREVIEW_GAIN] == 1
    # Yellow: 10 -> 13; the Guardian (on the chamber) is 13 away, so out of reach.
    assert yellow[observe.PREVIEW_GAIN] == pytest.approx(3 / 16) and yellow[observe.PREVIEW_REACH_AFTER] == 0
    assert not green.any(), "a dark explorer cannot move with a 3: no preview"
    # Purple from the chamber: 1, 2, 3 -> a treasure space, 3 ahead of the Guardian: in its reach.
    assert purple[observe.PREVIEW_GAIN] == pytest.approx(3 / 16)
    assert purple[observe.PREVIEW_TREASURE] == 1 and purple[observe.PREVIEW_REACH_AFTER] == 1
    assert purple[observe.PREVIEW_EXITS] == 0 and purple[observe.PREVIEW_CAUGHT] == 0


# -- states from outside (issue 18): refused with the field named, the env unchanged ---------
_LOADED = raw_env(num_players=4)


def _refused(state: np.ndarray, field: str, env=_LOADED) -> None:
    before = env.get_state()
    with pytest.raises(ValueError, match=field):
        env.set_state(state)
    assert np.array_equal(env.get_state(), before), "a refused state changed the env"


def _real_state(seed: int = 0, steps: int = 12, **options) -> tuple:
    env = raw_env(**options) if options else _LOADED
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        env.step(int(rng.choice(env.legal_actions())))
    return env, env.get_state()


def test_a_huge_side_is_refused_before_observe_reads_it():
    # Was: s[7] = 2**31 - 1; e.set_state(s); e.observe("player_0") -> SIGSEGV. Slot 7 is SIDE.
    env, state = _real_state()
    assert SIDE == 7
    state[SIDE] = 2**31 - 1
    _refused(state, "SIDE", env)
    env.observe("player_0")


def test_a_huge_box_count_is_refused_before_resample_hidden_reads_it():
    # Was: s[BOX_TOKENS] = 10**6, then resample_hidden(0, 1) -> SIGSEGV or a heap error.
    env, state = _real_state()
    state[BOX_TOKENS] = 10**6
    _refused(state, r"BOX_TOKENS\[0\]", env)
    env.resample_hidden(0, 1)
    state[BOX_TOKENS] = env.get_state()[BOX_TOKENS] + 1  # in range, but one token too many
    _refused(state, "tokens not conserved", env)


def test_decision_counters_near_the_int32_maximum_are_refused():
    """Issue 25: DECISIONS and the move counts are bounded (MAX_DECISIONS, far beyond any real
    game), so no hand-made state overflows them on its next step."""
    from nakbe_env.state import MAX_DECISIONS, NO_MOVES
    from treasure_core.header import DECISIONS

    env, state = _real_state()
    huge = state.copy()
    delta = 2**31 - 2 - int(state[DECISIONS])  # the sum still holds: every decision a pass
    huge[DECISIONS] += delta
    huge[NO_MOVES] += delta
    _refused(huge, "NO_MOVES", env)
    consistent = state.copy()  # every counter in range and summing up, but the total too high
    consistent[DECISIONS] = MAX_DECISIONS + 1
    consistent[NO_MOVES] += MAX_DECISIONS + 1 - int(state[DECISIONS])
    _refused(consistent, f"decisions: above {MAX_DECISIONS}", env)
    consistent[NO_MOVES] -= 1  # NO_MOVES at its bound, the sum one short: refused all the same
    _refused(consistent, "move or a pass", env)


@pytest.mark.parametrize("player", [9, -1])
def test_a_current_player_outside_the_seats_is_refused(player):
    env, state = _real_state()
    state[CURRENT_PLAYER] = player
    _refused(state, "CURRENT_PLAYER", env)


def test_the_batch_runner_refuses_an_action_outside_the_space_and_changes_no_game():
    from treasure_core.batch import BatchRunner

    runner = BatchRunner("nakbe", 3, seed=0, check_actions=False)
    before = runner.states.copy()
    with pytest.raises(ValueError):
        runner.step(np.array([100, 0, 0]))
    assert np.array_equal(runner.states, before)


def test_resample_hidden_before_reset_is_a_runtime_error():
    with pytest.raises(RuntimeError):
        raw_env().resample_hidden(0, 1)


def test_a_state_for_other_options_is_refused_naming_the_option():
    _, state = _real_state(seed=3, board="jungle")
    _refused(state, "SIDE")
    _, state = _real_state(seed=3, campaign=True)
    _refused(state, "CAMPAIGN")


def test_consistency_checks_name_what_is_wrong():
    env, base = _real_state(seed=1, steps=0, campaign=True)
    # A slot on the jungle side before the jungle game: it would survive into that game.
    state = base.copy()
    state[EXPLORER_SLOT + data.JUNGLE * data.NUM_EXPLORERS + IDX["black"]] = 6
    _refused(state, "not been played", env)
    # One slot, two explorers.
    env, base = _real_state(seed=1, steps=0)
    state = base.copy()
    for name in ("red", "blue"):
        state[EXPLORER_POS + IDX[name]] = OFF_BOARD
        state[EXPLORER_SLOT + IDX[name]] = 0
    _refused(state, "assigned twice", env)
    # A live game keeps at least two explorers on the board.
    state = base.copy()
    for e in range(data.NUM_EXPLORERS - 1):
        state[EXPLORER_POS + e] = OFF_BOARD
        state[EXPLORER_SLOT + e] = e
    _refused(state, "one explorer left", env)
    # The Guardian moves every round after the first: round 9 finds it on space 7 or beyond.
    state = base.copy()
    state[GUARDIAN_POS], state[ROUND] = CHAMBER, 9
    _refused(state, "round 9", env)
    # Over means the die shows nothing.
    state = base.copy()
    state[TERMINAL] = 1
    _refused(state, "terminal|over", env)


def test_every_real_state_is_accepted_as_it_is():
    env, _ = _real_state(seed=5, steps=0)
    rng = np.random.default_rng(5)
    while not env.is_over():
        env.set_state(env.get_state())
        env.step(int(rng.choice(env.legal_actions())))
    env.set_state(env.get_state())
