"""Invariants of a Nakum state: the rules that must hold in every reachable state, checked in
pure Python and numpy, independently of the kernels (scores are recomputed here). The
conformance suite's fuzz calls check_invariants after every step."""

from __future__ import annotations

import numpy as np

from nakum_env import cenote, data, kernels
from nakum_env.state import (
    AVAILABLE,
    BOT_ACTED,
    BOT_DECK,
    BOT_DECK_COUNT,
    BOT_DRAWN,
    BOT_FACE_DOWN,
    BOT_MARK,
    BOT_ORIENT,
    CENOTE,
    CENOTE_USED,
    CENOTE_WORKERS,
    CLAN,
    CUBE_RESERVE,
    DESTINY_HOLDER,
    EFFECT,
    EFFECT_CARD,
    EFFECT_FAVOUR,
    EFFECT_FREE,
    EFFECT_NONE,
    EFFECT_PAY,
    EFFECT_STEAL,
    ENCAMP_WORKER,
    END_CONDITION,
    END_NONE,
    END_OFFERINGS,
    EXPLORER,
    FIRST_OFFERING,
    HERITAGE_HOLDER,
    HERITAGE_PLAYED,
    IDLE,
    INCREASE,
    INCREASE_BLOCKED,
    INCREASE_WORKER,
    LAST_ACTION,
    LAST_ACTOR,
    LEADER,
    MARKET_ACTION,
    MARKET_DECK,
    MARKET_DECK_COUNT,
    MARKET_OWNER,
    MARKET_SLOT,
    N_ACTIONS,
    N_OPTION_SLOTS,
    NEW_WORKERS,
    NO_CARD,
    OFFER_DECK,
    OFFER_DECK_COUNT,
    OFFER_IN_DECK,
    OFFER_SHOWN,
    OFFER_SLOT,
    OFFER_SLOT_WORKERS,
    OFFER_TAKEN,
    OFFERING,
    OFFERING_OWNER,
    OFFERING_WHERE,
    OFFERINGS_DONE,
    OFFERINGS_MADE,
    OPTION_CUBE,
    OWNED,
    PAY_ACTION,
    PAY_SACRIFICE,
    PAY_WILD,
    PENDING,
    PHASE,
    PHASE_DAY,
    PHASE_EFFECT,
    PHASE_HERITAGE,
    PHASE_REVEAL,
    PITUK_CUBE,
    PITUK_WORKER,
    POSITIONS,
    PYRAMID_WORKERS,
    RES,
    REVEALED,
    REVEALS_LEFT,
    SACRIFICED,
    SPACE_WORKER,
    START,
    START_BLOCKED,
    START_WORKER,
    STEAL,
    TILE_AT,
    TSEEK_ON_OFFERINGS,
    TSEEK_SUPPLY,
    V_CENOTE,
    V_DESTINY,
    V_FOREST,
    V_SOLO_HARD,
    VARIANT,
)
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL

P, R = data.MAX_PLAYERS, data.NUM_RES
# Fields holding seat + 1 (0: nobody), and per-seat rows that stay empty beyond the players.
_SEAT_MARKS = (
    ("EXPLORER", EXPLORER, data.MAX_POSITIONS),
    ("SPACE_WORKER", SPACE_WORKER, data.MAX_POSITIONS * data.MAX_SPACES * 2),
    ("ENCAMP_WORKER", ENCAMP_WORKER, data.MAX_POSITIONS * 2),
    ("PITUK_WORKER", PITUK_WORKER, data.PITUK_SPACES),
    ("START_WORKER", START_WORKER, 1),
    ("INCREASE_WORKER", INCREASE_WORKER, 1),
    ("MARKET_OWNER", MARKET_OWNER, data.NUM_MARKET),
    ("OFFERING_OWNER", OFFERING_OWNER, data.NUM_OFFERINGS),
    ("HERITAGE_HOLDER", HERITAGE_HOLDER, data.NUM_HERITAGE),
)
_BOT_MARKS = ("EXPLORER", "ENCAMP_WORKER", "MARKET_OWNER", "OFFERING_OWNER")  # solo: Chaak'Bot's too
_BOT_ROWS = ("OFFERINGS_DONE", "FIRST_OFFERING")  # solo: seat 1's row is Chaak'Bot's
_SEAT_ROWS = (
    ("PENDING", PENDING),
    ("CLAN", CLAN),
    ("OWNED", OWNED),
    ("AVAILABLE", AVAILABLE),
    ("NEW_WORKERS", NEW_WORKERS),
    ("PYRAMID_WORKERS", PYRAMID_WORKERS),
    ("SACRIFICED", SACRIFICED),
    ("IDLE", IDLE),
    ("OFFERINGS_DONE", OFFERINGS_DONE),
    ("FIRST_OFFERING", FIRST_OFFERING),
)


def check_invariants(state: np.ndarray) -> None:
    """Raise AssertionError if the state breaks a rule that must always hold."""
    s = state.tolist()
    n = s[NUM_PLAYERS]
    assert data.MIN_PLAYERS <= n <= data.MAX_PLAYERS, f"num_players {n}"
    assert 0 <= s[CURRENT_PLAYER] < n, "current player out of range"
    phase = s[PHASE]
    assert phase in (PHASE_HERITAGE, PHASE_REVEAL, PHASE_DAY, PHASE_EFFECT), f"phase {phase}"
    assert (s[EFFECT] != EFFECT_NONE) == (phase == PHASE_EFFECT), "an effect pending outside its phase"
    positions = s[POSITIONS]
    solo = n == 1  # Chaak'Bot (seat 1's rows, marks BOT_MARK) is competitor 1
    competitors = int(kernels.competitors(state))
    # Seats: every seat mark (seat + 1) and seat index names a seat in the game.
    assert s[START] < competitors and s[LEADER] < competitors, (
        f"START {s[START]} / LEADER {s[LEADER]}: no such seat"
    )
    assert s[LAST_ACTOR] < n and (s[LAST_ACTION] == -1) == (s[LAST_ACTOR] == -1), "LAST_ACTION / LAST_ACTOR"
    for name, start, size in _SEAT_MARKS:
        marks = s[start : start + size]
        top = competitors if name in _BOT_MARKS else n
        assert max(marks) <= top, f"{name}: seat mark {max(marks)} with {n} players"
    for name, start in _SEAT_ROWS:
        row = s[start + n : start + P]
        if solo and name in _BOT_ROWS:
            row = row[1:]
        assert all(v == (-1 if start == PENDING else 0) for v in row), f"{name}: an empty seat has {row}"
    _check_expansions(s, n)  # Cenote, Destiny, Forest (below)
    # Tiles: distinct ids on the board; the others are in the box.
    board = s[TILE_AT : TILE_AT + positions]
    assert sorted(set(board)) == sorted(board) and all(0 <= t < data.NUM_TILES for t in board), board
    assert all(t == -1 for t in s[TILE_AT + positions : TILE_AT + data.MAX_POSITIONS])
    revealed = s[REVEALED : REVEALED + data.MAX_POSITIONS]
    explorer = s[EXPLORER : EXPLORER + data.MAX_POSITIONS]
    spaces = s[SPACE_WORKER : SPACE_WORKER + data.MAX_POSITIONS * data.MAX_SPACES * 2]
    encamp = s[ENCAMP_WORKER : ENCAMP_WORKER + data.MAX_POSITIONS * 2]
    cube = s[OPTION_CUBE : OPTION_CUBE + N_OPTION_SLOTS]
    for pos in range(data.MAX_POSITIONS):
        assert not (revealed[pos] and explorer[pos]), f"position {pos}: explored yet face up"
        if pos >= positions:
            assert not revealed[pos] and not explorer[pos]
        # Workers and cubes lie only on face-up tiles (a face-down tile's identity is hidden).
        here = spaces[pos * data.MAX_SPACES * 2 : (pos + 1) * data.MAX_SPACES * 2]
        assert revealed[pos] or not any(here), f"SPACE_WORKER: a worker on the face-down tile at {pos}"
        assert revealed[pos] or not any(encamp[pos * 2 : pos * 2 + 2]), f"ENCAMP_WORKER: face down at {pos}"
        assert revealed[pos] or not any(cube[pos * 4 : pos * 4 + 4]), (
            f"OPTION_CUBE: a cube face down at {pos}"
        )
        if not revealed[pos]:
            continue
        tile = board[pos]
        for space in range(data.MAX_SPACES):
            first, second = here[space * 2], here[space * 2 + 1]
            double = n == 4 and data.SPACE_DOUBLE[tile, space]
            assert first or not second, f"SPACE_WORKER: position {pos}, space {space}: 2nd place, 1st free"
            assert not second or (double and first != second), (
                f"SPACE_WORKER: position {pos}, space {space}: over capacity"
            )
        for side in range(2):
            # (the free icon may have lifted the cube of the option the worker took)
            assert not encamp[pos * 2 + side] or data.OPTION_EXISTS[tile, side].any(), (
                f"ENCAMP_WORKER: position {pos} has no such Encampment"
            )
    # Cards conserved: Market deck + display + owned = 22; Offerings deck/shown/discard/taken = 12.
    market_deck = s[MARKET_DECK : MARKET_DECK + s[MARKET_DECK_COUNT]]
    shown = [c for c in s[MARKET_SLOT : MARKET_SLOT + data.MARKET_SHOWN] if c != NO_CARD]
    slots = s[MARKET_SLOT : MARKET_SLOT + data.MARKET_SHOWN]
    assert slots[: len(shown)] == shown, f"the Market is not filled from the left: {slots}"
    owners = s[MARKET_OWNER : MARKET_OWNER + data.NUM_MARKET]
    owned_cards = [c for c in range(data.NUM_MARKET) if owners[c]]
    assert sorted(market_deck + shown + owned_cards) == list(range(data.NUM_MARKET)), "Market cards"
    assert all(0 <= o <= competitors for o in owners)
    where = s[OFFERING_WHERE : OFFERING_WHERE + data.NUM_OFFERINGS]
    offer_deck = s[OFFER_DECK : OFFER_DECK + s[OFFER_DECK_COUNT]]
    offer_shown = [c for c in s[OFFER_SLOT : OFFER_SLOT + data.OFFERINGS_SHOWN] if c != NO_CARD]
    assert sorted(c for c in range(data.NUM_OFFERINGS) if where[c] == OFFER_IN_DECK) == sorted(offer_deck), (
        "Offer deck"
    )
    assert sorted(c for c in range(data.NUM_OFFERINGS) if where[c] == OFFER_SHOWN) == sorted(offer_shown)
    offer_owner = s[OFFERING_OWNER : OFFERING_OWNER + data.NUM_OFFERINGS]
    for c in range(data.NUM_OFFERINGS):
        assert (where[c] == OFFER_TAKEN) == (offer_owner[c] != 0), f"Offering {c}"
    holder = s[HERITAGE_HOLDER : HERITAGE_HOLDER + data.NUM_HERITAGE]
    played = s[HERITAGE_PLAYED : HERITAGE_PLAYED + data.NUM_HERITAGE]
    dealt = data.SOLO_HERITAGE_DEALT if solo else data.HERITAGE_DEALT
    for p in range(n):
        assert sum(1 for h in holder if h == p + 1) == dealt, f"seat {p} does not hold its {dealt} Heritage"
    assert all(not played[c] or holder[c] for c in range(data.NUM_HERITAGE)), "a boxed card was played"
    # Cubes conserved: 17 = reserve + Encampment options + Pituk + the set-up and solo blocks.
    cubes = s[CUBE_RESERVE] + sum(s[OPTION_CUBE : OPTION_CUBE + 32]) + sum(s[PITUK_CUBE : PITUK_CUBE + 2])
    cubes += s[INCREASE_BLOCKED] + s[START_BLOCKED]
    assert cubes == data.BLACK_CUBES and s[CUBE_RESERVE] >= 0, f"{cubes} black cubes"
    for pos in range(data.MAX_POSITIONS):
        for side in range(2):
            for o in range(data.MAX_OPTIONS):
                if s[OPTION_CUBE + (pos * 2 + side) * 2 + o]:
                    assert pos < positions and data.OPTION_EXISTS[board[pos], side, o], (
                        "OPTION_CUBE: a cube on no option"
                    )
    # Workers conserved: owned = available + placed; owned + joining + reserve = 4.
    taken = 0
    for p in range(n):
        mark = p + 1
        placed = spaces.count(mark) + encamp.count(mark) + explorer.count(mark)
        placed += s[PITUK_WORKER : PITUK_WORKER + 2].count(mark) + (s[START_WORKER] == mark)
        placed += 2 * (s[INCREASE_WORKER] == mark) + s[PYRAMID_WORKERS + p] + s[IDLE + p]
        owned = s[OWNED + p]
        assert owned == s[AVAILABLE + p] + placed, f"seat {p}: {owned} workers, {s[AVAILABLE + p]} + {placed}"
        assert owned - s[SACRIFICED + p] + s[NEW_WORKERS + p] >= data.MIN_WORKERS, f"seat {p}: golden rule"
        assert 0 <= s[SACRIFICED + p] <= s[PYRAMID_WORKERS + p]
        assert owned + s[NEW_WORKERS + p] <= data.WORKERS_PER_COLOUR, f"seat {p}: more than 4 workers"
        limbo = s[CENOTE_WORKERS + p] + sum(
            s[OFFER_SLOT_WORKERS + k * P + p] for k in range(data.OFFERINGS_SHOWN)
        )
        assert owned + s[NEW_WORKERS + p] + limbo <= data.WORKERS_PER_COLOUR, (
            f"seat {p}: more than 4 workers with those on the Cenote and the Offerings"
        )
        # Resources within the warehouse limits.
        clan = s[CLAN + p]
        for r in range(data.NUM_RES):
            value = s[RES + p * R + r]
            assert value >= 0, f"seat {p}: negative {data.RESOURCES[r]}"
            if r < data.GOODS:
                assert value <= data.CLAN_LIMIT[clan, r], (
                    f"seat {p}: {value} {data.RESOURCES[r]} over the limit"
                )
        done = sum(1 for c in offer_owner if c == mark)
        assert s[OFFERINGS_DONE + p] == done, f"seat {p}: offerings"
        assert (s[FIRST_OFFERING + p] > 0) == (done > 0)
        taken += done
    if solo:
        done = sum(1 for c in offer_owner if c == BOT_MARK)
        assert s[OFFERINGS_DONE + data.BOT_SEAT] == done, "Chaak'Bot's offerings"
        assert (s[FIRST_OFFERING + data.BOT_SEAT] > 0) == (done > 0), "Chaak'Bot's first offering"
        taken += done
    assert s[OFFERINGS_MADE] == taken, "offerings made"
    assert len({s[CLAN + p] for p in range(n)}) == n, "two players share a clan"
    for seat in range(n, P):
        assert s[OWNED + seat] == 0, "an empty seat plays"
        if not (solo and seat == data.BOT_SEAT):
            assert not any(s[RES + seat * R : RES + seat * R + R]), "an empty seat has resources"
    _check_bot(s, solo)
    # Scores recomputed: Offerings + Market + VP + goods at 3 / 2 / 1 per VP.
    points = np.zeros(P, np.int64)
    ties = np.zeros(P, np.int64)
    kernels.scores(state, points, ties)
    for p in range(competitors):
        res = s[RES + p * R : RES + p * R + R]
        expected = res[data.VP] + res[data.CORN] // 3 + res[data.SKIN] // 2 + res[data.MASK]
        expected += sum(
            int(data.OFFERING_VP[c]) for c in range(data.NUM_OFFERINGS) if offer_owner[c] == p + 1
        )
        expected += sum(int(data.MARKET_END_VP[c]) for c in range(data.NUM_MARKET) if owners[c] == p + 1)
        expected += (
            data.TSEEK_OFFERING_VP * s[TSEEK_ON_OFFERINGS + p] + data.TSEEK_WAREHOUSE_VP * res[data.TSEEK]
        )
        expected += _destiny_points(s, p)
        assert points[p] == expected, f"seat {p}: score {points[p]} != {expected}"
    if s[TERMINAL]:
        assert s[END_CONDITION] == END_OFFERINGS, "only 2 Offerings end a game (the guard truncates)"
        done = s[OFFERINGS_DONE : OFFERINGS_DONE + competitors]
        assert max(done) >= data.OFFERINGS_TO_END, "ended early"
        assert all(s[AVAILABLE + p] == 0 for p in range(n)), "ended before the round was over"
        return
    assert s[END_CONDITION] == END_NONE
    pending = s[PENDING : PENDING + P]
    if phase == PHASE_HERITAGE:
        for p in range(n):
            if p < s[CURRENT_PLAYER]:
                c = pending[p]
                assert c != NO_CARD and holder[c] == p + 1 and not played[c], f"seat {p}: pending {c}"
            else:
                assert pending[p] == NO_CARD
    else:
        assert all(c == NO_CARD for c in pending), "a pending choice after the set-up"
    reveals = s[REVEALS_LEFT]
    if phase == PHASE_HERITAGE:
        assert reveals == data.REVEAL_AT_SETUP[n] and not any(revealed), "REVEALS_LEFT in the set-up"
    elif phase == PHASE_REVEAL:
        assert 0 < reveals <= data.REVEAL_AT_SETUP[n], f"REVEALS_LEFT {reveals} while revealing"
    else:
        assert reveals == 0, f"REVEALS_LEFT {reveals} after the set-up"
    card = s[EFFECT_CARD]
    effect = s[EFFECT]
    if effect in (EFFECT_STEAL, EFFECT_FREE):
        icon = data.ICON_STEAL if effect == EFFECT_STEAL else data.ICON_FREE
        assert card != NO_CARD and data.MARKET_ICON[card] == icon, f"EFFECT_CARD {card} for effect {effect}"
        # solo: the human chooses the cube of Chaak'Bot's free-an-Encampment card
        bots = solo and effect == EFFECT_FREE and owners[card] == BOT_MARK
        assert bots or owners[card] == s[CURRENT_PLAYER] + 1, f"EFFECT_CARD {card}: not the actor's card"
        if bots:
            assert s[BOT_ACTED] < data.BOT_DRAW and s[BOT_DRAWN] != NO_CARD, "BOT_ACTED: no card in play"
    elif effect == EFFECT_FAVOUR:
        assert card == NO_CARD or (
            data.MARKET_ICON[card] == data.ICON_PITUK and owners[card] == s[CURRENT_PLAYER] + 1
        ), f"EFFECT_CARD {card} for the Pituk's favour"
    elif effect == EFFECT_PAY and STEAL.start <= s[PAY_ACTION] < STEAL.start + STEAL.size:
        assert card != NO_CARD and data.MARKET_ICON[card] == data.ICON_STEAL, (
            f"EFFECT_CARD {card}: paying a steal"
        )
        assert owners[card] == s[CURRENT_PLAYER] + 1, f"EFFECT_CARD {card}: not the actor's card"
    else:
        assert card == NO_CARD, f"EFFECT_CARD {card} with no effect pending"
    if phase in (PHASE_DAY, PHASE_EFFECT):
        assert s[AVAILABLE + s[CURRENT_PLAYER]] > 0 or phase == PHASE_EFFECT, (
            "the player to act has no worker"
        )
    if s[PAY_ACTION] >= 0:
        _check_payment(state, s)
    # A live state always has a legal action.
    if solo and phase in (PHASE_DAY, PHASE_EFFECT):
        drawn = s[BOT_DRAWN : BOT_DRAWN + data.BOT_DRAW]
        assert all(c != NO_CARD for c in drawn) or s[BOT_ACTED] == 0, "BOT_ACTED while Chaak'Bot rests"
        for k in range(data.BOT_DRAW):
            in_play = k == s[BOT_ACTED] and effect == EFFECT_FREE and owners[card] == BOT_MARK
            played = k < s[BOT_ACTED] or in_play
            assert not (played and drawn[k] >= BOT_FACE_DOWN), f"BOT_DRAWN[{k}]: played face down"
    mask = np.zeros(N_ACTIONS, np.int8)
    assert kernels.legal_mask(state, s[CURRENT_PLAYER], mask) > 0, "a live game with no legal action"


# -- Cenote, Destiny, Forest (issue 16) ---------------------------------------------------------
def _check_expansions(s: list[int], n: int) -> None:
    cenote, destiny, forest = s[VARIANT + V_CENOTE], s[VARIANT + V_DESTINY], s[VARIANT + V_FOREST]
    assert not forest or cenote, "VARIANT: the Forest without the Cenote"
    assert s[POSITIONS] == (data.FOREST_TILES if forest else data.BOARD_TILES), f"POSITIONS {s[POSITIONS]}"
    tseek = [s[RES + p * R + data.TSEEK] for p in range(P)]
    on_offerings = s[TSEEK_ON_OFFERINGS : TSEEK_ON_OFFERINGS + P]
    used = s[CENOTE_USED : CENOTE_USED + P]
    on_cenote = s[CENOTE_WORKERS : CENOTE_WORKERS + P]
    slot_workers = s[OFFER_SLOT_WORKERS : OFFER_SLOT_WORKERS + data.OFFERINGS_SHOWN * P]
    if not cenote:
        assert not any(tseek) and not any(on_offerings) and s[TSEEK_SUPPLY] == 0, "tseek' without the Cenote"
        assert not any(used) and not any(on_cenote) and not any(slot_workers), "Cenote workers without it"
        assert s[PAY_ACTION] == -1, "PAY_ACTION: a payment without the Cenote"
    else:
        # tseek' conserved: on the tile + in warehouses + on Offerings = 4 / 5 / 6.
        total = s[TSEEK_SUPPLY] + sum(tseek) + sum(on_offerings)
        assert total == data.TSEEK_START[n], f"{total} tseek', not {data.TSEEK_START[n]}"
        for p in range(n, P):
            assert not tseek[p] and not on_offerings[p] and not used[p] and not on_cenote[p], (
                "an empty seat's tseek'"
            )
            assert not any(slot_workers[k * P + p] for k in range(data.OFFERINGS_SHOWN)), (
                "an empty seat's worker"
            )
        for p in range(n):
            assert on_cenote[p] <= used[p], f"seat {p}: a worker on the Cenote it never sent"
        for k in range(data.OFFERINGS_SHOWN):
            carried = slot_workers[k * P : (k + 1) * P]
            assert s[OFFER_SLOT + k] != NO_CARD or not any(carried), (
                f"OFFER_SLOT_WORKERS: workers on empty slot {k}"
            )
    holders = s[DESTINY_HOLDER : DESTINY_HOLDER + data.NUM_DESTINY]
    if destiny:
        for p in range(n):
            assert holders.count(p + 1) == 1, f"DESTINY_HOLDER: seat {p} holds {holders.count(p + 1)} cards"
        assert max(holders) <= n, "DESTINY_HOLDER: a card with no such seat"
    else:
        assert not any(holders), "DESTINY_HOLDER: Destiny cards without the option"
    wild = s[PAY_WILD : PAY_WILD + data.GOODS]
    paying = s[PAY_ACTION] >= 0
    assert paying == (s[EFFECT] == EFFECT_PAY), "PAY_ACTION and EFFECT disagree"
    assert paying or (not any(wild) and s[PAY_SACRIFICE] == 0), "PAY_WILD / PAY_SACRIFICE with no payment"


def _destiny_points(s: list[int], p: int) -> int:
    """Recomputed: 3 VP for the cards played, 2 for the goods stored (no tseek')."""
    if not s[VARIANT + V_DESTINY]:
        return 0
    card = s[DESTINY_HOLDER : DESTINY_HOLDER + data.NUM_DESTINY].index(p + 1)
    if data.DESTINY_KIND[card] == data.DESTINY_HERITAGE:
        played = sum(
            1 for c in range(data.NUM_HERITAGE) if s[HERITAGE_HOLDER + c] == p + 1 and s[HERITAGE_PLAYED + c]
        )
    else:
        played = s[MARKET_OWNER : MARKET_OWNER + data.NUM_MARKET].count(p + 1)
    points = data.DESTINY_VP_UPPER if played >= data.DESTINY_COUNT[card] else 0
    if all(s[RES + p * R + g] >= data.DESTINY_GOODS[card, g] for g in range(data.GOODS)):
        points += data.DESTINY_VP_LOWER
    return points


_PAYABLE = (
    (MARKET_ACTION.start, MARKET_ACTION.start + MARKET_ACTION.size),
    (OFFERING.start, OFFERING.start + OFFERING.size),
    (INCREASE.start, INCREASE.start + 1),
    (STEAL.start, STEAL.start + STEAL.size),
    (CENOTE.start, CENOTE.start + CENOTE.size),
)


def _check_payment(state: np.ndarray, s: list[int]) -> None:
    """A payment in progress is for an action its player could take, before any tseek' is
    assigned, and what is assigned stays within its cost."""
    action, p = s[PAY_ACTION], s[CURRENT_PLAYER]
    assert any(lo <= action < hi for lo, hi in _PAYABLE), f"PAY_ACTION {action}: not an action with a cost"
    before = state.copy()
    before[PAY_ACTION] = -1
    before[PAY_WILD : PAY_WILD + data.GOODS] = 0
    before[PAY_SACRIFICE] = 0
    stealing = STEAL.start <= action < STEAL.start + STEAL.size
    before[EFFECT] = EFFECT_STEAL if stealing else EFFECT_NONE
    before[PHASE] = PHASE_EFFECT if stealing else PHASE_DAY
    mask = np.zeros(N_ACTIONS, np.int8)
    kernels.legal_mask(before, p, mask)
    assert mask[action], f"PAY_ACTION {action}: not legal for player {p}"
    assert cenote.costs_goods(before, p, action), f"PAY_ACTION {action}: costs no good"
    for g in range(data.GOODS):
        assert s[PAY_WILD + g] <= cenote.cost_of(before, p, action, g), f"PAY_WILD[{g}] beyond the cost"


def _check_bot(s: list[int], solo: bool) -> None:
    """Chaak'Bot's 8 cards: each once across its deck, the day's draw and the discard pile (the
    rest); face down only in hard mode; the solo fields stay zero with 2-4 players."""
    deck = s[BOT_DECK : BOT_DECK + s[BOT_DECK_COUNT]]
    drawn = s[BOT_DRAWN : BOT_DRAWN + data.BOT_DRAW]
    hard = s[VARIANT + V_SOLO_HARD]
    if not solo:
        assert hard == 0 and s[START_BLOCKED] == 0, "VARIANT / START_BLOCKED: solo fields with 2-4 players"
        cards = data.NUM_BOT_CARDS
        assert not any(s[BOT_DECK : BOT_DECK + cards]), "BOT_DECK: Chaak'Bot's cards outside solo"
        assert s[BOT_DECK_COUNT] == 0, "BOT_DECK_COUNT: Chaak'Bot's deck outside solo"
        assert not any(s[BOT_ORIENT : BOT_ORIENT + cards]), "BOT_ORIENT: Chaak'Bot's cards outside solo"
        assert s[BOT_ACTED] == 0 and not any(drawn), "BOT_ACTED / BOT_DRAWN: Chaak'Bot's turn outside solo"
        return
    cards = [c - BOT_FACE_DOWN if c >= BOT_FACE_DOWN else c for c in drawn if c != NO_CARD]
    assert len(set(deck + cards)) == len(deck) + len(cards), f"BOT_DECK {deck} / BOT_DRAWN {drawn}: twice"
    assert hard or all(c < BOT_FACE_DOWN for c in drawn), "BOT_DRAWN: a card face down in normal mode"
    assert all(c != NO_CARD for c in drawn) or all(c == NO_CARD for c in drawn), f"BOT_DRAWN {drawn}: partly"
    assert s[BOT_ACTED] == 0 or drawn[0] != NO_CARD, "BOT_ACTED with no cards drawn"
