"""Tomb Trader's option deck: "library" (the default, six invented kinds marked assumed) and
"rulebook" (only the kinds the rulebook names, 52 cards filling the round card's 47 and 50 plus
the Fortune Decks' draws; docs/games/tomb.md, Assumptions)."""

from __future__ import annotations

import numpy as np

from tomb_env import data, kernels
from tomb_env.env import raw_env
from tomb_env.state import CARD_FROM, CARD_LINK, CARD_OWNER, CARD_SET, DECK_TOP, FROM_DRAWN, NO_CARD
from treasure_core.agents import RandomAgent, play_game

ASSUMED_KINDS = {
    "Satchel",
    "Four-Leaf Clover",
    "Offering Bowl",
    "Curse Scroll",
    "Cursed Skull",
    "Rotten Bandages",
}


def test_every_invented_kind_is_marked_assumed() -> None:
    assert {name for name, *_rest, source in data.KINDS if source == "assumed"} == ASSUMED_KINDS


def test_the_rulebook_deck_has_only_named_kinds_and_fills_the_round_card() -> None:
    counts = data.DECK_KIND_COUNT[data.DECK_RULEBOOK]
    assert int(counts.sum()) == 52
    assert all(counts[data.KIND[name]] == 0 for name in ASSUMED_KINDS)
    draws = int(counts[data.DECK_KIND_EFFECT[data.DECK_RULEBOOK] == data.EFFECT_DRAW].sum())
    assert data.DECK_KIND_EFFECT[data.DECK_RULEBOOK, data.KIND["Fortune Deck"]] == data.EFFECT_DRAW
    for card, dealt in ((data.ROUND_CARD_3_4, 47), (data.ROUND_CARD_5_6, 50)):
        assert sum(map(sum, card)) == dealt and dealt + draws <= 52


def test_a_rulebook_game_deals_only_named_kinds_and_the_fortune_deck_draws() -> None:
    drew = 0
    for n, seed in ((3, 1), (4, 2), (5, 3), (6, 4)):
        env = raw_env(num_players=n, deck="rulebook")
        play_game(env, [RandomAgent(seed * 10 + p) for p in range(n)], seed=seed)
        state = env.get_state()
        assert state[CARD_SET] == data.DECK_RULEBOOK
        dealt = state[DECK_TOP]
        kinds = {
            data.KIND_NAMES[kernels.card_kind(state, int(c))]
            for c in state[kernels.DECK : kernels.DECK + dealt]
        }
        assert not kinds & ASSUMED_KINDS
        for card in range(data.NUM_CARDS):
            link = int(state[CARD_LINK + card])
            if link != NO_CARD:
                assert data.KIND_NAMES[kernels.card_kind(state, card)] == "Fortune Deck"
                assert (
                    state[CARD_FROM + link] == FROM_DRAWN
                    and state[CARD_OWNER + link] == state[CARD_OWNER + card]
                )
                drew += 1
    assert drew > 0


def test_the_library_deck_is_the_default() -> None:
    env = raw_env()
    env.reset(seed=0)
    state = env.get_state()
    assert state[CARD_SET] == data.DECK_LIBRARY
    assert np.array_equal(data.CARD_KIND, data.DECK_CARD_KIND[data.DECK_LIBRARY])
