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
from collections import deque
from dataclasses import dataclass
from itertools import compress, repeat
from operator import add, lt, mul, not_

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
    """Each chunk's replay (bytes of C ints), the right parts of the merges that could follow it and the tokens
    that could start it, made once per distinct chunk."""

    def __init__(self, stage1_run, merges: list):
        self.merges = merges
        self.steps_of: dict = {}
        self.rights: dict = {}
        for k, pair in enumerate(merges, 1):
            self.steps_of.setdefault(pair, []).append(k)
            self.rights.setdefault(pair[0], set()).add(pair[1])
        stage1_run._sync_removed()
        self.run = stage1_run
        self.cache: dict = {}

    def get(self, chunk: str) -> tuple:
        """``(replay as bytes, right parts that could follow, tokens that could start it)`` of ``chunk``."""
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
        rights = self.rights
        follow = set()
        for u in _last_tokens(data, removed):
            follow.update(rights.get(u, ()))
        info = self.cache[chunk] = (removed.tobytes(), follow, _first_tokens(data, removed))
        return info


def replay(stage1_run, pieces: list, merges: list, pretokenizer: str, pattern: str | None) -> Replayed:
    """Replay stage 1's ``merges`` (``[(left, right)]`` values, stage 1's run ``stage1_run`` trained them in that order
    on its words) on stage 2's ``pieces`` (``str``, in the order stage 2's trainer lays them out), cutting each piece
    by stage 1's ``pretokenizer`` and ``pattern`` (see the module doc). Returns :class:`Replayed`."""
    chunks = _Chunks(stage1_run, merges)
    get = chunks.get
    parts = []
    for piece in pieces:
        cut = pretokenize(piece, pretokenizer, pattern) if len(piece) > 1 else [piece]
        if "".join(cut) != piece:  # a pre-tokenizer that drops or changes text: GPT-2's pattern covers every piece
            cut = pretokenize(piece, "gpt2")
        text = cut[0]
        done, follow, _ = get(text)
        for chunk in cut[1:]:
            info = get(chunk)
            if follow.isdisjoint(info[2]):
                parts.append(done)
                text = chunk
            else:  # a merge could straddle the boundary: replay the two together
                text += chunk
                info = get(text)
            done, follow = info[0], info[1]
        parts.append(done)
    removed = array("i")
    removed.frombytes(b"".join(parts))
    fired = set(removed)
    fired.discard(0)
    renumber = [0] * (len(merges) + 1)
    kept, skipped = [], []
    for k, pair in enumerate(merges, 1):
        if k in fired:
            kept.append(pair)
            renumber[k] = len(kept)
        else:
            skipped.append(pair)
    if len(kept) < len(merges):
        removed = array("i", map(renumber.__getitem__, removed))
    return Replayed(removed, kept, skipped)


def lay_out(trainer, replayed: Replayed, flat: bytes, word_start) -> tuple:
    """Put ``replayed`` into a trainer being built on the same pieces (``Trainer(..., replayed=...)``; its per-byte
    tables made, no pair counted yet): the run gets one step per kept merge (:func:`_record`), the tables the
    tokens after them. ``flat``: the pieces' bytes in order; ``word_start``: each piece's first byte.

    Returns ``(width, keys, starts, pair_start)`` for the pair count: the pair key base, each pair's key
    (``left * width + right``) and its position, in position order, and the index of each piece's first pair."""
    run = trainer.run
    tok, nxt, prv, pos_word = trainer._tok, trainer._nxt, trainer._prv, trainer._pos_word
    removed = replayed.removed
    n = len(removed)
    _record(trainer, replayed, flat, word_start)
    live = list(compress(range(n), map(not_, removed)))  # every token's first byte
    ends = live[1:] + [n]
    ids = list(map(run.value_to_id.__getitem__, map(flat.__getitem__, map(slice, live, ends))))
    _scatter(tok, live, ids)
    _scatter(tok, compress(range(n), removed), repeat(-1))
    # A token's next is the next token if that one starts before its piece ends (then it is the next's previous).
    word_end = map(word_start.__getitem__, map(add, map(pos_word.__getitem__, live), repeat(1)))
    inside = list(map(lt, ends, word_end))
    _scatter(nxt, live, ends)
    _scatter(nxt, compress(live, map(not_, inside)), repeat(-1))
    _scatter(prv, compress(ends, inside), compress(live, inside))
    starts = list(compress(live, inside))
    width = len(run.values)
    keys = array(
        "Q",
        map(add, map(mul, map(tok.__getitem__, starts), repeat(width)), map(tok.__getitem__, compress(ends, inside))),
    )
    pair_start = array("q", (bisect_left(starts, s) for s in word_start))
    trainer._corpus_tokens = sum(map(trainer._freqs.__getitem__, map(pos_word.__getitem__, live)))
    return width, keys, starts, pair_start


def _record(trainer, replayed: Replayed, flat: bytes, word_start) -> None:
    """The replayed merges as the run's first steps: tokens, rewritten positions, boundary steps and snapshots
    (counts in stage 2's pieces, windows of a pair of one token counted as the trainer counts them; the pair
    alone in its table and in its ties: the pair was chosen by stage 1, not from these counts)."""
    run, freqs, pos_word = trainer.run, trainer._freqs, trainer._pos_word
    removed, kept = replayed.removed, replayed.kept
    buckets: list = [[] for _ in range(len(kept) + 1)]
    deque(
        map(list.append, map(buckets.__getitem__, compress(removed, removed)), compress(range(len(removed)), removed)),
        0,
    )
    run._removed_at[:] = removed
    run._removed_upto[0] = len(kept)
    events, ids, values = run._event_pos, run.value_to_id, run.values
    tokens = trainer._corpus_tokens
    rule = trainer.config.tie_break
    for step, (left, right) in enumerate(kept, 1):
        a, b = ids[left], ids[right]
        new_id, is_new = run._add_token(a, b, step)
        at = buckets[step]
        fs = list(map(freqs.__getitem__, map(pos_word.__getitem__, at)))
        merged = sum(fs)
        count = merged if a != b else merged + _overlaps(at, fs, values[a], flat, removed, word_start, pos_word, step)
        tokens -= merged
        events.extend(at)
        run._event_start.append(len(events))
        entry = ((-count, at[0] - len(left), a << _SHIFT | b),)
        words = len(set(map(pos_word.__getitem__, at)))
        run.snapshots.append(
            MergeStep(
                step, a, b, new_id, is_new, count, 1, entry, rule, entry, len(values), tokens, len(at), words, None
            )
        )


def _overlaps(at: list, fs: list, value: bytes, flat: bytes, removed, word_start, pos_word, step: int) -> int:
    """The windows of a pair ``(value, value)`` that merge ``step`` did not rewrite (``a a a`` holds two windows and
    is rewritten once), frequency-weighted: one after each run of rewrites followed by one more ``value``."""
    width = len(value)
    extra = 0
    for i, q in enumerate(at):
        after = q + width
        end = word_start[pos_word[q] + 1]
        if i + 1 < len(at) and at[i + 1] == q + 2 * width and after < end:
            extra += fs[i]  # the run goes on: the window between this rewrite and the next was not rewritten
            continue
        stop = after + width
        if stop > end or flat[after:stop] != value:
            continue
        if all(0 < removed[j] < step for j in range(after + 1, stop)) and (stop == end or not 0 < removed[stop] < step):
            extra += fs[i]
    return extra
