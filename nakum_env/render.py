"""Text (ANSI) and picture renderings of a Nakum state, and actions in words."""

from __future__ import annotations

import numpy as np

from nakum_env import data
from nakum_env.cenote import destiny_of, destiny_points
from nakum_env.data import (
    BOT_ACTIONS,
    BOT_COMBO,
    BOT_DRAW,
    BOT_GAIN,
    BOT_GAIN_OF,
    BOT_HEARTS,
    BOT_KIND,
    BOT_MARKET,
    BOT_POSITION,
    BOT_SEAT,
    BOT_SIDE,
    BOT_TILE,
    CENOTE_BOOST_COST,
    CENOTE_BOOST_VP,
    CLAN_INCREASE_COST,
    CLAN_LIMIT,
    CLAN_NAMES,
    COMBO_NAMES,
    DESTINY_COUNT,
    DESTINY_GOODS,
    DESTINY_KIND,
    DESTINY_KINDS,
    GOODS,
    HERITAGE_GAIN,
    ICON_NAMES,
    MARKET_COST,
    MARKET_END_VP,
    MARKET_GAIN,
    MARKET_ICON,
    MARKET_SHOWN,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_POSITIONS,
    MAX_SPACES,
    NUM_BOT_CARDS,
    NUM_HERITAGE,
    NUM_RES,
    OFFERING_COST,
    OFFERING_NAMES,
    OFFERING_SACRIFICE,
    OFFERING_VP,
    OFFERINGS_SHOWN,
    OPTION_EXISTS,
    OPTION_GAIN,
    RESOURCES,
    SHORT,
    SIDES,
    SPACE_DOUBLE,
    SPACE_GAIN,
    SPACE_KIND,
    SPACE_KINDS,
    STEAL_COST,
    STEAL_VP,
    TILE_NAMES,
    TSEEK,
    WORKERS_PER_COLOUR,
)
from nakum_env.kernels import score_of
from nakum_env.state import (
    ACTIONS,
    AVAILABLE,
    BOT_ACTED,
    BOT_DECK,
    BOT_DECK_COUNT,
    BOT_DRAWN,
    BOT_FACE_DOWN,
    BOT_MARK,
    BOT_ORIENT,
    CENOTE,
    CENOTE_DESTINATIONS,
    CENOTE_USED,
    CENOTE_WORKERS,
    CLAN,
    CUBE_INCREASE,
    CUBE_PITUK,
    CUBE_RESERVE,
    EFFECT,
    EFFECT_CARD,
    ENCAMP_WORKER,
    ENCAMPMENT,
    EXPLORE,
    EXPLORER,
    FAVOUR,
    FREE,
    HERITAGE_ACTION,
    HERITAGE_HOLDER,
    HERITAGE_PLAYED,
    HERITAGE_SETUP,
    INCREASE,
    INCREASE_BLOCKED,
    INCREASE_WORKER,
    MARKET_ACTION,
    MARKET_DECK_COUNT,
    MARKET_OWNER,
    MARKET_SLOT,
    N_OPTION_SLOTS,
    N_SEAT_OFFSETS,
    NEW_WORKERS,
    NO_CARD,
    OFFER_DECK_COUNT,
    OFFER_SLOT,
    OFFER_SLOT_WORKERS,
    OFFERING,
    OFFERING_OWNER,
    OFFERINGS_DONE,
    OPTION_CUBE,
    OWNED,
    PASS,
    PAY_ACTION,
    PAY_DONE,
    PAY_SACRIFICE,
    PAY_WILD,
    PENDING,
    PHASE,
    PHASE_DAY,
    PHASE_HERITAGE,
    PHASE_REVEAL,
    PHASES,
    PITUK,
    PITUK_CUBE,
    PITUK_WORKER,
    POSITIONS,
    PYRAMID_WORKERS,
    RES,
    REVEAL,
    REVEALED,
    ROUND,
    SACRIFICED,
    SPACE,
    SPACE_WORKER,
    START,
    START_BLOCKED,
    START_PLAYER,
    START_WORKER,
    STEAL,
    TILE_AT,
    TSEEK_ON_OFFERINGS,
    TSEEK_SUPPLY,
    V_CENOTE,
    V_DESTINY,
    V_SOLO_HARD,
    VARIANT,
    WILD,
    WILD_SACRIFICE,
)
from treasure_core.ansi import paint
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL

_ANSI = ("\x1b[31m", "\x1b[34m", "\x1b[32m", "\x1b[33m")
_RGB = np.array([(210, 50, 50), (50, 90, 220), (40, 170, 60), (230, 200, 40)], np.uint8)
_EFFECT_WORDS = (
    "",
    "steal",
    "free an Encampment",
    "the Pituk's favour",
    "paying: which goods tseek' replace",
)


def amount_words(vector: np.ndarray) -> str:
    parts = [f"{int(vector[r])}{SHORT[r]}" for r in range(NUM_RES) if vector[r]]
    return "+".join(parts) or "nothing"


def market_words(card: int) -> str:
    parts = []
    if MARKET_COST[card].any():
        parts.append(f"pay {amount_words(MARKET_COST[card])} ->")
    if MARKET_GAIN[card].any():
        parts.append(amount_words(MARKET_GAIN[card]))
    if MARKET_ICON[card]:
        parts.append(f"[{ICON_NAMES[MARKET_ICON[card]]}]")
    if MARKET_END_VP[card]:
        parts.append(f"({int(MARKET_END_VP[card])} VP at the end)")
    return f"M{card}: " + " ".join(parts)


def offering_words(card: int) -> str:
    sacrifice = int(OFFERING_SACRIFICE[card])
    extra = f", sacrifice {sacrifice}" if sacrifice else ""
    return f"{OFFERING_NAMES[card]} ({amount_words(OFFERING_COST[card])}{extra}; {int(OFFERING_VP[card])} VP)"


def _face_up(state: np.ndarray, position: int) -> bool:
    """A revealed tile on the board (a position the board has, its tile turned up)."""
    return position < int(state[POSITIONS]) and bool(state[REVEALED + position])


def _tile_name(state: np.ndarray, position: int) -> str:
    if _face_up(state, position):
        return TILE_NAMES[int(state[TILE_AT + position])]
    return "face-down tile"


def describe_action(state: np.ndarray, action: int, seat: int | None = None) -> str:
    """Words for an action of `seat` (default: the player to act), as `play` lists them."""
    block, i = ACTIONS.block_of(int(action))
    seat = int(state[CURRENT_PLAYER]) if seat is None else seat
    n = int(state[NUM_PLAYERS])
    if block == HERITAGE_SETUP:
        return f"set-up: play Heritage H{i} ({amount_words(HERITAGE_GAIN[i])})"
    if block == REVEAL:
        return f"set-up: reveal the tile at position {i + 1}"
    if block == SPACE:
        position, space = divmod(i, MAX_SPACES)
        if not _face_up(state, position):  # a face-down tile's spaces are not named: it is hidden
            return f"face-down tile (position {position + 1}): resource space {space + 1}"
        tile = int(state[TILE_AT + position])
        return f"{TILE_NAMES[tile]} (position {position + 1}): take {amount_words(SPACE_GAIN[tile, space])}"
    if block == MARKET_ACTION:
        position, slot = divmod(i, MARKET_SHOWN)
        card = int(state[MARKET_SLOT + slot])
        what = market_words(card) if card != NO_CARD else "an empty slot"
        return f"{_tile_name(state, position)} (position {position + 1}) Market: acquire {what}"
    if block == HERITAGE_ACTION:
        position, card = divmod(i, NUM_HERITAGE)
        return (
            f"{_tile_name(state, position)} (position {position + 1}) Heritage: play H{card} "
            f"({amount_words(HERITAGE_GAIN[card])})"
        )
    if block == ENCAMPMENT:
        position, rest = divmod(i, 2 * MAX_OPTIONS)
        side, option = divmod(rest, MAX_OPTIONS)
        if not _face_up(state, position):
            return f"face-down tile (position {position + 1}) {SIDES[side]} Encampment: option {option + 1}"
        tile = int(state[TILE_AT + position])
        return (
            f"{TILE_NAMES[tile]} (position {position + 1}) {SIDES[side]} Encampment: take "
            f"{amount_words(OPTION_GAIN[tile, side, option])}"
        )
    if block == EXPLORE:
        return f"explore the face-down tile at position {i + 1} (+1 VP)"
    if block == OFFERING:
        card = int(state[OFFER_SLOT + i])
        return f"the Pyramid: offer {offering_words(card) if card != NO_CARD else 'nothing'}"
    if block == PITUK:
        return "the Grand Priest Pituk (+1 VP and his favour)"
    if block == START_PLAYER:
        return "take the starting player marker"
    if block == INCREASE:
        return f"increase the clan (pay {amount_words(CLAN_INCREASE_COST[int(state[CLAN + seat])])})"
    if block == PASS:
        return "pass: the worker stays idle"
    if block == STEAL:
        option, offset = divmod(i, N_SEAT_OFFSETS)
        card = int(state[EFFECT_CARD]) if state[EFFECT_CARD] != NO_CARD else 0
        victim = (seat + offset + 1) % max(n, 1)
        return (
            f"steal {int(STEAL_VP[card, option])} VP from player_{victim} "
            f"(pay {amount_words(STEAL_COST[card, option])})"
        )
    if block == FREE:
        if i < N_OPTION_SLOTS:
            position, rest = divmod(i, 2 * MAX_OPTIONS)
            side, option = divmod(rest, MAX_OPTIONS)
            return f"free option {option + 1} of the {SIDES[side]} Encampment at position {position + 1}"
        if i < CUBE_INCREASE:
            return f"free Pituk space {i - CUBE_PITUK + 1}"
        if i == CUBE_INCREASE:
            return "free the block on Increase the clan"
        return "free the block on the starting player space"
    if block in (CENOTE, WILD, WILD_SACRIFICE, PAY_DONE):  # the Cenote (issue 16)
        return _describe_cenote_action(state, block, i)
    assert block == FAVOUR
    return "the Pituk's favour: replace the Offerings" if i else "the Pituk's favour: keep the Offerings"


def _who(mark: int, colour: bool) -> str:
    if mark == 0:
        return "."
    return paint(str(mark - 1), _ANSI[mark - 1], colour)


def _seat_line(state: np.ndarray, p: int, viewer: int | None) -> str:
    clan = int(state[CLAN + p])
    res = state[RES + p * NUM_RES : RES + (p + 1) * NUM_RES]
    limit = CLAN_LIMIT[clan]
    hand = [
        c
        for c in range(NUM_HERITAGE)
        if state[HERITAGE_HOLDER + c] == p + 1 and not state[HERITAGE_PLAYED + c]
    ]
    shown = " ".join(f"H{c}" for c in hand) if viewer == p else f"{len(hand)} cards"
    offerings = [OFFERING_NAMES[c] for c in range(len(OFFERING_NAMES)) if state[OFFERING_OWNER + c] == p + 1]
    market = [f"M{c}" for c in range(len(MARKET_COST)) if state[MARKET_OWNER + c] == p + 1]
    owned, new = int(state[OWNED + p]), int(state[NEW_WORKERS + p])
    return (
        f"player_{p}{' (you)' if p == viewer else ''}{' [start]' if state[START] == p else ''} "
        f"{CLAN_NAMES[clan]}: corn {int(res[0])}/{int(limit[0])} skin {int(res[1])}/{int(limit[1])} "
        f"mask {int(res[2])}/{int(limit[2])} VP {int(res[3])}; workers {int(state[AVAILABLE + p])} to place "
        f"of {owned} (+{new} tonight, {WORKERS_PER_COLOUR - owned - new} in reserve"
        f"{', ' + str(int(state[SACRIFICED + p])) + ' sacrificed' if state[SACRIFICED + p] else ''}); "
        f"hand {shown}; Offerings {', '.join(offerings) or '-'}; Market {' '.join(market) or '-'}; "
        f"score {_shown_score(state, p, viewer)}{_expansion_words(state, p, viewer)}"
    )


def bot_card_words(card: int, orientation: int) -> str:
    """A Chaak'Bot card's top, left to right, its centre symbol and hearts."""
    actions = []
    for i in range(BOT_ACTIONS):
        kind = int(BOT_KIND[card, orientation, i])
        if kind == BOT_GAIN:
            actions.append(amount_words(BOT_GAIN_OF[card, orientation, i]))
        elif kind == BOT_MARKET:
            actions.append("Market")
        elif kind == BOT_TILE:
            number = int(BOT_POSITION[card, orientation, i]) + 1
            actions.append(f"tile {number} (explore / block {SIDES[int(BOT_SIDE[card, orientation, i])]})")
    combo = COMBO_NAMES[int(BOT_COMBO[card, orientation])]
    hearts = int(BOT_HEARTS[card, orientation])
    return f"B{card}{'ab'[orientation]}: {', '.join(actions)}; centre {combo}; hearts {hearts}"


def _bot_lines(state: np.ndarray, colour: bool) -> list[str]:
    """Chaak'Bot as the human sees it: its warehouse, today's cards (face down ones hidden), the
    discard pile and the deck's size."""
    p = BOT_SEAT
    res = state[RES + p * NUM_RES : RES + (p + 1) * NUM_RES]
    offerings = [name for c, name in enumerate(OFFERING_NAMES) if state[OFFERING_OWNER + c] == BOT_MARK]
    market = [f"M{c}" for c in range(len(MARKET_COST)) if state[MARKET_OWNER + c] == BOT_MARK]
    mode = "hard" if state[VARIANT + V_SOLO_HARD] else "normal"
    lines = [
        f"{paint('Chaak' + chr(39) + 'Bot', _ANSI[p], colour)} ({mode} mode)"
        f"{' [start]' if state[START] == p else ''}: corn {int(res[0])} skin {int(res[1])} "
        f"mask {int(res[2])} VP {int(res[3])} (no warehouse limit); Offerings {', '.join(offerings) or '-'}; "
        f"Market {' '.join(market) or '-'}; score {score_of(state, p)}"
    ]
    drawn = [int(c) for c in state[BOT_DRAWN : BOT_DRAWN + BOT_DRAW]]
    in_hand = set()
    for k, value in enumerate(drawn):
        if value == NO_CARD:
            continue
        card = value - BOT_FACE_DOWN if value >= BOT_FACE_DOWN else value
        in_hand.add(card)
        played = " (played)" if k < state[BOT_ACTED] else ""
        what = "face down" if value >= BOT_FACE_DOWN else bot_card_words(card, int(state[BOT_ORIENT + card]))
        lines.append(f"  card {k + 1}{played}: {what}")
    if drawn[0] == NO_CARD and state[PHASE] >= PHASE_DAY:
        lines.append("  Chaak'Bot made an Offering this morning and rests")
    deck = {int(c) for c in state[BOT_DECK : BOT_DECK + state[BOT_DECK_COUNT]]}
    discard = [f"B{c}" for c in range(NUM_BOT_CARDS) if c not in deck and c not in in_hand]
    lines.append(f"  deck {len(deck)} cards; discard {' '.join(discard) or '-'}")
    return lines


def render_ansi(state: np.ndarray, viewer: int | None = None, colour: bool = True) -> str:
    """The table: the Pyramid tile, the jungle tiles, the cards, the clans. `viewer` adds that
    player's own hand; never shows another hand, a deck order or a face-down tile."""
    n = int(state[NUM_PLAYERS])
    lines = [f"round {int(state[ROUND])}, {PHASES[int(state[PHASE])]}"]
    on_pyramid = [
        f"{_who(p + 1, colour)}x{int(state[PYRAMID_WORKERS + p])}"
        for p in range(n)
        if state[PYRAMID_WORKERS + p]
    ]
    pyramid = [f"Pyramid: {', '.join(on_pyramid) or 'empty'}"]
    pituk = " ".join(
        "X" if state[PITUK_CUBE + s] else _who(int(state[PITUK_WORKER + s]), colour) for s in range(2)
    )
    pyramid.append(f"Pituk [{pituk}]")
    start = "X" if state[START_BLOCKED] else _who(int(state[START_WORKER]), colour)  # X: Chaak'Bot's cube
    pyramid.append(f"start [{start}]")
    blocked = "X" if state[INCREASE_BLOCKED] else _who(int(state[INCREASE_WORKER]), colour)
    pyramid.append(f"increase [{blocked}]")
    pyramid.append(f"cubes in reserve {int(state[CUBE_RESERVE])}")
    lines.append("  ".join(pyramid))
    for position in range(int(state[POSITIONS])):
        explorer = int(state[EXPLORER + position])
        if not state[REVEALED + position]:
            note = f" (explored by {_who(explorer, colour)}, revealed tonight)" if explorer else ""
            lines.append(f" {position + 1}. face down{note}")
            continue
        tile = int(state[TILE_AT + position])
        spaces = []
        for space in range(MAX_SPACES):
            kind = int(SPACE_KIND[tile, space])
            what = amount_words(SPACE_GAIN[tile, space]) if kind == 0 else SPACE_KINDS[kind]
            marks = "".join(
                _who(int(state[SPACE_WORKER + (position * MAX_SPACES + space) * 2 + k]), colour)
                for k in range(2)
            )
            double = "2" if SPACE_DOUBLE[tile, space] else ""
            spaces.append(f"{what}{double}[{marks}]")
        camps = []
        for side in range(2):
            options = []
            for option in range(MAX_OPTIONS):
                if OPTION_EXISTS[tile, side, option]:
                    covered = state[OPTION_CUBE + (position * 2 + side) * MAX_OPTIONS + option]
                    options.append("X" if covered else amount_words(OPTION_GAIN[tile, side, option]))
            if options:
                fire = _who(int(state[ENCAMP_WORKER + position * 2 + side]), colour)
                camps.append(f"{SIDES[side]} fire[{fire}] {'/'.join(options)}")
        lines.append(f" {position + 1}. {TILE_NAMES[tile]}: {' '.join(spaces)}; {'; '.join(camps)}")
    market = [market_words(int(c)) for c in state[MARKET_SLOT : MARKET_SLOT + MARKET_SHOWN] if c != NO_CARD]
    lines.append(f"Market ({int(state[MARKET_DECK_COUNT])} in the deck): " + " | ".join(market))
    offers = [
        offering_words(int(c)) for c in state[OFFER_SLOT : OFFER_SLOT + OFFERINGS_SHOWN] if c != NO_CARD
    ]
    lines.append(f"Offerings ({int(state[OFFER_DECK_COUNT])} in the deck): " + " | ".join(offers))
    if state[VARIANT + V_CENOTE]:
        lines.append(cenote_line(state))
    for p in range(n):
        lines.append(_seat_line(state, p, viewer))
    if n == 1:  # solo: Chaak'Bot, competitor 1 (its markers show as 1)
        lines.extend(_bot_lines(state, colour))
    if state[TERMINAL]:
        lines.append("game over: " + ", ".join(f"player_{p} {score_of(state, p)}" for p in range(n)))
        if n == 1:
            lines[-1] += f", Chaak'Bot {score_of(state, BOT_SEAT)}"
    elif state[PHASE] == PHASE_HERITAGE:
        chosen = [f"player_{p}" for p in range(n) if state[PENDING + p] != NO_CARD]
        lines.append(
            f"set-up Heritage play; chosen: {', '.join(chosen) or 'nobody'}; "
            f"player_{int(state[CURRENT_PLAYER])} to choose"
        )
        if viewer is not None and state[PENDING + viewer] != NO_CARD:
            lines.append(f"your choice: H{int(state[PENDING + viewer])}")
    elif state[PHASE] == PHASE_REVEAL:
        lines.append(f"set-up: player_{int(state[CURRENT_PLAYER])} reveals a tile")
    else:
        effect = _EFFECT_WORDS[int(state[EFFECT])]
        lines.append(f"player_{int(state[CURRENT_PLAYER])} to act{' (' + effect + ')' if effect else ''}")
    return "\n".join(lines)


def render_rgb(state: np.ndarray, cell: int = 12) -> np.ndarray:
    """A picture of the board: the Pyramid tile in the middle, the jungle tiles around it (face
    down ones dark), workers as squares of their colour, cubes black. Public information only."""
    n = int(state[NUM_PLAYERS])
    size = 3 * 4 * cell
    image = np.full((size, size + 4 * cell, 3), 30, np.uint8)
    centres = ((0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0), (0, 0))
    block = 4 * cell

    def fill(r: int, c: int, h: int, w: int, rgb) -> None:
        image[r : r + h, c : c + w] = rgb

    # The Pyramid tile.
    top, left = block, block
    fill(top + 2, left + 2, block - 4, block - 4, (200, 180, 120))
    for p in range(n):
        for k in range(int(state[PYRAMID_WORKERS + p])):
            fill(
                top + cell + k * (cell // 2 + 2),
                left + cell + p * (cell // 2 + 2),
                cell // 2,
                cell // 2,
                _RGB[p],
            )
    for s in range(2):
        colour = (0, 0, 0) if state[PITUK_CUBE + s] else (150, 150, 150)
        fill(top + 3 * cell, left + cell + s * cell, cell - 2, cell - 2, colour)
        if state[PITUK_WORKER + s]:
            fill(
                top + 3 * cell + 2,
                left + cell + s * cell + 2,
                cell - 6,
                cell - 6,
                _RGB[int(state[PITUK_WORKER + s]) - 1],
            )
    for position in range(int(state[POSITIONS])):
        r, c = centres[position]
        top, left = r * block, c * block
        if not state[REVEALED + position]:
            fill(top + 2, left + 2, block - 4, block - 4, (20, 60, 25))
            if state[EXPLORER + position]:
                fill(top + cell, left + cell, cell, cell, _RGB[int(state[EXPLORER + position]) - 1])
            continue
        fill(top + 2, left + 2, block - 4, block - 4, (60, 140, 60))
        tile = int(state[TILE_AT + position])
        for space in range(MAX_SPACES):
            fill(top + cell // 2, left + cell // 2 + space * cell, cell - 2, cell - 2, (220, 210, 170))
            for k in range(2):
                mark = int(state[SPACE_WORKER + (position * MAX_SPACES + space) * 2 + k])
                if mark:
                    fill(
                        top + cell // 2 + 2 + k * 3,
                        left + cell // 2 + space * cell + 2,
                        cell // 2,
                        cell // 2,
                        _RGB[mark - 1],
                    )
        for side in range(2):
            for option in range(MAX_OPTIONS):
                if OPTION_EXISTS[tile, side, option]:
                    covered = state[OPTION_CUBE + (position * 2 + side) * MAX_OPTIONS + option]
                    colour = (0, 0, 0) if covered else (230, 120, 30)
                    fill(
                        top + 2 * cell + option * (cell // 2 + 1),
                        left + cell // 2 + side * 2 * cell,
                        cell // 2,
                        cell,
                        colour,
                    )
            mark = int(state[ENCAMP_WORKER + position * 2 + side])
            if mark:
                fill(top + 3 * cell, left + cell // 2 + side * 2 * cell, cell // 2, cell // 2, _RGB[mark - 1])
    # A column per player: goods and VP as bars.
    for p in range(n):
        left = size + p * cell
        res = state[RES + p * NUM_RES : RES + (p + 1) * NUM_RES]
        bars = ((int(res[0]), (240, 210, 60)), (int(res[1]), (170, 110, 50)), (int(res[2]), (60, 200, 140)))
        top = 0
        for value, colour in bars:
            fill(top, left + 1, min(value, 8) * 4, cell - 2, colour)
            top += 8 * 4 + 2
        fill(top, left + 1, min(int(res[3]), 40) * 2, cell - 2, _RGB[p])
        fill(size - cell, left + 1, cell - 2, cell - 2, _RGB[p])
        for k in range(int(state[OFFERINGS_DONE + p])):
            fill(size - 2 * cell - k * cell, left + 3, cell - 6, cell - 6, (255, 255, 255))
    _ = data
    return image


# -- Cenote, Destiny, Forest (issue 16) ---------------------------------------------------------
def _describe_cenote_action(state: np.ndarray, block: object, i: int) -> str:
    if block == CENOTE:
        boost, where = divmod(i, CENOTE_DESTINATIONS)
        cost = CENOTE_BOOST_COST[boost]
        boosted = f", pay {amount_words(cost)} for +{int(CENOTE_BOOST_VP[boost])} VP" if boost else ""
        if where == 0:
            place = "left on the Cenote"
        else:
            card = int(state[OFFER_SLOT + where - 1])
            place = f"on the Offering {OFFERING_NAMES[card] if card != NO_CARD else '(none)'}"
        return f"the Cenote: sacrifice a worker for a tseek'{boosted}; the worker {place}"
    if block == WILD:
        return f"pay with a tseek' instead of 1 {RESOURCES[i]}"
    if block == WILD_SACRIFICE:
        return "pay the sacrifice with a tseek' (your worker already lies on the Offering)"
    return "pay the rest with goods"


def _shown_score(state: np.ndarray, p: int, viewer: int | None) -> int:
    """The score as `viewer` may know it: another player's Destiny card counts only at the end."""
    score = score_of(state, p)
    if state[VARIANT + V_DESTINY] and not state[TERMINAL] and p != viewer:
        score -= destiny_points(state, p)
    return score


def _expansion_words(state: np.ndarray, p: int, viewer: int | None) -> str:
    parts = []
    if state[VARIANT + V_CENOTE]:
        slots = [int(state[OFFER_SLOT_WORKERS + k * MAX_PLAYERS + p]) for k in range(OFFERINGS_SHOWN)]
        parts.append(
            f"tseek' {int(state[RES + p * NUM_RES + TSEEK])} (+{int(state[TSEEK_ON_OFFERINGS + p])} on "
            f"Offerings); on the Cenote {int(state[CENOTE_WORKERS + p])}"
            f"{' (sent this round)' if state[CENOTE_USED + p] else ''}; on Offering slots {slots}"
        )
    if state[VARIANT + V_DESTINY]:
        card = destiny_of(state, p)
        if p == viewer or state[TERMINAL]:
            kind = DESTINY_KINDS[int(DESTINY_KIND[card])]
            parts.append(
                f"Destiny D{card} ({int(DESTINY_COUNT[card])} {kind} cards; store "
                f"{amount_words(DESTINY_GOODS[card])})"
            )
        else:
            parts.append("Destiny hidden")
    return "; " + "; ".join(parts) if parts else ""


def cenote_line(state: np.ndarray) -> str:
    """The Cenote tile: its tseek' and the payment being decided."""
    line = f"Cenote: {int(state[TSEEK_SUPPLY])} tseek' left"
    if state[PAY_ACTION] >= 0:
        wild = [int(state[PAY_WILD + g]) for g in range(GOODS)]
        line += (
            f"; paying for: {describe_action(state, int(state[PAY_ACTION]))}; tseek' replace "
            f"{amount_words(np.array(wild + [0, 0]))} and {int(state[PAY_SACRIFICE])} sacrifices"
        )
    return line


# -- the events since a player's last turn (play, serve) -------------------------------------
def describe_step(before: np.ndarray, action: int, after: np.ndarray, viewer: int | None = None) -> list[str]:
    """What one decision did, as `viewer` may know it: the set-up Heritage card stays secret
    (only that one was played) until every player has played one; every other decision is
    public. Then the tiles it turned face up and the day or the game it ended."""
    player = int(before[CURRENT_PLAYER])
    block, _ = ACTIONS.block_of(int(action))
    if block == HERITAGE_SETUP and player != viewer:
        lines = [f"player_{player} played a Heritage card face down (revealed once everyone has)"]
    else:
        lines = [f"player_{player}: {describe_action(before, action, player)}"]
    if before[PHASE] == PHASE_HERITAGE and after[PHASE] != PHASE_HERITAGE:
        lines.append("  every player has played a Heritage card: they are revealed")
    for position in range(MAX_POSITIONS):
        if not _face_up(before, position) and _face_up(after, position):
            lines.append(f"  position {position + 1} turned face up: {_tile_name(after, position)}")
    if after[TERMINAL] and not before[TERMINAL]:
        lines.append("  the game is over")
    return lines
