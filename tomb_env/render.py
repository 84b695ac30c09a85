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
from tomb_env.kernels import card_kind, card_value, known_score, player_score, stash_size
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
