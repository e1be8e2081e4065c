"""Check your own BPE: the first merge where a student's list parts from the reference, and why.

:func:`check_merges` trains the reference (:class:`~bpe_core.algorithms.trainer.Trainer`) on the same words and
settings under each tie-break rule, keeps the rule it agrees with longest (the settings' own rule when
rules agree equally long), and at the first step where the lists differ names a *cause*. Each cause is
recognised the same way: replay the merges both lists share under the alternative rule (a small loop
from :mod:`bpe_core.checking.mistakes`) and see whether the next merge it makes is the student's pair. The causes
are tried in this order; the first that fits is *the* cause and the others that fit are "also possible".
When several fit, each is also asked to make the student's next merges (up to :data:`LOOKAHEAD`), and the
one that makes the most of them wins, the order settling equals: at the first parting step a boundary
slip and a counting slip can pick the same pair, but they rarely agree on the next four too.

1. ``settings`` -- checked before any step: the student's merges use a symbol the reference alphabet
   lacks (bytes vs characters, ``</w>`` attached vs separate, another marker), or another variant's
   alphabet yields their pair.
2. ``tie-break`` -- the two pairs have the same count; :attr:`CheckReport.detail` names the known rules
   that pick theirs.
3. ``overlap-counting`` -- ``a a a`` counted as one ``(a, a)``.
4. ``word-frequency`` -- each word type counted once, not once per occurrence.
5. ``pre-tokenization`` -- another pre-tokenizer (``none``: no word boundaries at all) yields their pair.
6. ``application-order`` -- merges applied right to left, or overlapping (the scan stepping one place).
7. ``stop-rule`` -- the lists hold the same merges but one is longer (the missing side is ``None``).
8. ``unknown`` -- none of these.

Tokens are *wire* strings throughout (text for char/eow, GPT-2 byte aliases for bytes), the spelling of
``train --jsonl`` and ``merges.txt``; :mod:`bpe_core.formats.merge_lists` reads every input format into it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from .. import mistakes
from ..algorithms.seam import train
from ..algorithms.tiebreak import TIE_BREAKS, TieKey, base_alphabet
from ..byte_display import from_gpt2, to_gpt2
from ..config import TrainConfig
from ..pretokenize import PRETOKENIZERS, word_counts
from ..variants import Variant

CAUSES = (
    "settings",
    "tie-break",
    "overlap-counting",
    "word-frequency",
    "pre-tokenization",
    "application-order",
    "stop-rule",
    "unknown",
)
#: End-of-word markers tried when the student's symbols are not the settings' own.
OTHER_MARKERS = ("</w>", "_", "▁", "</s>", "#")
WORDS_SHOWN = 8
#: How many of the student's merges from the parting step on an alternative is asked to make: when several
#: alternatives make the student's pair, the one that also makes more of their next merges is the cause.
LOOKAHEAD = 5
#: The ``none`` pre-tokenizer (no word boundaries) is tried only on texts up to this many characters: the
#: whole text is then one word, and replaying each shared merge rescans all of it.
NONE_MAX_CHARS = 200_000


@dataclass
class CheckReport:
    """What :func:`check_merges` found.

    Attributes:
        identical: the lists are equal (all ``merges`` of them, under ``tie_break``).
        merges: how many merges the student's list holds.
        agree: the longest agreement, in merges, under ``tie_break``.
        tie_break: the rule of the reference compared with (``None`` only when nothing was trained).
        step: ``agree + 1`` when the lists part, else ``None``.
        yours / reference: the pairs at ``step`` (``(left, right)`` wire strings); ``None`` on the side that
            has no merge there (a ``stop-rule`` difference) or when identical.
        cause: one of :data:`CAUSES`, or ``"identical"``.
        also: the other causes that also yield the student's pair, in :data:`CAUSES` order.
        detail: what the cause found: ``rules`` (tie-break: the known rules that pick theirs),
            ``pretokenizer``, ``order`` (``right-to-left`` / ``overlapping``), ``variant`` / ``marker`` /
            ``eow_style`` / ``symbol`` (settings), ``crosses_boundary`` (bool), ``missing`` (stop-rule side).
        yours_count / reference_count: each pair's count in the reference's pair table before ``step``
            (0: the pair is not in the corpus under these settings; ``None``: no pair on that side).
        table: that pair table, ``[(left, right, count)]`` wire strings, best first in the ``tie_break`` order.
        words: the word types the two pairs occur in: ``[(word, frequency, tokens, has_yours, has_reference)]``
            (tokens: wire strings before ``step``), at most :data:`WORDS_SHOWN`.
        reference_merges: the reference list compared with (wire pairs).
        run: the reference :class:`~bpe_core.algorithms.run.TrainedRun` under ``tie_break`` (for drawing).
    """

    identical: bool
    merges: int
    agree: int
    tie_break: str | None
    step: int | None = None
    yours: tuple | None = None
    reference: tuple | None = None
    cause: str = "identical"
    also: list = field(default_factory=list)
    detail: dict = field(default_factory=dict)
    yours_count: int | None = None
    reference_count: int | None = None
    table: list = field(default_factory=list)
    words: list = field(default_factory=list)
    reference_merges: list = field(default_factory=list)
    run: object = None

    def as_json(self) -> dict:
        """The ``check --jsonl`` object (exactly the keys the issue names, in that order)."""
        return {
            "identical": self.identical,
            "merges": self.merges,
            "agree": self.agree,
            "tie_break": self.tie_break,
            "step": self.step,
            "yours": list(self.yours) if self.yours else None,
            "reference": list(self.reference) if self.reference else None,
            "cause": self.cause,
        }


# ------------------------------------------------------------------------------------ the state
def _symbols(words: dict, variant: Variant) -> list:
    """Each word type's base symbols as wire strings (a byte's wire string is one alias character)."""
    if variant.is_bytes:
        return [list(to_gpt2(w.encode("utf-8"))) for w in words]
    return [variant.symbols(w) for w in words]


def _alphabet(words: dict, variant: Variant) -> set:
    if variant.is_bytes:
        return {variant.wire(bytes((b,))) for b in range(256)}
    return {s for tokens in _symbols(words, variant) for s in tokens}


def _leaves(pairs: list) -> list:
    """The symbols a merge list starts from: every side that no earlier merge made, in order."""
    made: set = set()
    out: dict = {}
    for left, right in pairs:
        for side in (left, right):
            if side not in made:
                out.setdefault(side, None)
        made.add(left + right)
    return list(out)


def _value(wire: str, variant: Variant):
    return from_gpt2(wire) if variant.is_bytes else wire


def pick(counts: dict, rule: str, variant: Variant, base: list, merges: list):
    """The pair a merge takes from ``counts`` (``{(left, right): count}`` in first-appearance order, wire
    strings) under tie-break ``rule``, after ``merges`` were made from the base symbols ``base`` (wire
    strings). ``None`` when ``counts`` is empty. Uses :class:`~bpe_core.algorithms.tiebreak.TieKey`, the rules' one
    definition."""
    tied = mistakes.best_pairs(counts)
    if len(tied) <= 1 or rule == "first-seen":
        return tied[0] if tied else None
    try:
        values = base_alphabet([_value(s, variant) for s in base], variant)
        key = TieKey(rule, values)
        ids = {v: i for i, v in enumerate(values)}
        for left, right in merges:
            new = _value(left + right, variant)
            if new not in ids:
                ids[new] = len(ids)
                key.add(new)
        return min(tied, key=lambda p: key(ids[_value(p[0], variant)], ids[_value(p[1], variant)]))
    except (KeyError, ValueError):  # a symbol outside this alphabet: no rule can rank it
        return tied[0]


# ------------------------------------------------------------------------------------ the causes
def _settings_variants(config: TrainConfig, markers: tuple = ()) -> list:
    """Other settings a student may have used: the other variants, the other marker style, and the
    ``markers`` besides the settings' own."""
    own = config.make_variant()
    out = [Variant("eow", style, config.eow_marker) for style in ("separate", "attached")]
    out = [v for v in out if own.kind == "eow"] + [Variant("char"), Variant("byte")]
    for marker in dict.fromkeys((config.eow_marker, *markers)):
        out += [Variant("eow", "separate", marker), Variant("eow", "attached", marker)]
    # The same kind with the other marker style first: the nearest slip; never the settings themselves.
    return [v for v in dict.fromkeys(out) if v != own and not (own.kind != "eow" and v.kind == own.kind)]


def _describe(variant: Variant) -> dict:
    if variant.kind == "eow":
        return {"variant": "eow", "eow_style": variant.eow_style, "marker": variant.eow_marker}
    return {"variant": variant.kind}


def _foreign_symbols(words: dict, config: TrainConfig, yours: list):
    """``(symbol, settings)`` when the student's merges start from a symbol the reference alphabet lacks
    and other settings (:func:`_settings_variants`) spell every symbol they start from; else ``None``."""
    alphabet = _alphabet(words, config.make_variant())
    leaves = _leaves(yours)
    foreign = [s for s in leaves if s not in alphabet]
    if not foreign:
        return None
    for variant in _settings_variants(config, OTHER_MARKERS):
        if all(s in _alphabet(words, variant) for s in leaves):
            return foreign[0], variant
    return None  # no settings spell these symbols: a list that uses tokens it never made, not a settings slip


def corpus_text(words_of: Callable[[TrainConfig], dict[str, int]], config: TrainConfig) -> str | None:
    """The corpus as one text, for :func:`check_merges` to split afresh with the other pre-tokenizers;
    ``None`` for a word-count list (the check then joins its words, :func:`_text_of`).

    Args:
        words_of: the corpus's splitter, ``config -> {word: frequency}`` (a text pre-tokenized by the
            config, or a word-count list whatever the config).
        config: the settings; only its pre-tokenizer is replaced (by ``none``, no pattern).

    Split with the ``none`` pre-tokenizer a text is one word seen once; a word-count list stays its words."""
    whole = words_of(dataclasses.replace(config, pretokenizer="none", pattern=None))
    if len(whole) == 1 and next(iter(whole.values())) == 1:
        return next(iter(whole))
    return None


def _text_of(words: dict) -> str:
    """A word-frequency list as running text (each word as often as it occurs, spaces between), for the
    pre-tokenizers to split afresh."""
    return " ".join(w for w, f in words.items() for _ in range(f))


@dataclass
class Alternative:
    """One way of training (the reference's, or one mistake): the words it starts from and its rules.

    ``any_tied``: a merge is explained when the pair is *one of* the best (a tie broken another way);
    otherwise only when it is the pair the report's tie-break rule picks."""

    variant: Variant
    words: list  # each word type's base symbols (wire strings)
    weights: list  # each word type's frequency
    counter: object = mistakes.count_per_occurrence
    apply: object = mistakes.merge_left_to_right
    any_tied: bool = False

    def explains(self, yours: list, k: int, rule: str) -> int:
        """How many of the student's merges ``k + 1 ..`` (at most :data:`LOOKAHEAD`) this way of training
        makes, after replaying their first ``k`` (0: not even merge ``k + 1``)."""
        base = sorted({s for t in self.words for s in t})
        state = mistakes.replay(self.words, yours[:k], self.apply)
        done = 0
        for j in range(k, min(len(yours), k + LOOKAHEAD)):
            counts = self.counter(state, self.weights)
            pair = yours[j]
            if not counts:
                break
            if self.any_tied:
                if pair not in mistakes.best_pairs(counts):
                    break
            elif pick(counts, rule, self.variant, base, yours[:j]) != pair:
                break
            done += 1
            state = [self.apply(t, *pair) if len(t) > 1 else t for t in state]
        return done


def _alternatives(words: dict, config: TrainConfig, text: str | None):
    """``(cause, detail, Alternative)`` for each alternative, in :data:`CAUSES` order (tie-break aside)."""
    own = config.make_variant()
    own_words = _symbols(words, own)
    freqs = list(words.values())
    for variant in _settings_variants(config):
        yield "settings", _describe(variant), Alternative(variant, _symbols(words, variant), freqs)
    for cause, counter in mistakes.COUNTERS.items():
        yield cause, {}, Alternative(own, own_words, freqs, counter=counter)
    source = text if text is not None else _text_of(words)
    for name in PRETOKENIZERS:
        if name == config.resolved_pretokenizer or (name == "none" and len(source) > NONE_MAX_CHARS):
            continue
        alt_words = word_counts(source, name)
        yield (
            "pre-tokenization",
            {"pretokenizer": name},
            Alternative(own, _symbols(alt_words, own), list(alt_words.values())),
        )
    for order, apply in mistakes.APPLIERS.items():
        yield "application-order", {"order": order}, Alternative(own, own_words, freqs, apply=apply)


# ------------------------------------------------------------------------------------ the check
def reference_merges(words: dict, config: TrainConfig) -> tuple[list, object]:
    """``(merges as wire pairs, the TrainedRun)`` of the reference trainer under ``config``."""
    run = train(words, config)  # (through the algorithm registry: config.algorithm)
    return [(run.token_wire(a), run.token_wire(b)) for a, b in run.merges()], run


def _agreement(a: list, b: list) -> int:
    n = 0
    for x, y in zip(a, b):
        if tuple(x) != tuple(y):
            break
        n += 1
    return n


def check_merges(words: dict[str, int], config: TrainConfig, yours: list, text: str | None = None) -> CheckReport:
    """Compare a student's merges with the reference trained on ``words`` under ``config``.

    Args:
        words: ``{word: frequency}``, first-appearance order (:func:`bpe_core.algorithms.trainer.corpus_words`).
        config: the settings; with neither ``num_merges`` nor ``vocab_size`` the reference trains
            ``len(yours)`` merges, else as many as they say (a different length is a ``stop-rule`` difference).
        yours: the student's merges, ``[(left, right)]`` wire strings (:func:`bpe_core.formats.merge_lists.read_merge_list`).
        text: the corpus text, re-split by the other pre-tokenizers (``None``: the words joined by spaces).

    Returns:
        A :class:`CheckReport`. Raises ``ValueError`` for bad settings.
    """
    yours = [tuple(p) for p in yours]
    if config.num_merges is None and config.vocab_size is None:
        config = dataclasses.replace(config, num_merges=len(yours))
    config = config.validate()
    refs = {}
    for rule in TIE_BREAKS:
        refs[rule] = reference_merges(words, dataclasses.replace(config, tie_break=rule))
    order = [config.tie_break] + [r for r in TIE_BREAKS if r != config.tie_break]
    same = [r for r in order if refs[r][0] == yours]
    if same:
        ref, run = refs[same[0]]
        return CheckReport(True, len(yours), len(yours), same[0], reference_merges=ref, run=run)
    agree = {r: _agreement(refs[r][0], yours) for r in order}
    rule = max(order, key=lambda r: agree[r])  # max keeps the first of equals: the settings' own rule
    ref, run = refs[rule]
    k = agree[rule]
    report = CheckReport(False, len(yours), k, rule, step=k + 1, reference_merges=ref, run=run)
    report.yours = yours[k] if k < len(yours) else None
    report.reference = ref[k] if k < len(ref) else None
    _fill_table(report, run, k)
    _find_cause(report, words, config, yours, text)
    return report


def _fill_table(report: CheckReport, run, k: int) -> None:
    wire = run.token_wire
    report.table = [(wire(a), wire(b), c) for a, b, c in run.pair_table(k)]
    counts = {(a, b): c for a, b, c in report.table}
    report.yours_count = counts.get(report.yours, 0) if report.yours else None
    report.reference_count = counts.get(report.reference, 0) if report.reference else None
    wanted = {p for p in (report.yours, report.reference) if p}
    for i in range(run.num_words):
        tokens = [wire(t) for t in run.segmentation(i, k)]
        present = set(zip(tokens, tokens[1:])) & wanted
        if present:
            word, freq = run.word(i)
            report.words.append((word, freq, tokens, report.yours in present, report.reference in present))
            if len(report.words) >= WORDS_SHOWN:
                break


def _find_cause(report: CheckReport, words: dict, config: TrainConfig, yours: list, text: str | None) -> None:
    found: list = []  # (cause, detail, merges explained)
    foreign = _foreign_symbols(words, config, yours[: report.step])
    if foreign:  # settings come before any step: nothing else can explain a symbol the corpus lacks
        symbol, variant = foreign
        found.append(("settings", {"symbol": symbol, **_describe(variant)}, LOOKAHEAD + 1))
    if report.yours is None or report.reference is None:
        if not found:
            found.append(("stop-rule", {"missing": "yours" if report.yours is None else "reference"}, 1))
        _settle(report, found)
        return
    y, rule, k = report.yours, report.tie_break, report.agree
    own = config.make_variant()
    if report.yours_count == report.reference_count:
        counts = {(a, b): c for a, b, c in report.table}
        own_base = sorted({s for t in _symbols(words, own) for s in t})
        rules = [t for t in TIE_BREAKS if pick(counts, t, own, own_base, yours[:k]) == y]
        tied = Alternative(own, _symbols(words, own), list(words.values()), any_tied=True)
        found.append(("tie-break", {"rules": rules}, tied.explains(yours, k, rule)))
    for cause, detail, alternative in _alternatives(words, config, text):
        if any(c == cause for c, _d, _n in found):
            continue  # one detail per cause is enough (the first pre-tokenizer, the first order)
        n = alternative.explains(yours, k, rule)
        if n:
            found.append((cause, detail, n))
    if report.yours_count == 0:
        for cause, detail, _n in found:
            if cause == "pre-tokenization":
                detail["crosses_boundary"] = True
    # The cause is the first in CAUSES order among those that make the most of the student's next merges.
    found.sort(key=lambda cdn: (-cdn[2], CAUSES.index(cdn[0])))
    if not found:
        found.append(("unknown", {}, 0))
    _settle(report, found)


def _settle(report: CheckReport, found: list) -> None:
    """The first cause found is the cause; the others (one per cause) are also possible."""
    report.cause, report.detail, _n = found[0]
    seen = {report.cause}
    for cause, _detail, _n in sorted(found[1:], key=lambda cdn: CAUSES.index(cdn[0])):
        if cause not in seen:
            report.also.append(cause)
            seen.add(cause)
