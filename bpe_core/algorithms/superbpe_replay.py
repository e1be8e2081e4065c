"""Stage 2 of SuperBPE replays stage 1's merges on its pieces (:mod:`bpe_core.algorithms.superbpe`, module doc, 2):
done here before stage 2's tables are built, so the trainer takes only the new merges.

Replaying merges 1..t in order on a piece -- each merge applied left to right to every occurrence, one whose pair
does not occur a no-op -- is done piece by piece, and a piece in parts. A piece is cut into *chunks* by stage 1's
pre-tokenizer (most chunks are stage 1's own words, whose replay stage 1's run already holds: its training applied
the same merges in the same order to them). Two neighbouring chunks replay as if apart unless some merge ``(u, v)``
of the list could straddle their boundary: ``u`` a token that ends the left chunk at some step of its replay and
``v`` one that starts the right chunk (by induction on the steps: until a merge straddles the boundary, the pair
there is never an occurrence, so each side changes as it would alone). Where such a merge exists the two chunks are
joined and replayed together (e.g. ``"\\r\\n\\r" + "\\n"`` under GPT-2's pattern). A chunk that is not a word of
stage 1 is replayed by :func:`replay_word`, the replay itself.

What comes out, per byte of the pieces, is the step that removed the boundary in front of it (0: none): the merges
that removed no boundary anywhere are the ones stage 2 skips (their pair never occurs at their turn).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict, deque
from dataclasses import dataclass
from itertools import accumulate, chain, compress, count, islice, repeat
from operator import add, gt, itemgetter, lshift, mul, not_, or_

from ..pretokenize import pretokenize
from .run_records import _SHIFT, MergeStep
from .trainer_tables import _scatter

_NEVER = 1 << 62  # a boundary never removed, in the chain scans


@dataclass(frozen=True)
class Replayed:
    """Stage 1's merges replayed on stage 2's pieces.

    Attributes:
        removed: per byte of the pieces (concatenated in order), the stage-2 step (1-based, counting the merges
            kept) that removed the boundary in front of it; 0: never (a piece's first byte, a boundary left).
        kept: the merges that occurred, in order (``(left, right)`` values): stage 2's steps 1..len(kept).
        skipped: the merges whose pair did not occur at their turn, in order.
    """

    removed: array
    kept: list
    skipped: list


def replay_word(data: bytes, merges: list, steps_of: dict) -> array:
    """The replay of ``merges`` (1-based steps) on one byte string: per byte, the step that removed the boundary in
    front of it (0: never). ``steps_of`` maps each pair of values to its steps, ascending (a pair may be merged
    twice when a rebuilt token brings it back). The next merge is the first step after the last one applied whose
    pair occurs: the merges in between would be no-ops."""
    removed = array("i", bytes(4 * len(data)))
    toks = [data[i : i + 1] for i in range(len(data))]
    starts = list(range(len(data)))
    done = 0
    while len(toks) > 1:
        best = _NEVER
        for pair in zip(toks, toks[1:]):
            steps = steps_of.get(pair)
            if steps:
                i = bisect_right(steps, done)
                if i < len(steps) and steps[i] < best:
                    best = steps[i]
        if best == _NEVER:
            break
        left, right = merges[best - 1]
        out_t, out_s, i, n = [], [], 0, len(toks)
        while i < n:
            if i + 1 < n and toks[i] == left and toks[i + 1] == right:
                out_t.append(left + right)
                out_s.append(starts[i])
                removed[starts[i + 1]] = best
                i += 2
            else:
                out_t.append(toks[i])
                out_s.append(starts[i])
                i += 1
        toks, starts, done = out_t, out_s, best
    return removed


def _last_tokens(data: bytes, removed) -> list:
    """The tokens that end ``data`` at some step of its replay (``removed`` as :func:`replay_word` gives)."""
    out, latest = [], 0
    for p in range(len(data) - 1, 0, -1):
        r = removed[p] or _NEVER
        if r > latest:
            out.append(data[p:])
            latest = r
            if r == _NEVER:
                return out
    out.append(data)
    return out


def _first_tokens(data: bytes, removed) -> tuple:
    """The tokens that start ``data`` at some step of its replay."""
    out, latest = [], 0
    for q in range(1, len(data)):
        r = removed[q] or _NEVER
        if r > latest:
            out.append(data[:q])
            latest = r
            if r == _NEVER:
                return tuple(out)
    out.append(data)
    return tuple(out)


class _Chunks:
    """Each distinct chunk's replay (``(bytes of C ints, its last byte, its first byte)``, :meth:`get`) and, asked for
    where a merge might straddle two chunks, the right parts of the merges that could follow it and the tokens that
    could start it (:meth:`edges`)."""

    def __init__(self, stage1_run, merges: list):
        self.merges = merges
        self.steps_of: dict = {}
        self.rights: dict = {}
        for k, pair in enumerate(merges, 1):
            self.steps_of.setdefault(pair, []).append(k)
            self.rights.setdefault(pair[0], set()).add(pair[1])
        #: ``last byte << 8 | first byte`` of every merge's two parts: a boundary between two chunks whose bytes
        #: there are not such a pair has no merge straddling it, whatever the chunks' tokens.
        self.byte_pairs = {left[-1] << 8 | right[0] for left, right in merges}
        stage1_run._sync_removed()
        self.run = stage1_run
        self.cache: dict = {}
        # Stage 1's own words (most chunks), their replays read from its run all at once, in C.
        data = list(map(str.encode, stage1_run.words))
        if stage1_run.variant.is_bytes and all(data):
            starts = stage1_run._word_start
            removed = map(stage1_run._removed_at.__getitem__, map(slice, starts, islice(starts, 1, None)))
            lasts = map(lshift, map(itemgetter(-1), data), repeat(8))
            self.cache = dict(zip(stage1_run.words, zip(map(array.tobytes, removed), lasts, map(itemgetter(0), data))))
        self._edges: dict = {}

    def get(self, chunk: str) -> tuple:
        """``(replay as bytes of C ints, last byte << 8, first byte)`` of ``chunk``."""
        info = self.cache.get(chunk)
        if info is not None:
            return info
        data = chunk.encode("utf-8")
        run = self.run
        w = run.find_word(chunk)
        if w is not None and run._word_start[w + 1] - run._word_start[w] == len(data):
            removed = run._removed_at[run._word_start[w] : run._word_start[w + 1]]
        else:
            removed = replay_word(data, self.merges, self.steps_of)
        info = self.cache[chunk] = (removed.tobytes(), data[-1] << 8, data[0])
        return info

    def edges(self, chunk: str) -> tuple:
        """``(right parts of the merges that could follow chunk, tokens that could start it)``."""
        out = self._edges.get(chunk)
        if out is None:
            data = chunk.encode("utf-8")
            removed = array("i")
            removed.frombytes(self.get(chunk)[0])
            rights, follow = self.rights, set()
            for u in _last_tokens(data, removed):
                follow.update(rights.get(u, ()))
            out = self._edges[chunk] = (follow, _first_tokens(data, removed))
        return out

    def straddled(self, left: str, right: str) -> bool:
        """Whether a merge could straddle the boundary of the chunks ``left`` and ``right`` (module doc)."""
        return not self.edges(left)[0].isdisjoint(self.edges(right)[1])


def replay(stage1_run, pieces: list, merges: list, pretokenizer: str, pattern: str | None) -> Replayed:
    """Replay stage 1's ``merges`` (``[(left, right)]`` values, stage 1's run ``stage1_run`` trained them in that order
    on its words) on stage 2's ``pieces`` (``str``, in the order stage 2's trainer lays them out), cutting each piece
    by stage 1's ``pretokenizer`` and ``pattern`` (see the module doc). Returns :class:`Replayed`."""
    chunks = _Chunks(stage1_run, merges)
    get, cache, straddled = chunks.get, chunks.cache, chunks.straddled
    maybe = chunks.byte_pairs.__contains__
    parts = []
    for piece in pieces:
        cut = pretokenize(piece, pretokenizer, pattern) if len(piece) > 1 else [piece]
        if "".join(cut) != piece:  # a pre-tokenizer that drops or changes text: GPT-2's pattern covers every piece
            cut = pretokenize(piece, "gpt2")
        for chunk in set(cut).difference(cache):
            get(chunk)
        infos = list(map(cache.__getitem__, cut))
        # The boundaries whose two bytes some merge joins, found in C (most pieces have none but at line ends); of
        # those, the ones where a merge could straddle the chunks' tokens.
        bytes_there = map(or_, map(itemgetter(1), infos), map(itemgetter(2), islice(infos, 1, None)))
        at = 0  # the chunks before it are laid out
        for j in compress(range(len(cut)), map(maybe, bytes_there)):
            if j < at or not straddled(cut[j], cut[j + 1]):
                continue  # (inside a join already made; or no merge there after all)
            parts.extend(map(itemgetter(0), infos[at:j]))
            text, k = cut[j], j + 1
            while True:  # join while a merge could straddle the joined chunks and the next one
                text += cut[k]
                k += 1
                if k == len(cut) or not straddled(text, cut[k]):
                    break
            parts.append(get(text)[0])
            at = k
        parts.extend(map(itemgetter(0), infos[at:]))
    # The merges that fired somewhere, and stage 2's step numbers, worked out on the distinct replays (far fewer
    # numbers than the pieces' bytes).
    distinct = {part: array("i", part) for part in set(parts)}
    fired = set(chain.from_iterable(distinct.values()))
    renumber = [0] * (len(merges) + 1)
    kept, skipped = [], []
    for k, pair in enumerate(merges, 1):
        if k in fired:
            kept.append(pair)
            renumber[k] = len(kept)
        else:
            skipped.append(pair)
    if len(kept) < len(merges):
        for part, steps in distinct.items():
            distinct[part] = array("i", map(renumber.__getitem__, steps)).tobytes()
        parts = map(distinct.__getitem__, parts)
    removed = array("i")
    removed.frombytes(b"".join(parts))
    return Replayed(removed, kept, skipped)


def lay_out(trainer, replayed: Replayed, flat: bytes, word_start) -> tuple:
    """Put ``replayed`` into a trainer being built on the same pieces (``Trainer(..., replayed=...)``; its per-byte
    tables made, no pair counted yet): the run gets one step per kept merge (:func:`_record`), the tables the
    tokens after them. ``flat``: the pieces' bytes in order; ``word_start``: each piece's first byte.

    Returns ``(width, keys, starts, pair_start)`` for the pair count: the pair key base, each pair's key
    (``left * width + right``) and its position, in position order, and the index of each piece's first pair."""
    run = trainer.run
    tok, nxt, prv = trainer._tok, trainer._nxt, trainer._prv
    removed = replayed.removed
    n = len(removed)
    merged = _nonzero(removed)
    _record(trainer, replayed, flat, word_start, merged)
    # (Arrays, not lists: nothing for the garbage collector to walk, as in trainer_tables.)
    live = array("I", compress(count(), merged.translate(_IS_ZERO)))  # every token's first byte
    ends = live[1:]
    ends.append(n)
    ids = array("I", map(run.value_to_id.__getitem__, map(flat.__getitem__, map(slice, live, ends))))
    # A new token table: -1 (merged into the token on its left) but at the tokens' first bytes; index n stays the
    # sentinel -1 (trainer_tables).
    tok = trainer._tok = memoryview(array("i", (-1,)) * (n + 1))
    _scatter(tok, live, ids)
    # A token's next is the next token unless that one starts a piece (then it is the next's previous).
    piece_starts = bytearray(n + 1)
    _scatter(piece_starts, word_start, repeat(1))
    inside = bytearray(map(not_, map(piece_starts.__getitem__, ends)))
    _scatter(nxt, live, ends)
    _scatter(nxt, compress(live, map(not_, inside)), repeat(-1))
    _scatter(prv, compress(ends, inside), compress(live, inside))
    starts = array("I", compress(live, inside))
    width = len(run.values)
    # (The token after live[i] is live[i + 1]'s: ids[i + 1].)
    keys = array("Q", map(add, map(mul, compress(ids, inside), repeat(width)), compress(islice(ids, 1, None), inside)))
    pair_start = array("q", (bisect_left(starts, s) for s in word_start))
    return width, keys, starts, pair_start


def _nonzero(ints: array) -> bytes:
    """One byte per item of ``ints``: 0 where the item is 0, else not 0 (its bytes OR-ed together, in C)."""
    data, size = ints.tobytes(), ints.itemsize
    out = 0
    for k in range(size):
        out |= int.from_bytes(data[k::size], "little")
    return out.to_bytes(len(ints), "little")


_IS_ZERO = bytes((1,)) + bytes(255)  # (bytes.translate: 1 for a 0 byte, 0 for any other)


def _record(trainer, replayed: Replayed, flat: bytes, word_start, merged: bytes) -> None:
    """The replayed merges as the run's first steps: tokens, rewritten positions, boundary steps and snapshots
    (counts in stage 2's pieces, windows of a pair of one token counted as the trainer counts them; the pair
    alone in its table and in its ties: the pair was chosen by stage 1, not from these counts). ``merged``: per
    byte, not 0 where a replayed step removed the boundary in front of it (:func:`_nonzero`)."""
    run, freqs, pos_word = trainer.run, trainer._freqs, trainer._pos_word
    removed, kept = replayed.removed, replayed.kept
    # The rewritten positions of each step, in order (an array each, filled in C, joined as bytes).
    at_step: list = [array("Q") for _ in range(len(kept) + 1)]
    deque(map(array.append, map(at_step.__getitem__, compress(removed, merged)), compress(count(), merged)), 0)
    events = run._event_pos
    events.frombytes(b"".join(map(array.tobytes, at_step)))
    ends = array("Q", accumulate(map(len, at_step)))  # (step k's positions end at ends[k], start at ends[k - 1])
    run._event_start.extend(ends[1:])
    run._removed_at[:] = removed
    run._removed_upto[0] = len(kept)
    # Per step: the pieces it rewrote (each piece's distinct steps, counted in C: a few thousand long pieces) and the
    # extra copies of the pieces seen more than once (a few short ones: spaces, digits).
    word_ends = word_start[1:]
    pieces_of = Counter(chain.from_iterable(map(set, map(removed.__getitem__, map(slice, word_start, word_ends)))))
    copies: dict = defaultdict(int)
    for w in compress(count(), map(gt, freqs, repeat(1))):
        for step in removed[word_start[w] : word_ends[w]]:
            copies[step] += freqs[w] - 1
    ids, values = run.value_to_id, run.values
    tokens = trainer._corpus_tokens
    rule = trainer.config.tie_break
    for step, (left, right) in enumerate(kept, 1):
        a, b = ids[left], ids[right]
        new_id, is_new = run._add_token(a, b, step)
        at = at_step[step]
        merged = windows = len(at) + copies.get(step, 0)
        if a == b:
            windows += _overlaps(at, values[a], flat, removed, word_start, pos_word, freqs, step)
        tokens -= merged
        entry = ((-windows, at[0] - len(left), a << _SHIFT | b),)
        # (Every field in order, as the trainer makes them: tuple.__new__ skips MergeStep's own __new__.)
        fields = (step, a, b, new_id, is_new, windows, 1, entry, rule, entry, len(values), tokens, len(at))
        run.snapshots.append(tuple.__new__(MergeStep, (*fields, pieces_of[step], None)))
    trainer._corpus_tokens = tokens


def _overlaps(at: list, value: bytes, flat: bytes, removed, word_start, pos_word, freqs, step: int) -> int:
    """The windows of a pair ``(value, value)`` that merge ``step`` did not rewrite (``a a a`` holds two windows and
    is rewritten once), frequency-weighted: one after each run of rewrites followed by one more ``value``."""
    width = len(value)
    extra = 0
    for i, q in enumerate(at):
        after = q + width
        end = word_start[pos_word[q] + 1]
        if i + 1 < len(at) and at[i + 1] == q + 2 * width and after < end:
            extra += freqs[
                pos_word[q]
            ]  # the run goes on: the window between this rewrite and the next was not rewritten
            continue
        stop = after + width
        if stop > end or flat[after:stop] != value:
            continue
        if all(0 < removed[j] < step for j in range(after + 1, stop)) and (stop == end or not 0 < removed[stop] < step):
            extra += freqs[pos_word[q]]
    return extra
