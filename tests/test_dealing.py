from pokerbot.protocol.dealing import Dealer, MersenneTwister
from pokerbot.protocol.matchlog import parse_state_line
from tests.conftest import Reference


def test_mt19937_matches_the_reference_generator():
    # The first outputs of MT19937 seeded with init_genrand(5489), the C++ std::mt19937 default.
    rng = MersenneTwister(5489)
    assert [rng.next_uint32() for _ in range(3)] == [3499211612, 581869302, 3890346734]


def test_same_seed_same_deals_as_the_reference_dealer(reference: Reference):
    dealer = Dealer(reference.game, reference.seed)
    hands = 0
    for line in reference.log_lines:
        if not line.startswith("STATE"):
            continue
        logged = parse_state_line(line, reference.game)
        deal = dealer.deal()
        assert list(deal.hole_cards) == logged.state.hole_cards, f"hand {logged.hand_number}"
        shown = logged.state.board_cards
        assert deal.board_cards[: len(shown)] == shown, f"hand {logged.hand_number}"
        hands += 1
    assert hands == int(reference.log_lines[0].split()[-2])


def test_different_seeds_deal_differently():
    from pokerbot.protocol.game import load_game

    game = load_game("holdem-nolimit-2p")
    assert Dealer(game, 1).deal() != Dealer(game, 2).deal()
    assert Dealer(game, 1).deal() == Dealer(game, 1).deal()
