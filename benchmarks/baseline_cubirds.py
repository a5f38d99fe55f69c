"""Hand-written plain-Python CuBirds with random players, used as a speed baseline for the benchmarks."""

import random
import sys
import time

NUM_SPECIES = 8
COPIES = (7, 10, 10, 13, 13, 17, 20, 20)
SMALL_FLOCK = (2, 3, 3, 4, 4, 5, 6, 6)
BIG_FLOCK = (3, 4, 4, 6, 6, 7, 9, 9)
TOTAL_CARDS = sum(COPIES)  # 110

NUM_ROWS = 4
ROW_SIZE = 3
HAND_SIZE = 8
TURN_LIMIT = 1000
LEFT, RIGHT = 0, 1


class _Exhausted(Exception):
    """A card had to be drawn but the deck and the discard pile are both empty."""


class CuBirds:
    """One game. Cards are species ids 0..7; the top of the deck is the END of the list."""

    def __init__(self, num_players, seed):
        self.n = num_players
        self.rng = random.Random(seed)
        self.deck = [s for s in range(NUM_SPECIES) for _ in range(COPIES[s])]
        self.rng.shuffle(self.deck)
        self.discard = []
        self.rows = [[] for _ in range(NUM_ROWS)]
        self.hands = [[0] * NUM_SPECIES for _ in range(num_players)]  # counts per species
        self.collections = [[0] * NUM_SPECIES for _ in range(num_players)]
        self.turns = 0
        self.decisions = 0

        for row in self.rows:
            while len(row) < ROW_SIZE:
                card = self.draw()
                if card in row:
                    self.discard.append(card)
                else:
                    row.append(card)
        self.deal_hands()
        for coll in self.collections:
            coll[self.draw()] += 1
        self.current = self.rng.randrange(num_players)

    # -- cards -------------------------------------------------------------

    def draw(self):
        if not self.deck:
            if not self.discard:
                raise _Exhausted
            self.deck = self.discard
            self.discard = []
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    def deal_hands(self):
        for _ in range(HAND_SIZE):
            for hand in self.hands:
                hand[self.draw()] += 1

    def exhaustion_winners(self):
        totals = [sum(coll) for coll in self.collections]
        best = max(totals)
        return [p for p in range(self.n) if totals[p] == best]

    # -- turn --------------------------------------------------------------

    def lay(self, hand, species, row_index, end):
        """Lay all cards of `species` at one end of a row; return the number of cards surrounded."""
        row = self.rows[row_index]
        count = hand[species]
        hand[species] = 0
        taken = []
        if end == LEFT:
            if row[0] != species and species in row:
                i = row.index(species)
                taken = row[:i]
                del row[:i]
            row[:0] = [species] * count
        else:
            if row[-1] != species and species in row:
                i = len(row) - 1
                while row[i] != species:
                    i -= 1
                taken = row[i + 1:]
                del row[i + 1:]
            row.extend([species] * count)
        for card in taken:
            hand[card] += 1

        if taken and all(card == species for card in row):
            # Refill from the deck at the same end until a second species appears.
            while True:
                card = self.draw()
                if end == LEFT:
                    row.insert(0, card)
                else:
                    row.append(card)
                if card != species:
                    break
        return len(taken)

    def play_turn(self):
        """Play one turn of the current player; return the winners list if the game ended, else None."""
        rng = self.rng
        player = self.current
        hand = self.hands[player]

        # A. Lay birds (mandatory).
        options = [(s, r, e) for s in range(NUM_SPECIES) if hand[s]
                   for r in range(NUM_ROWS) for e in (LEFT, RIGHT)]
        species, row_index, end = rng.choice(options)
        self.decisions += 1
        taken = self.lay(hand, species, row_index, end)

        # Optional draw of 2 when nothing was surrounded.
        if not taken:
            self.decisions += 1
            if rng.choice((True, False)):
                hand[self.draw()] += 1
                hand[self.draw()] += 1

        # B. Complete a flock (optional).
        flock_options = [s for s in range(NUM_SPECIES) if hand[s] >= SMALL_FLOCK[s]]
        if flock_options:
            self.decisions += 1
            choice = rng.choice([None] + flock_options)
            if choice is not None:
                count = hand[choice]
                hand[choice] = 0
                flown = 2 if count >= BIG_FLOCK[choice] else 1
                self.collections[player][choice] += flown
                self.discard.extend([choice] * (count - flown))

        # End-of-turn checks.
        coll = self.collections[player]
        if (sum(1 for c in coll if c) >= 7
                or sum(1 for c in coll if c >= 3) >= 2):
            return [player], "win"
        if not any(hand):
            for h in self.hands:
                for s in range(NUM_SPECIES):
                    if h[s]:
                        self.discard.extend([s] * h[s])
                        h[s] = 0
            if len(self.deck) + len(self.discard) < HAND_SIZE * self.n:
                return self.exhaustion_winners(), "exhaustion"
            self.deal_hands()  # the same player starts the new round
        else:
            self.current = (player + 1) % self.n
        return None

    def play(self):
        while self.turns < TURN_LIMIT:
            self.turns += 1
            try:
                result = self.play_turn()
            except _Exhausted:
                return self.exhaustion_winners(), "exhaustion"
            if result is not None:
                return result
        return [], "turn_limit"

    def check_conservation(self):
        total = (len(self.deck) + len(self.discard)
                 + sum(len(row) for row in self.rows)
                 + sum(sum(h) for h in self.hands)
                 + sum(sum(c) for c in self.collections))
        assert total == TOTAL_CARDS, total
        per_species = [0] * NUM_SPECIES
        for card in self.deck + self.discard + [c for row in self.rows for c in row]:
            per_species[card] += 1
        for counts in self.hands + self.collections:
            for s in range(NUM_SPECIES):
                per_species[s] += counts[s]
        assert tuple(per_species) == COPIES, per_species


def play_game(num_players: int, seed: int, check: bool = False) -> dict:
    game = CuBirds(num_players, seed)
    winners, reason = game.play()
    if check:
        game.check_conservation()
    return {"turns": game.turns, "decisions": game.decisions,
            "winners": winners, "reason": reason}


if __name__ == "__main__":
    num_games = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    start = time.perf_counter()
    decisions = turns = 0
    for seed in range(num_games):
        result = play_game(3, seed)
        decisions += result["decisions"]
        turns += result["turns"]
    elapsed = time.perf_counter() - start
    print(f"{num_games} games in {elapsed:.3f}s: {num_games / elapsed:.1f} games/s, "
          f"{decisions / elapsed:.0f} decisions/s, {turns / num_games:.1f} turns/game")
