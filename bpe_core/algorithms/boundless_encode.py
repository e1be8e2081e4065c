"""A trained BoundlessBPE model: its encoder, its model folder, and one call from a text to a token count.

The encoder follows the reference's inference (``boundlessbpeinference.py``, ``FasterRegexInference``): the merges
(inside pre-tokens), removals and supermerges form one list in training order, and each is applied in that order
wherever it applies:

1. The text is pre-tokenized as in training (the model's pre-tokenizer) and each pre-token split into its bytes.
2. A merge joins its pair inside every pre-token, left to right; a removal splits its token back into single bytes
   (later merges may join the bytes again, never into the removed token).
3. A supermerge joins two neighbouring pre-tokens that are each one token, the pair's, left to right; the result is
   one token for good (no later merge or removal touches it, and a later supermerge may join it again).

As no step of one pre-token depends on another until it is a single token, each distinct pre-token is encoded once
(its single-token states through the list are kept) and the supermerges then walk the text's sequence.

The model folder holds one file, ``boundless.json`` (:data:`MODEL_FILE`): ``{"format": "bpe_explorer boundless",
"version": 1, "pretokenizer": name, "pattern": str | null, "tau": float | null, "steps": [[kind, left, right],
...]}`` in training order, kind ``"merge"``, ``"supermerge"`` or ``"removal"`` (``right`` ``""``), tokens written
with GPT-2's byte aliases as in ``merges.txt``. Ids: the 256 bytes, then each merge's token in order (a removed
token keeps its id). It cannot be a ``tokenizer.json``: no ``tokenizers`` model has removals or supermerges.
"""

from __future__ import annotations

import gettext
import json
from bisect import bisect_left, insort
from pathlib import Path

from ..byte_display import from_gpt2, to_gpt2
from ..inputs import InputError, read_json
from .reference import merge
from .removal import split_back

MODEL_FILE = "boundless.json"
FORMAT = "bpe_explorer boundless"


class BoundlessModel:
    """A trained BoundlessBPE model (the ``encode`` command's interface: ``encode``, ``token_value``,
    ``token_wires``).

    Args:
        steps: ``(kind, left, right)`` in training order: kind ``"merge"``, ``"supermerge"`` or ``"removal"``
            (``right`` ``b""``), tokens as bytes.
        pretokenizer, pattern: as :func:`bpe_core.pretokenize.pretokenize` takes them.
        tau: the training's removal threshold (kept for the record).
    """

    unk_id = None  # no unknown token: every byte has its id (the convention of bpe_core.measures.unknown_tokens)

    def __init__(self, steps: list[tuple], pretokenizer: str = "gpt2", pattern: str | None = None, tau=None):
        self.steps = [(kind, bytes(a), bytes(b)) for kind, a, b in steps]
        self.pretokenizer = pretokenizer
        self.pattern = pattern
        self.tau = tau
        self.vocab = [bytes((b,)) for b in range(256)]
        self.merges: dict = {}  # pair -> step index (inside pre-tokens)
        self.removals: dict = {}  # token -> step index
        self.supermerges: dict = {}  # (left token, right token) -> step index
        for k, (kind, a, b) in enumerate(self.steps):
            if kind == "removal":
                self.removals.setdefault(a, k)
                continue
            table = self.merges if kind == "merge" else self.supermerges
            table.setdefault((a, b), k)
            self.vocab.append(a + b)
        self.ids = {tok: i for i, tok in enumerate(self.vocab)}
        self._pieces: dict = {}  # pre-token -> (its final tokens, step indices, single-token states)

    @classmethod
    def from_events(cls, events, pretokenizer: str = "gpt2", pattern: str | None = None, tau=None):
        """The model of a training's :class:`~bpe_core.algorithms.boundless.BoundlessEvent` list."""
        steps = [("supermerge" if e.supermerge else e.kind, e.left, e.right) for e in events]
        return cls(steps, pretokenizer, pattern, tau)

    # ------------------------------------------------------------------------------------------ encoding
    def tokens(self, text: str) -> list[bytes]:
        """The tokens of ``text`` (rules 1 to 3 of the module's docstring)."""
        from ..pretokenize import pretokenize

        pieces = pretokenize(text, self.pretokenizer, self.pattern)
        states = [self._piece(p) for p in pieces]
        frozen: dict = {}  # position -> its token, once a supermerge made it
        if self.supermerges:
            self._supermerge(states, frozen)
        out: list[bytes] = []
        for i, state in enumerate(states):
            if state is None:
                continue  # joined to its left neighbour
            tok = frozen.get(i)
            if tok is None:
                out += state[0]
            else:
                out.append(tok)
        return out

    def _piece(self, piece: str) -> tuple:
        """One pre-token through the merges and removals: its final tokens, and the step indices at which it
        is a single token (``[(k, token or None), ...]``: from step k on, until the next entry)."""
        got = self._pieces.get(piece)
        if got is not None:
            return got
        tokens = [bytes((b,)) for b in piece.encode("utf-8")]
        if not tokens:  # (the pre-tokenizers give no empty piece; one would be no token)
            return [], [-1], [None]
        marks = [-1]
        singles = [tokens[0] if len(tokens) == 1 else None]
        merges, removals = self.merges, self.removals
        done = -1  # the last step applied: each applies once, in order
        while True:
            best, what = None, None
            for pair in zip(tokens, tokens[1:]):
                k = merges.get(pair)
                if k is not None and k > done and (best is None or k < best):
                    best, what = k, pair
            for tok in tokens:
                k = removals.get(tok)
                if k is not None and k > done and (best is None or k < best):
                    best, what = k, tok
            if best is None:
                break
            done = best
            if isinstance(what, tuple):
                tokens = merge(tokens, *what)
            else:
                tokens = split_back(tokens, what)
            single = tokens[0] if len(tokens) == 1 else None
            if single != singles[-1]:
                marks.append(best)
                singles.append(single)
        got = self._pieces[piece] = (tokens, marks, singles)
        return got

    def _supermerge(self, states: list, frozen: dict) -> None:
        """Rule 3 over the text's pre-tokens: ``states[i]`` becomes ``None`` when joined to its left neighbour,
        ``frozen[i]`` the token a supermerge made at position ``i``."""
        n = len(states)
        nxt = list(range(1, n + 1))

        def single(i: int, k: int):
            tok = frozen.get(i)
            if tok is not None:
                return tok
            _, marks, singles = states[i]
            return singles[bisect_left(marks, k) - 1]  # the state in force just before step k

        at: dict = {}  # token -> positions where it may stand alone, in order
        for i, (_, _, singles) in enumerate(states):
            for tok in set(singles):
                if tok is not None:
                    at.setdefault(tok, []).append(i)
        for (a, b), k in sorted(self.supermerges.items(), key=lambda item: item[1]):
            for i in list(at.get(a, ())):
                if states[i] is None or single(i, k) != a:
                    continue
                j = nxt[i]
                if j >= n or single(j, k) != b:
                    continue
                frozen[i] = a + b
                states[j] = None
                nxt[i] = nxt[j]
                insort(at.setdefault(a + b, []), i)

    def encode(self, text: str, dropout: float = 0.0, seed=None) -> list[int]:
        """The ids of ``text``. Raises :class:`InputError` for ``dropout`` (BPE-dropout is for plain BPE)."""
        if dropout:
            raise InputError(
                gettext.NullTranslations().gettext(
                    "--dropout applies to plain BPE models only; this is a BoundlessBPE model."
                )
            )
        ids = self.ids
        return [ids[t] for t in self.tokens(text)]

    def decode(self, ids: list[int]) -> str:
        """The text of ``ids`` (invalid UTF-8 replaced). Raises ``IndexError`` for an unknown id."""
        return b"".join(self.vocab[i] for i in ids).decode("utf-8", errors="replace")

    def token_value(self, tid: int) -> bytes:
        """The bytes of token ``tid``."""
        return self.vocab[tid]

    def token_wires(self, ids) -> list[str]:
        """The tokens of ``ids`` in GPT-2's byte aliases."""
        return [to_gpt2(self.vocab[i]) for i in ids]

    # ------------------------------------------------------------------------------------------ the folder
    def save(self, model_dir) -> Path:
        """Write ``model_dir/boundless.json`` (the folder is made); its path. Raises ``OSError``."""
        folder = Path(model_dir)
        folder.mkdir(parents=True, exist_ok=True)
        doc = {
            "format": FORMAT,
            "version": 1,
            "pretokenizer": self.pretokenizer,
            "pattern": self.pattern,
            "tau": self.tau,
            "steps": [[kind, to_gpt2(a), to_gpt2(b)] for kind, a, b in self.steps],
        }
        path = folder / MODEL_FILE
        path.write_text(json.dumps(doc, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
        return path


def load_boundless_model(model_dir) -> BoundlessModel | None:
    """The model of ``model_dir/boundless.json``; ``None`` when there is no such file. Raises :class:`InputError`
    (one line) for a file that is not JSON or not a BoundlessBPE model of ours."""
    path = Path(model_dir) / MODEL_FILE
    if not path.is_file():
        return None
    doc = read_json(path)
    try:
        if doc.get("format") != FORMAT or doc.get("version") != 1:
            raise ValueError("not a BoundlessBPE model of version 1")
        steps = []
        for kind, a, b in doc["steps"]:
            if kind not in ("merge", "supermerge", "removal"):
                raise ValueError(f"unknown step kind {kind!r}")
            steps.append((kind, from_gpt2(a), from_gpt2(b)))
        return BoundlessModel(steps, str(doc["pretokenizer"]), doc.get("pattern"), doc.get("tau"))
    except (AttributeError, KeyError, TypeError, ValueError) as err:
        raise InputError(f"{path}: the BoundlessBPE model is malformed ({err}).") from None


def boundless_token_counts(
    train_text: str,
    held_out: str,
    merge_counts: list[int],
    tau: float | None = 0.9,
    pretokenizer: str = "gpt2",
    pattern: str | None = None,
) -> dict[int, int]:
    """Train BoundlessBPE on ``train_text`` (one document) once, to the largest of ``merge_counts``, and count the
    tokens of ``held_out`` under the model of each count's first merges (the same model a training stopped at that
    count makes: training only appends steps). Bytes per token: ``len(held_out.encode()) / count``.

    Args:
        train_text, held_out: texts (``str``).
        merge_counts: numbers of merges of both kinds, each >= 0 (removals do not count; a count beyond the merges
            the text allows gets the whole training's model).
        tau: the removal threshold, 0 < tau <= 1, or ``None`` for no removals.
        pretokenizer, pattern: as :func:`bpe_core.pretokenize.pretokenize` takes them (default GPT-2's pattern).

    Returns:
        ``{merges: number of tokens of held_out}`` for each of ``merge_counts``.

    Raises:
        ValueError: a bad ``tau`` or a negative count; PatternError: a bad ``pattern``.
    """
    from .boundless import BoundlessTrainer, document_pieces

    if any(n < 0 for n in merge_counts):
        raise ValueError(f"merge counts must be >= 0, got {sorted(merge_counts)[0]}")
    most = max(merge_counts, default=0)
    events = BoundlessTrainer(document_pieces([train_text], pretokenizer, pattern), tau, num_merges=most).train()
    out = {}
    for n in merge_counts:
        # The steps before merge n + 1: its first n merges and the removals they caused.
        cut = next((i for i, e in enumerate(events) if e.kind == "merge" and e.merges > n), len(events))
        model = BoundlessModel.from_events(events[:cut], pretokenizer, pattern, tau)
        out[n] = len(model.tokens(held_out))
    return out


def boundless_token_count(
    train_text: str,
    held_out: str,
    num_merges: int,
    tau: float | None = 0.9,
    pretokenizer: str = "gpt2",
    pattern: str | None = None,
) -> int:
    """Train BoundlessBPE on ``train_text`` (one document) to ``num_merges`` merges and count the tokens of
    ``held_out`` under it (bytes per token: ``len(held_out.encode()) / count``). Arguments and errors as
    :func:`boundless_token_counts`; for several vocabulary sizes call that, which trains once."""
    return boundless_token_counts(train_text, held_out, [num_merges], tau, pretokenizer, pattern)[num_merges]
