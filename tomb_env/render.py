"""Text (ANSI) and picture renderings of a Tomb Trader state, and words for actions.

A rendering with a viewer shows what that player may know (its character, its stash, its
location's negotiation, its own secret choice and vote); without a viewer, only what is
public."""

from __future__ import annotations

import numpy as np

from tomb_env.data import (
    CHARACTER_NAMES,
    KIND_NAMES,
    KIND_VALUE,
    LOCATION_NAMES,
    MAX_LOCATION_CARDS,
    MAX_PLAYERS,
    MAX_ROUNDS,
    NUM_CARDS,
)
from tomb_env.kernels import card_kind, card_value, known_score, legal_mask, player_score, stash_size
from tomb_env.observe import knows_owner
from tomb_env.state import (
    ACTIONS,
    ASSIGN,
    CALL,
    CALL_CARD,
    CARD_OWNER,
    CARD_PLACE,
    CARD_PUBLIC,
    CHARACTER,
    CHOICE,
    CHOOSE,
    CLAIM_CARD,
    CLAIM_COUNT,
    CLAIM_NEXT,
    DECK_TOP,
    FORCE,
    FORCE_PASS,
    FORCED,
    GOLD,
    LAST_ASSIGN,
    LAST_GOLD,
    LAST_VALID,
    LAST_VOTES,
    LEAVE,
    LOCATION,
    LONE_LIMIT,
    LONE_TAKEN,
    NEG_ASSIGN,
    NEG_GOLD,
    NEG_LIMIT,
    NEG_MADE,
    NEG_PROPOSER,
    NEG_STAGE,
    NO_CARD,
    NO_LOCATION,
    NOBODY,
    NUM_LOCATIONS,
    NUM_ROUNDS,
    OUTCOME,
    OUTCOME_NAMES,
    PHASE,
    PHASE_CALL,
    PHASE_CHOOSE,
    PHASE_FORCE,
    PHASE_NEGOTIATE,
    PHASES,
    PLACE_DISCARD,
    PLACE_STASH,
    PROPOSE,
    ROUND,
    SLOT_CARD,
    SLOT_COUNT,
    SNAKE,
    STAGE_ASSIGN,
    STAGE_LONE,
    STAGE_TRANSFER,
    STAGE_VOTE,
    TAKE,
    TRANSFER,
    VOTE,
    VOTE_NONE,
    VOTES,
)
from treasure_core.ansi import paint
from treasure_core.header import CURRENT_PLAYER, NUM_PLAYERS, TERMINAL
from treasure_core.svg import Svg, Targets, action_buttons, legal_actions, legend

_BOLD = "\x1b[1m"
_RED = "\x1b[31m"
_GREEN = "\x1b[32m"
_YELLOW = "\x1b[33m"
_STAGE_NAMES = ("idle", "assigning cards", "adding gold payments", "voting", "lone player picking")


def card_name(state: np.ndarray, card: int) -> str:
    kind = int(card_kind(state, card))
    return f"{KIND_NAMES[kind]} ({int(KIND_VALUE[kind]):+d})"


def _seat(state: np.ndarray, player: int, k: int) -> int:
    return (player + k) % int(state[NUM_PLAYERS])


def describe_action(state: np.ndarray, action: int, player: int | None = None) -> str:
    """Words for an action of `player` (default: the player to act): seats in actions are
    relative to the player deciding, so the words name the absolute seat."""
    player = int(state[CURRENT_PLAYER]) if player is None else int(player)
    block, i = ACTIONS.block_of(action)
    if block is FORCE:
        target = _seat(state, player, 1 + i // 2)
        return f"use the weapon: send player_{target} to the {LOCATION_NAMES[i % 2]}"
    if block is FORCE_PASS:
        return "do not use the weapon"
    if block is CHOOSE:
        return f"go to the {LOCATION_NAMES[i]}"
    loc = int(state[LOCATION + player])
    if block is ASSIGN:
        slot = 0
        if loc != NO_LOCATION:
            slot = sum(
                1
                for s in range(MAX_LOCATION_CARDS)
                if state[NEG_ASSIGN + loc * MAX_LOCATION_CARDS + s] != NOBODY
            )
            card = int(state[SLOT_CARD + loc * MAX_LOCATION_CARDS + min(slot, MAX_LOCATION_CARDS - 1)])
            if card != NO_CARD:
                return f"give {card_name(state, card)} to player_{_seat(state, player, i)}"
        return f"give the next card to player_{_seat(state, player, i)}"
    if block is TRANSFER:
        return f"player_{_seat(state, player, i // 6)} pays 1 gold to player_{_seat(state, player, i % 6)}"
    if block is PROPOSE:
        return "proposal complete: call the vote"
    if block is VOTE:
        return "accept the proposal" if i else "reject the proposal"
    if block is TAKE:
        if loc != NO_LOCATION:
            card = int(state[SLOT_CARD + loc * MAX_LOCATION_CARDS + i])
            if card != NO_CARD:
                return f"take {card_name(state, card)}"
        return f"take the card in slot {i}"
    if block is LEAVE:
        return "take no more"
    if block is CALL:
        return "call heads" if i == 0 else "call tails"
    raise AssertionError(f"no words for the {block.name} block")


def _location_line(state: np.ndarray, loc: int) -> str:
    cards = [
        int(state[SLOT_CARD + loc * MAX_LOCATION_CARDS + s]) for s in range(int(state[SLOT_COUNT + loc]))
    ]
    there = [f"player_{p}" for p in range(int(state[NUM_PLAYERS])) if state[LOCATION + p] == loc]
    text = f"{LOCATION_NAMES[loc]:>10}: " + (", ".join(card_name(state, c) for c in cards) if cards else "-")
    if there:
        text += f"   [{', '.join(there)}]"
    return text


def _negotiation_lines(state: np.ndarray, viewer: int, colour: bool) -> list[str]:
    loc = int(state[LOCATION + viewer])
    if state[PHASE] != PHASE_NEGOTIATE or loc == NO_LOCATION:
        return []
    stage = int(state[NEG_STAGE + loc])
    proposer = int(state[NEG_PROPOSER + loc])
    count = int(state[SLOT_COUNT + loc])
    lines = [paint(f"At the {LOCATION_NAMES[loc]}: {_STAGE_NAMES[stage]}", _BOLD, colour)]
    if stage in (STAGE_ASSIGN, STAGE_TRANSFER, STAGE_VOTE):
        lines.append(
            f"  proposal {int(state[NEG_MADE + loc])} of {int(state[NEG_LIMIT + loc])}, by player_{proposer}:"
        )
        for s in range(count):
            owner = int(state[NEG_ASSIGN + loc * MAX_LOCATION_CARDS + s])
            card = card_name(state, int(state[SLOT_CARD + loc * MAX_LOCATION_CARDS + s]))
            lines.append(f"    {card} -> {'?' if owner == NOBODY else f'player_{owner}'}")
        gold = [int(state[NEG_GOLD + loc * MAX_PLAYERS + p]) for p in range(int(state[NUM_PLAYERS]))]
        if any(gold):
            lines.append("    gold: " + ", ".join(f"player_{p} {g:+d}" for p, g in enumerate(gold) if g))
    if stage == STAGE_VOTE and state[VOTES + viewer] != VOTE_NONE:
        lines.append(f"  your vote: {'accept' if state[VOTES + viewer] else 'reject'} (secret)")
    if stage == STAGE_LONE:
        taken = [
            card_name(state, int(state[SLOT_CARD + loc * MAX_LOCATION_CARDS + s]))
            for s in range(count)
            if state[LONE_TAKEN + loc * MAX_LOCATION_CARDS + s]
        ]
        lines.append(
            f"  player_{proposer} alone, may take {int(state[LONE_LIMIT + loc])}: {', '.join(taken) or '-'}"
        )
    if state[LAST_VALID + loc]:
        votes = [
            f"player_{p} {'accepted' if state[LAST_VOTES + p] else 'rejected'}"
            for p in range(int(state[NUM_PLAYERS]))
            if state[LOCATION + p] == loc and state[LAST_VOTES + p] != VOTE_NONE
        ]
        owners = [int(state[LAST_ASSIGN + loc * MAX_LOCATION_CARDS + s]) for s in range(count)]
        gold = [int(state[LAST_GOLD + loc * MAX_PLAYERS + p]) for p in range(int(state[NUM_PLAYERS]))]
        text = ", ".join(f"p{o}" for o in owners)
        if any(gold):
            text += "; gold " + ", ".join(f"p{p} {g:+d}" for p, g in enumerate(gold) if g)
        lines.append(f"  failed proposal: {text} ({', '.join(votes)})")
    return lines


def render_ansi(state: np.ndarray, viewer: int | None = None, colour: bool = True) -> str:
    """The table, every player's public position, and for `viewer` its own secrets."""
    n = int(state[NUM_PLAYERS])
    r = int(state[ROUND])
    rounds = int(state[NUM_ROUNDS])
    if state[TERMINAL]:
        head = f"Tomb Trader, game over after {rounds} rounds"
    else:
        head = f"Tomb Trader, round {r + 1} of {rounds}, phase {PHASES[int(state[PHASE])]}"
    lines = [paint(head, _BOLD, colour), f"deck: {52 - int(state[DECK_TOP])} cards"]
    if not state[TERMINAL]:
        lines += [_location_line(state, 0), _location_line(state, 1)]
    if r > 0 or state[TERMINAL]:
        past = min(r, rounds) - 1 if not (state[PHASE] == PHASE_CALL) else r
        if past >= 0:
            lines.append(
                f"round {past + 1}: Inner {OUTCOME_NAMES[int(state[OUTCOME + past * 2])]}, "
                f"Outer {OUTCOME_NAMES[int(state[OUTCOME + past * 2 + 1])]}"
            )
    acting = int(state[CURRENT_PLAYER])
    for p in range(n):
        marks = []
        if state[FORCED + p] != NO_LOCATION:
            marks.append(f"forced to the {LOCATION_NAMES[int(state[FORCED + p])]}")
        if state[SNAKE + p]:
            marks.append("bitten: location at random")
        if viewer == p and state[CHOICE + p] != NO_LOCATION:
            marks.append(f"chose the {LOCATION_NAMES[int(state[CHOICE + p])]} (secret)")
        known = [
            card_name(state, c)
            for c in range(NUM_CARDS)
            if state[CARD_PLACE + c] == PLACE_STASH
            and state[CARD_OWNER + c] == p
            and (knows_owner(state, viewer, c) if viewer is not None else False)
        ]
        public = [
            card_name(state, c)
            for c in range(NUM_CARDS)
            if viewer is None
            and state[CARD_PLACE + c] == PLACE_STASH
            and state[CARD_OWNER + c] == p
            and state[CARD_PUBLIC + c]
        ]
        tag = " (you)" if viewer == p else ""
        to_act = " <- to act" if p == acting and not state[TERMINAL] and viewer in (None, p) else ""
        line = f"  player_{p}{tag}: gold {int(state[GOLD + p])}, stash {stash_size(state, p)} cards{to_act}"
        if viewer == p or state[TERMINAL]:
            line += f", {CHARACTER_NAMES[int(state[CHARACTER + p])]}, value {known_score(state, p)}"
        lines.append(paint(line, _YELLOW, colour) if viewer == p else line)
        if marks:
            lines.append("      " + "; ".join(marks))
        shown = known if viewer is not None else public
        if shown:
            lines.append("      known: " + ", ".join(shown))
    if viewer is not None and 0 <= viewer < n and not state[TERMINAL]:
        lines += _negotiation_lines(state, viewer, colour)
        if state[PHASE] == PHASE_FORCE and state[CLAIM_NEXT] < state[CLAIM_COUNT]:
            card = int(state[CLAIM_CARD + state[CLAIM_NEXT]])
            lines.append(f"player_{int(state[CARD_OWNER + card])} may use a {card_name(state, card)}")
        if state[PHASE] == PHASE_CALL and state[CALL_CARD] != NO_CARD:
            card = int(state[CALL_CARD])
            owner = int(state[CARD_OWNER + card])
            lines.append(f"player_{owner} calls the coin flip for {card_name(state, card)}")
    discards = [card_name(state, c) for c in range(NUM_CARDS) if state[CARD_PLACE + c] == PLACE_DISCARD]
    lines.append(f"discard ({len(discards)}): " + (", ".join(discards) if discards else "-"))
    if state[TERMINAL]:
        points = [player_score(state, p) for p in range(n)]
        lines.append(paint(f"final values: {points}", _GREEN if colour else "", colour))
    return "\n".join(lines)


_CARD = 18  # pixels per card


def _card_colour(state: np.ndarray, card: int) -> tuple[int, int, int]:
    value = int(card_value(state, card))
    if value < 0:
        return (200, 50 + 20 * (3 + value), 40)
    return (40, 110 + 25 * min(value, 5), 60)


def render_rgb(state: np.ndarray) -> np.ndarray:
    """Two rows for the Inner and the Outer Tomb (cards coloured by value, green good, red
    bad), then one row per player: gold in yellow, stash size in grey. Public information only."""
    n = int(state[NUM_PLAYERS])
    width = _CARD * 24
    height = _CARD * (3 + 2 * 2 + n * 2)
    image = np.full((height, width, 3), 25, np.uint8)
    for loc in range(2):
        top = _CARD * (1 + loc * 2)
        for s in range(int(state[SLOT_COUNT + loc])):
            card = int(state[SLOT_CARD + loc * MAX_LOCATION_CARDS + s])
            left = _CARD * (1 + s * 2)
            image[top : top + _CARD, left : left + _CARD + _CARD // 2] = _card_colour(state, card)
    for p in range(n):
        top = _CARD * (6 + p * 2)
        gold = int(state[GOLD + p])
        image[top : top + _CARD // 2, _CARD : _CARD + gold * _CARD // 2] = (220, 190, 40)
        size = stash_size(state, p)
        image[top + _CARD // 2 : top + _CARD, _CARD : _CARD + size * _CARD // 3] = (150, 150, 150)
        if p == int(state[CURRENT_PLAYER]) and not state[TERMINAL]:
            image[top : top + _CARD, 2:8] = 255
        loc = int(state[LOCATION + p])
        if loc != NO_LOCATION:
            image[top : top + _CARD, width - 3 * _CARD : width - 2 * _CARD] = (
                (90, 60, 160) if loc == 0 else (60, 140, 170)
            )
    return image


# -- the events since a player's last turn (play, serve) -------------------------------------
def describe_step(before: np.ndarray, action: int, after: np.ndarray, viewer: int | None = None) -> list[str]:
    """What one decision did, as `viewer` may know it: a location choice and a vote stay secret
    (only that they were made) until the rules reveal them all together; every other decision
    is public, but only the players at a location see its negotiation. Then the reveals, the
    outcomes of the locations and a new round."""
    player = int(before[CURRENT_PLAYER])
    block, _ = ACTIONS.block_of(int(action))
    here = int(before[LOCATION + player])
    there = viewer is not None and before[PHASE] == PHASE_NEGOTIATE and before[LOCATION + viewer] == here
    if before[PHASE] == PHASE_NEGOTIATE and player != viewer and not there:
        # Only the players at a location see its negotiation.
        lines = [f"player_{player} negotiates at the {LOCATION_NAMES[here]} (where you are not)"]
    elif block in (CHOOSE, VOTE) and player != viewer:
        made = "chose a location" if block is CHOOSE else "voted"
        lines = [f"player_{player} {made} (secret until everyone has)"]
    else:
        lines = [f"player_{player}: {describe_action(before, action, player)}"]
    n = int(before[NUM_PLAYERS])
    if before[PHASE] == PHASE_CHOOSE and after[PHASE] != PHASE_CHOOSE:
        where = [
            f"player_{p} to the {LOCATION_NAMES[int(after[LOCATION + p])]}"
            for p in range(n)
            if after[LOCATION + p] != NO_LOCATION
        ]
        lines.append("  revealed: " + (", ".join(where) or "nobody went"))
    for loc in range(NUM_LOCATIONS):
        seen = viewer is not None and before[LOCATION + viewer] == loc
        if seen and before[NEG_STAGE + loc] == STAGE_VOTE and after[NEG_STAGE + loc] != STAGE_VOTE:
            if after[NEG_STAGE + loc] in (STAGE_ASSIGN, STAGE_TRANSFER):
                votes = [
                    f"player_{p} {'accepted' if after[LAST_VOTES + p] else 'rejected'}"
                    for p in range(n)
                    if after[LOCATION + p] == loc and after[LAST_VOTES + p] != VOTE_NONE
                ]
                lines.append(f"  the proposal at the {LOCATION_NAMES[loc]} failed ({', '.join(votes)})")
            else:
                lines.append(f"  the vote at the {LOCATION_NAMES[loc]} is over")
    # A location's outcome is public at the end of its round.
    first, last = int(before[ROUND]), int(after[ROUND]) + (1 if after[TERMINAL] else 0)
    for past in range(first, min(last, MAX_ROUNDS)):
        outcomes = ", ".join(
            f"{LOCATION_NAMES[loc]} {OUTCOME_NAMES[int(after[OUTCOME + past * NUM_LOCATIONS + loc])]}"
            for loc in range(NUM_LOCATIONS)
        )
        lines.append(f"  round {past + 1} is over: {outcomes}")
    if after[ROUND] != before[ROUND] and not after[TERMINAL]:
        lines.append(f"  round {int(after[ROUND]) + 1} begins")
    return lines


# -- the SVG board (render_mode="svg") --------------------------------------------------------
_CARD_W, _CARD_H = 92, 50


def _card_fill(value: int) -> str:
    if value < 0:
        return ("#f4b0a0", "#e87860", "#d04030")[min(-value, 3) - 1]
    return ("#e8e8e0", "#cfe8c0", "#a8d890", "#80c868", "#58b048")[min(value, 4)]


def _svg_card(
    doc: Svg, x: float, y: float, state: np.ndarray, card: int, actions: list[int], tip: str
) -> None:
    kind = int(card_kind(state, card))
    value = int(KIND_VALUE[kind])
    doc.rect(
        x,
        y,
        _CARD_W,
        _CARD_H,
        _card_fill(value),
        rx=5,
        actions=actions,
        tip=tip,
        stroke="#ff7f00" if actions else "#222222",
        stroke_width=3 if actions else 1,
    )
    doc.text(x + _CARD_W / 2, y + 21, KIND_NAMES[kind], size=10, anchor="middle", actions=actions, tip=tip)
    doc.text(
        x + _CARD_W / 2,
        y + 39,
        f"{value:+d}",
        size=13,
        anchor="middle",
        weight="bold",
        actions=actions,
        tip=tip,
    )


def _seat_actions(state: np.ndarray, seat: int) -> list[int]:
    """The actions that name `seat` as a player: the weapon sends it, the proposer gives it the
    next card, or it pays gold (relative seats, as the action blocks count them)."""
    n = int(state[NUM_PLAYERS])
    k = (seat - int(state[CURRENT_PLAYER])) % n
    actions = [ASSIGN.start + k] + [TRANSFER.start + k * 6 + j for j in range(n)]
    if k > 0:
        actions += [FORCE.start + (k - 1) * 2 + loc for loc in range(2)]
    return actions


def render_svg(state: np.ndarray, viewer: int | None = None) -> str:
    """The table as an SVG document: the Inner and the Outer Tomb with their cards (coloured by
    value) and who is there, every player's gold, stash, marks and the cards of its stash the
    viewer knows, the negotiation, the discard pile and a legend. A seat's view shows what
    render_ansi shows it (its character, its choice, its vote, its location's proposal); the
    full view (viewer None) shows every character, stash, choice, vote and negotiation. Targets:
    a location to choose, a card to take, a player to give a card to, send or make pay, and a
    button for each other legal action."""
    n = int(state[NUM_PLAYERS])
    full = viewer is None
    targets = Targets(legal_actions(state, viewer, legal_mask, ACTIONS.size))
    doc = Svg("Tomb Trader")
    r, rounds = int(state[ROUND]), int(state[NUM_ROUNDS])
    view = "full view" if full else f"player_{viewer}'s view"
    if state[TERMINAL]:
        head = f"Tomb Trader, game over after {rounds} rounds ({view})"
    else:
        head = f"Tomb Trader, round {r + 1} of {rounds}, phase {PHASES[int(state[PHASE])]} ({view})"
    doc.text(10, 22, head, size=16, weight="bold")
    doc.text(10, 40, f"deck: {52 - int(state[DECK_TOP])} cards", size=11)
    y = 56
    for loc in range(2):
        actions = targets.take([CHOOSE.start + loc])
        tip = describe_action(state, CHOOSE.start + loc) if actions else LOCATION_NAMES[loc]
        doc.rect(
            10,
            y,
            560,
            _CARD_H + 34,
            ("#ddd0f0", "#d0e8f0")[loc],
            rx=8,
            actions=actions,
            tip=tip,
            stroke="#ff7f00" if actions else "#222222",
            stroke_width=3 if actions else 1,
        )
        doc.text(20, y + 16, LOCATION_NAMES[loc], size=13, weight="bold", actions=actions, tip=tip)
        there = [f"player_{p}" for p in range(n) if state[LOCATION + p] == loc]
        doc.text(130, y + 16, ("there: " + ", ".join(there)) if there else "", size=11)
        if not state[TERMINAL]:
            for s in range(int(state[SLOT_COUNT + loc])):
                card = int(state[SLOT_CARD + loc * MAX_LOCATION_CARDS + s])
                mine = loc == int(state[LOCATION + int(state[CURRENT_PLAYER])])
                take = targets.take([TAKE.start + s]) if mine else []
                words = describe_action(state, TAKE.start + s) if take else card_name(state, card)
                _svg_card(doc, 20 + s * (_CARD_W + 8), y + 26, state, card, take, words)
        y += _CARD_H + 44
    if r > 0 or state[TERMINAL]:
        past = min(r, rounds) - 1 if not (state[PHASE] == PHASE_CALL) else r
        if past >= 0:
            doc.text(
                10,
                y + 4,
                f"round {past + 1}: Inner {OUTCOME_NAMES[int(state[OUTCOME + past * 2])]}, "
                f"Outer {OUTCOME_NAMES[int(state[OUTCOME + past * 2 + 1])]}",
                size=11,
            )
            y += 18
    acting = int(state[CURRENT_PLAYER])
    for p in range(n):
        actions = targets.take(_seat_actions(state, p)) if not state[TERMINAL] else []
        known = [
            c
            for c in range(NUM_CARDS)
            if state[CARD_PLACE + c] == PLACE_STASH
            and state[CARD_OWNER + c] == p
            and (full or knows_owner(state, viewer, c))
        ]
        height = 40 + (_CARD_H * 0.6 + 6 if known else 0)
        tip = "; ".join(describe_action(state, a) for a in actions) if actions else f"player_{p}"
        doc.rect(
            10,
            y,
            560,
            height,
            "#fff6d0" if p == viewer else "#f4f4f4",
            rx=6,
            actions=actions,
            tip=tip,
            stroke="#ff7f00" if actions else "#222222",
            stroke_width=3 if actions else 1,
        )
        tag = " (you)" if viewer == p else ""
        to_act = "  <- to act" if p == acting and not state[TERMINAL] and viewer in (None, p) else ""
        words = f"player_{p}{tag}: gold {int(state[GOLD + p])}, stash {stash_size(state, p)} cards{to_act}"
        if full or viewer == p or state[TERMINAL]:
            words += f"; {CHARACTER_NAMES[int(state[CHARACTER + p])]}, value {known_score(state, p)}"
        doc.text(18, y + 16, words, size=11, weight="bold" if p == acting else None, actions=actions, tip=tip)
        for g in range(int(state[GOLD + p])):
            doc.circle(560 - 9 * g, y + 12, 4, "#e8c020", tip="1 gold")
        marks = []
        if state[FORCED + p] != NO_LOCATION:
            marks.append(f"forced to the {LOCATION_NAMES[int(state[FORCED + p])]}")
        if state[SNAKE + p]:
            marks.append("bitten: location at random")
        if (full or viewer == p) and state[CHOICE + p] != NO_LOCATION:
            marks.append(f"chose the {LOCATION_NAMES[int(state[CHOICE + p])]} (secret)")
        if full and state[VOTES + p] != VOTE_NONE:
            marks.append(f"votes {'accept' if state[VOTES + p] else 'reject'} (secret)")
        if marks:
            doc.text(18, y + 32, "; ".join(marks), size=10)
        for k, card in enumerate(known):
            x = 18 + k * 58
            kind = int(card_kind(state, card))
            value = int(KIND_VALUE[kind])
            doc.rect(x, y + 38, 54, _CARD_H * 0.6, _card_fill(value), rx=3, tip=card_name(state, card))
            doc.text(x + 27, y + 38 + 18, f"{KIND_NAMES[kind][:8]} {value:+d}", size=8, anchor="middle")
        y += height + 6
    lines: list[str] = []
    if not state[TERMINAL]:
        if full:
            for loc in range(2):
                here = [p for p in range(n) if state[LOCATION + p] == loc]
                if here:
                    lines += [x for x in _negotiation_lines(state, here[0], False) if "your vote" not in x]
        elif 0 <= viewer < n:
            lines += _negotiation_lines(state, viewer, False)
        if full or 0 <= viewer < n:
            if state[PHASE] == PHASE_FORCE and state[CLAIM_NEXT] < state[CLAIM_COUNT]:
                card = int(state[CLAIM_CARD + state[CLAIM_NEXT]])
                lines.append(f"player_{int(state[CARD_OWNER + card])} may use a {card_name(state, card)}")
            if state[PHASE] == PHASE_CALL and state[CALL_CARD] != NO_CARD:
                card = int(state[CALL_CARD])
                lines.append(
                    f"player_{int(state[CARD_OWNER + card])} calls the coin flip for {card_name(state, card)}"
                )
    for line in lines:
        doc.text(10, y + 12, line, size=11)
        y += 16
    discards = [c for c in range(NUM_CARDS) if state[CARD_PLACE + c] == PLACE_DISCARD]
    doc.text(10, y + 14, f"discard ({len(discards)}):", size=11, weight="bold")
    for k, card in enumerate(discards):
        value = int(card_value(state, card))
        x, row = 100 + (k % 24) * 20, y + 4 + (k // 24) * 20
        doc.rect(x, row, 17, 17, _card_fill(value), tip=card_name(state, card))
        doc.text(x + 8.5, row + 12, f"{value:+d}", size=8, anchor="middle")
    y += 26 + (len(discards) // 24) * 20
    if state[TERMINAL]:
        doc.text(
            10, y + 10, f"final values: {[player_score(state, p) for p in range(n)]}", size=12, weight="bold"
        )
        y += 20
    rest = sorted(targets.legal - targets.reached)
    y = action_buttons(doc, 10, y + 6, targets.take(rest), lambda a: describe_action(state, a))
    entries = [
        ("box", _card_fill(-3), "card worth -3"),
        ("box", _card_fill(-1), "card worth -1"),
        ("box", _card_fill(0), "card worth 0"),
        ("box", _card_fill(2), "card worth +2"),
        ("box", _card_fill(4), "card worth +4 or more"),
        ("dot", "#e8c020", "1 gold"),
        ("box", "#ddd0f0", "the Inner Tomb"),
        ("box", "#d0e8f0", "the Outer Tomb"),
        ("box", "#fff6d0", "your row (a seat's view)"),
        ("ring", "#ff7f00", "orange edge: a target"),
        ("box", "#eef2ff", "button: another action"),
    ]
    legend(doc, 10, y + 6, entries)
    return doc.document()
