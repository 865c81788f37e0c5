"""Swiss pairing (docs/tournaments.md, "Swiss"): pure functions, no database.

Two players (Dragon Master): a simplified Dutch system. Players are ranked by score, then
rating. With an odd number, the bye goes to the lowest-ranked player among those with the
fewest byes (nobody gets a second bye before everyone has had one). The first unpaired
player is paired within their score group with the player half a group below them (top half
against bottom half), else the nearest one, else a lower score group; no two players meet
twice: a backtracking search takes the next candidate (or another bye) when the rest cannot
be paired. Only when no pairing without a repeat exists at all (more rounds than opponents)
is a repeat allowed. In a small field the search also looks ahead: it takes the most
preferred pairing after which the rounds still to come can all be paired without a repeat
too (:func:`completable`), so that no late round dead-ends; past its budget it pairs one
round at a time.

More players a table (Fist, Farkle): each round the players, ranked the same way, are cut
into tables of the chosen size (sizes as even as the number allows); a table that would be
smaller than the game's minimum is filled with bots where the organiser allows it, else its
players get a bye.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Entrant:
    user_id: int
    score: float
    rating: float
    opponents: frozenset[int] = field(default_factory=frozenset)
    byes: int = 0


@dataclass(frozen=True, slots=True)
class Round:
    tables: list[tuple[int, ...]]  # user ids per table (seat order decided later)
    byes: list[int]
    bots: list[int] = field(default_factory=list)  # bots filling each table


def rank(entrants: Sequence[Entrant]) -> list[Entrant]:
    return sorted(entrants, key=lambda e: (-e.score, -e.rating, e.user_id))


#: the backtracking search's budget (candidate tries) before it allows repeats
SEARCH_BUDGET = 200_000
#: the lookahead (:func:`completable`) is tried for fields of at most this many players
LOOKAHEAD_PLAYERS = 16
#: the lookahead's budget (search nodes, for the whole round) before it gives up and the
#: round is paired as without it
LOOKAHEAD_BUDGET = 20_000


def pair_two(entrants: Sequence[Entrant], later: int = 0) -> Round:
    """A round of two-player games (module docs). ``later``: the rounds still to come after
    this one; in a small field the round is paired so that they can still be paired without
    a repeat (:func:`completable`), where the search finds such a pairing in its budget."""
    order = rank(entrants)
    # no more rounds without a repeat than a round robin has: look ahead to its end only
    played = max((len(e.opponents) + e.byes for e in order), default=0)
    robin = len(order) - 1 if len(order) % 2 == 0 else len(order)
    later = min(later, robin - played - 1)
    if later > 0 and len(order) <= LOOKAHEAD_PLAYERS:
        found = _pair_ahead(order, later)
        if found is not None:
            return found
    for strict in (True, False):
        budget = [SEARCH_BUDGET]
        for bye in _bye_candidates(order):
            rest = [e for e in order if e.user_id != bye] if bye is not None else order
            first = next(_match(rest, strict, budget), None)
            if first is not None:
                return Round([(a, b) for a, b in first], [] if bye is None else [bye])
            if budget[0] <= 0:
                break
    raise AssertionError("no pairing")  # without the repeat rule one always exists


def _pair_ahead(order: list[Entrant], later: int) -> Round | None:
    """The most preferred pairing without a repeat after which ``later`` more rounds can be
    paired without one (byes by the same rule); ``None`` if there is none, or the budget ran
    out first."""
    met = frozenset(frozenset((e.user_id, o)) for e in order for o in e.opponents)
    byes = {e.user_id: e.byes for e in order}
    people = tuple(sorted(byes))
    budget = [LOOKAHEAD_BUDGET]
    memo: dict[tuple[frozenset[frozenset[int]], tuple[int, ...], int], bool] = {}
    for bye in _bye_candidates(order):
        rest = [e for e in order if e.user_id != bye] if bye is not None else order
        after_byes = dict(byes)
        if bye is not None:
            after_byes[bye] += 1
        for pairs in _match(rest, True, budget):
            if budget[0] <= 0:
                return None
            now_met = met | {frozenset(p) for p in pairs}
            if completable(people, now_met, after_byes, later, budget, memo):
                return Round([(a, b) for a, b in pairs], [] if bye is None else [bye])
            if budget[0] <= 0:
                return None
    return None


def completable(people: tuple[int, ...], met: frozenset[frozenset[int]],
                byes: dict[int, int], rounds: int, budget: list[int],
                memo: dict[tuple[frozenset[frozenset[int]], tuple[int, ...], int], bool]
                ) -> bool:
    """Whether ``rounds`` more rounds of ``people`` can be paired with no pair in ``met``
    meeting (again), nor two people twice, each round's bye (an odd number) going to one of
    those with the fewest byes. A depth-first search over the rounds, the most constrained
    person paired first; ``budget[0]`` counts its nodes down (at 0 it answers ``False``)."""
    if rounds <= 0:
        return True
    counts = tuple(byes[u] for u in people)
    key = (met, counts, rounds)
    if key in memo:
        return memo[key]
    free = {u: frozenset(v for v in people if v != u and frozenset((u, v)) not in met)
            for u in people}
    # a person plays every later round but those of their byes: byes go round, so at most
    # their arrears plus a share of the rounds
    odd = len(people) % 2 == 1
    most = max(counts)
    if any(len(free[u]) < rounds - (most - byes[u] + -(-rounds // len(people)) if odd else 0)
           for u in people):
        memo[key] = False
        return False
    answer = False
    fewest = min(counts)
    candidates: list[int | None] = [u for u in people if byes[u] == fewest] if odd else [None]
    for bye in candidates:
        playing = frozenset(people) - ({bye} if bye is not None else set())
        after = dict(byes)
        if bye is not None:
            after[bye] += 1
        for pairs in _matchings(playing, free, budget):
            if budget[0] <= 0:
                return False
            if completable(people, met | {frozenset(p) for p in pairs}, after, rounds - 1,
                           budget, memo):
                answer = True
                break
        if answer or budget[0] <= 0:
            break
    if budget[0] > 0 or answer:
        memo[key] = answer
    return answer


def _matchings(playing: frozenset[int], free: dict[int, frozenset[int]],
               budget: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every pairing of ``playing`` along ``free`` (who may meet whom), the person with
    the fewest partners left paired first."""
    if not playing:
        yield []
        return
    budget[0] -= 1
    if budget[0] < 0:
        return
    top = min(playing, key=lambda u: (len(free[u] & playing), u))
    for other in sorted(free[top] & playing):
        for rest in _matchings(playing - {top, other}, free, budget):
            yield [(top, other), *rest]
            if budget[0] < 0:
                return


def _bye_candidates(order: list[Entrant]) -> list[int | None]:
    """Who may get the bye: the players with the fewest byes, lowest-ranked first."""
    if len(order) % 2 == 0:
        return [None]
    fewest = min(e.byes for e in order)
    return [e.user_id for e in reversed(order) if e.byes == fewest]


def _candidates(top: Entrant, rest: list[Entrant]) -> list[Entrant]:
    group = [e for e in rest if e.score == top.score]
    # top half against bottom half: with ``top`` the group has len(group) + 1 players
    half = (len(group) + 1) // 2 - 1
    ideal = min(max(half, 0), max(len(group) - 1, 0))
    ordered = group[ideal:] + list(reversed(group[:ideal]))
    return ordered + [e for e in rest if e.score != top.score]


def _match(order: list[Entrant], strict: bool,
           budget: list[int]) -> Iterator[list[tuple[int, int]]]:
    """The pairings of ``order`` (``strict``: without a repeat), the most preferred first
    (module docs)."""
    if not order:
        yield []
        return
    top, rest = order[0], order[1:]
    for other in _candidates(top, rest):
        budget[0] -= 1
        if budget[0] < 0:
            return
        if strict and other.user_id in top.opponents:
            continue
        for found in _match([e for e in rest if e is not other], strict, budget):
            yield [(top.user_id, other.user_id), *found]
            if budget[0] < 0:
                return


def table_sizes(n: int, size: int) -> list[int]:
    """``n`` players into tables of at most ``size``, sizes as even as possible."""
    if n <= 0:
        return []
    count = -(-n // size)
    base, extra = divmod(n, count)
    return [base + 1] * extra + [base] * (count - extra)


def pair_many(entrants: Sequence[Entrant], size: int, min_players: int,
              bots: bool) -> Round:
    """A round of tables of ``size`` players (module docs)."""
    order = [e.user_id for e in rank(entrants)]
    tables: list[tuple[int, ...]] = []
    fill: list[int] = []
    byes: list[int] = []
    at = 0
    for n in table_sizes(len(order), size):
        people = tuple(order[at:at + n])
        at += n
        if n >= min_players:
            tables.append(people)
            fill.append(0)
        elif bots:
            tables.append(people)
            fill.append(min_players - n)
        else:
            byes.extend(people)
    return Round(tables, byes, fill)
