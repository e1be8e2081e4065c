"""Why a merge was chosen and why training stopped, as values and as sentences.

Every explanation comes in two parts:

* a small frozen value computed from a finished :class:`bpe_core.TrainedRun`
  (:func:`merge_explanation`, :func:`stop_explanation`), so a user interface can draw its own chips
  and badges from the numbers;
* a ``*_text(value, ..., tr=None)`` function writing it as whole English sentences, or in the
  language of ``tr`` (a :class:`gettext.NullTranslations`; ``None`` is English).

:data:`TIE_RULES` is the one table of tie-break wording: the trainer's :data:`RULES`, the app's
labels and the merge explanation all read it.
"""

from __future__ import annotations

import gettext
import heapq
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from ..i18n import N_

_ENGLISH = gettext.NullTranslations()


@dataclass(frozen=True)
class TieRule:
    """The wording of one tie-break rule.

    Attributes:
        name: the rule's short name in a sentence (``"first-seen"``; translated where shown).
        title: the rule's name for learners, without code names (``"First seen"``).
        label: the rule's name with who uses it, for a picker.
        short: one clause, the rule in a merge card (``"the pair that appears first ... wins"``).
        why: why the rule picked the winner (``"its first occurrence comes earliest ..."``).
        rule: the full rule, with its sources.
    """

    name: str
    title: str
    label: str
    short: str
    why: str
    rule: str


#: The tie-break rules, by :data:`bpe_core.TIE_BREAKS` name (English; translate each field where shown).
TIE_RULES: dict[str, TieRule] = {
    "first-seen": TieRule(
        name=N_("first-seen"),
        title=N_("First seen"),
        label=N_("first-seen (textbook, minbpe, tiktoken's educational trainer)"),
        short=N_("the pair that appears first in the corpus wins"),
        why=N_("its first occurrence comes earliest in the corpus"),
        rule=N_(
            "Ties go to the pair seen first: word types in order of first appearance, then left to right "
            "(the textbook max(pairs, key=pairs.get) loop, tiktoken's _educational trainer, minbpe). How OpenAI "
            "trained the GPT tokenizers is not published, so no GPT tokenizer is known to follow this rule."
        ),
    ),
    "hf": TieRule(
        name=N_("Hugging Face"),
        title=N_("Hugging Face order"),
        label=N_("hf (Hugging Face tokenizers)"),
        short=N_("the pair with the smallest (left id, right id) wins"),
        why=N_("it has the smallest pair of token ids"),
        rule=N_(
            "Ties go to the smallest (id_left, id_right): ids go to the characters sorted by code point (byte-level: "
            "by the GPT-2 alias character), then to the end-of-word symbols, then to merged tokens in creation order "
            "(Hugging Face tokenizers' BpeTrainer). The rule is Hugging Face's for characters and bytes only. Hugging "
            "Face cannot keep the end-of-word marker as a separate symbol, so for that layout this order is the app's "
            "own extension; with the marker attached, Hugging Face numbers the x</w> symbols in a hash map's order "
            "(huggingface/tokenizers#1794) where this app uses code-point order."
        ),
    ),
    "lexical": TieRule(
        name=N_("lexical"),
        title=N_("Largest in code-point order"),
        label=N_("lexical (subword-nmt)"),
        short=N_("the (left, right) pair of strings that comes last in code-point order wins"),
        why=N_("its pair of strings is the largest in code-point order (a beats Z, b beats a)"),
        rule=N_(
            "Ties go to the (left, right) pair of strings that is largest in code-point order: left strings are "
            "compared first, then right strings, and the later one wins, so a beats Z (a is U+0061, Z U+005A) and b "
            "beats a (subword-nmt's learn_bpe takes the maximum)."
        ),
    ),
}


def rule_name(rule: str, tr: gettext.NullTranslations | None = None) -> str:
    """The short name of tie-break ``rule`` (a :data:`bpe_core.TIE_BREAKS` name) in the reader's language;
    an unknown name is returned as it is."""
    tie = TIE_RULES.get(rule)
    return (tr or _ENGLISH).gettext(tie.name) if tie else rule


def rule_summary(rule: str, tr: gettext.NullTranslations | None = None) -> str:
    """Tie-break ``rule`` named with what it does, for a handout or picture (``"first-seen (the pair that
    appears first in the corpus wins)"``), in the reader's language; an unknown name is returned as it is."""
    tie = TIE_RULES.get(rule)
    if tie is None:
        return rule
    t = tr or _ENGLISH
    return t.gettext("{rule} ({what})").format(rule=t.gettext(tie.name), what=t.gettext(tie.short))


#: The trainer's rules in one sentence each (the tie-break rules from :data:`TIE_RULES`); the keys are
#: ``counting``, ``applying``, each tie-break name, ``tokens`` and ``stopping``.
RULES: dict[str, str] = {
    "counting": N_(
        "Every adjacent pair inside each word type is counted, weighted by the word's frequency; "
        "overlapping windows all count (a a a holds (a, a) twice). Pairs never cross pre-token boundaries."
    ),
    "applying": N_("A merge rewrites each occurrence left to right without overlap: a a a becomes aa a."),
    **{name: tie.rule for name, tie in TIE_RULES.items()},
    "tokens": N_("A token is its string: two merges that build the same string give one vocabulary entry."),
    "stopping": N_(
        "Stop after the requested number of merges, when the vocabulary reaches the requested size, "
        "when the best pair's count is below the minimum frequency, or when no pair is left."
    ),
}


# ------------------------------------------------------------------------------------------ merges
@dataclass(frozen=True)
class WordShare:
    """How much of a merge's count one word type holds: ``total = windows * freq``."""

    word: str
    total: int
    windows: int
    freq: int


@dataclass(frozen=True)
class MergeExplanation:
    """The facts behind merge ``step`` (token ids, counts weighted by word frequency).

    Attributes:
        step, left, right, token, count: the merge and the count of its pair.
        shares: the word types holding the most of the count (largest first, first appearance
            breaking ties), at most ``max_words`` of them.
        rest_words, rest_total: how many other word types hold the rest of the count, and how much.
        overlapping: True when ``left == right`` (overlapping windows all count).
        ties: pairs tied at the highest count, the chosen one included (1: no tie).
        tie_break: the rule that chose among them.
        also_tied: up to three of the other tied pairs, as ``(left, right)`` ids.
        more_tied: how many more tied pairs are not in ``also_tied``.
        is_new: False when the merged string was already a token (the vocabulary does not grow).
        made_at: the step that first made ``token``.
    """

    step: int
    left: int
    right: int
    token: int
    count: int
    shares: tuple[WordShare, ...]
    rest_words: int
    rest_total: int
    overlapping: bool
    ties: int
    tie_break: str
    also_tied: tuple[tuple[int, int], ...]
    more_tied: int
    is_new: bool
    made_at: int


def merge_explanation(run, step: int, max_words: int = 3) -> MergeExplanation:
    """Explain merge ``step`` (1..``run.num_steps``) of a finished run.

    Counts come from the words the merge changed: in each, the (overlapping) windows of the pair
    in its segmentation before the merge (:meth:`~bpe_core.algorithms.run.TrainedRun.pair_windows`), times the
    word's frequency. Raises ``IndexError`` for a step outside the run.
    """
    snap = run.snapshot(step)
    a, b = snap.left, snap.right
    freqs = run.freqs
    # (occurrences, word index, windows) of every word the merge changed: thousands at a big corpus's first merges,
    # of which only the top ``max_words`` become shares.
    found = [(windows * freqs[idx], idx, windows) for idx, windows in run.pair_windows(step).items()]
    top = heapq.nsmallest(max_words, found, key=lambda c: (-c[0], c[1]))
    shares = tuple(WordShare(run.words[idx], total, windows, freqs[idx]) for total, idx, windows in top)
    others = tuple(snap.tied[1:4]) if snap.ties > 1 else ()
    return MergeExplanation(
        step=step,
        left=a,
        right=b,
        token=snap.token,
        count=snap.count,
        shares=shares,
        rest_words=len(found) - len(top),
        rest_total=sum(c[0] for c in found) - sum(c[0] for c in top),
        overlapping=a == b,
        ties=snap.ties,
        tie_break=snap.tie_break,
        also_tied=others,
        more_tied=max(0, snap.ties - 1 - len(others)),
        is_new=snap.is_new,
        made_at=run.created_step[snap.token],
    )


def word_ref(word: str, clip: Callable[[str], str] = lambda w: w) -> str:
    """A word for a sentence: quoted when it has anything but letters, digits and marks.

    ``clip`` shortens (and makes visible) the word for display; it is applied before quoting."""
    shown = clip(word)
    # A word longer than any quote is shown cut, so only its start decides (a text without spaces can be
    # one word of a megabyte, and this runs for every merge card).
    if all(c.isalnum() or unicodedata.category(c).startswith("M") for c in word[:1000]):
        return shown
    return f"“{shown}”"


def merge_text(
    ex: MergeExplanation,
    label: Callable[[int], str],
    word: Callable[[str], str] = lambda w: w,
    tr: gettext.NullTranslations | None = None,
) -> str:
    """:func:`merge_explanation` in sentences (plain text, not escaped).

    Args:
        ex: the explanation.
        label: a token id as the reader sees it (e.g. ``"</w>"``, ``"␣the"``).
        word: a corpus word as the reader sees it (visible whitespace, clipped).
        tr: translations (``None``: English).

    E.g. ``"e + s occurs 9 times: 6 in newest, 3 in widest. 3 pairs were tied at 9 and the
    first-seen rule chose e + s (its first occurrence comes earliest in the corpus); also tied:
    s + t, t + </w>."``
    """
    tr = tr or _ENGLISH
    pair = tr.gettext("{left} + {right}").format(left=label(ex.left), right=label(ex.right))
    n = ex.count

    def share(s: WordShare, template: str, detailed: str) -> str:
        where = word_ref(s.word, word)
        if s.windows > 1 and s.freq > 1:
            return detailed.format(total=f"{s.total:,}", word=where, windows=s.windows, freq=f"{s.freq:,}")
        return template.format(total=f"{s.total:,}", word=where)

    if len(ex.shares) == 1 and not ex.rest_words:
        s = ex.shares[0]
        where = word_ref(s.word, word)
        if s.windows > 1 and s.freq > 1:
            text = tr.ngettext(
                "{pair} occurs {count} time: all in {word} ({windows} × {freq}).",
                "{pair} occurs {count} times: all in {word} ({windows} × {freq}).",
                n,
            ).format(pair=pair, count=f"{n:,}", word=where, windows=s.windows, freq=f"{s.freq:,}")
        else:
            text = tr.ngettext(
                "{pair} occurs {count} time: all in {word}.", "{pair} occurs {count} times: all in {word}.", n
            ).format(pair=pair, count=f"{n:,}", word=where)
    else:
        parts = [
            share(s, tr.gettext("{total} in {word}"), tr.gettext("{total} in {word} ({windows} × {freq})"))
            for s in ex.shares
        ]
        if ex.rest_words:
            parts.append(
                tr.ngettext("{total} in {n} other word", "{total} in {n} other words", ex.rest_words).format(
                    total=f"{ex.rest_total:,}", n=f"{ex.rest_words:,}"
                )
            )
        text = tr.ngettext("{pair} occurs {count} time: {parts}.", "{pair} occurs {count} times: {parts}.", n).format(
            pair=pair, count=f"{n:,}", parts=tr.gettext(", ").join(parts)
        )
    if ex.overlapping:
        text += " " + tr.gettext(
            "Overlapping windows all count (a a a holds the pair twice); the merge rewrites them left to right."
        )
    if ex.ties > 1:
        listed = tr.gettext(", ").join(
            tr.gettext("{left} + {right}").format(left=label(x), right=label(y)) for x, y in ex.also_tied
        )
        if ex.more_tied:
            listed = tr.gettext("{pairs} and {n} more").format(pairs=listed, n=f"{ex.more_tied:,}")
        tie = TIE_RULES.get(ex.tie_break)
        text += " " + tr.gettext(
            "{ties} pairs were tied at {count} and the {rule} rule chose {pair} ({why}); also tied: {listed}."
        ).format(
            ties=f"{ex.ties:,}",
            count=f"{n:,}",
            rule=rule_name(ex.tie_break, tr),
            pair=pair,
            why=tr.gettext(tie.why) if tie else "",
            listed=listed,
        )
    else:
        text += " " + tr.ngettext(
            "No other pair occurs {count} time.", "No other pair occurs {count} times.", n
        ).format(count=f"{n:,}")
    if not ex.is_new:
        text += " " + tr.gettext(
            "The result {token} is already a token (made at step {step}), so the vocabulary does not grow."
        ).format(token=label(ex.token), step=ex.made_at)
    return text


# ------------------------------------------------------------------------------------------ stopping
@dataclass(frozen=True)
class StopExplanation:
    """Why a run stopped.

    Attributes:
        reason: the run's ``stop_reason`` (``num_merges``, ``vocab_size``, ``no_pairs``,
            ``min_frequency``) or ``None`` when it has not finished.
        merges: merges done.
        vocab_asked: the vocabulary size asked for (``None``: none asked).
        vocab_reached: the vocabulary size after the last merge.
        words: word types in the corpus.
        best_left: the count of the most frequent pair left (only for ``min_frequency``, else 0).
        min_frequency: the minimum pair frequency of the run.
    """

    reason: str | None
    merges: int
    vocab_asked: int | None
    vocab_reached: int
    words: int
    best_left: int
    min_frequency: int


def stop_explanation(run) -> StopExplanation:
    """Explain why ``run`` stopped (one pair count of the final segmentation for ``min_frequency``)."""
    n = run.num_steps
    best = 0
    if run.stop_reason == "min_frequency":
        table = run.pair_table(n, 1)
        best = table[0][2] if table else 0
    return StopExplanation(
        reason=run.stop_reason,
        merges=n,
        vocab_asked=run.config.vocab_size,
        vocab_reached=run.vocab_size_at(n),
        words=run.num_words,
        best_left=best,
        min_frequency=run.config.min_frequency,
    )


def stop_text(ex: StopExplanation, tr: gettext.NullTranslations | None = None) -> str:
    """:func:`stop_explanation` as one or two sentences (plain text)."""
    tr = tr or _ENGLISH
    n = ex.merges
    if ex.reason == "num_merges":
        if ex.vocab_asked is not None:
            return tr.gettext(
                "Training stopped at the app's limit of {n} merges before the vocabulary reached {vocab} tokens."
            ).format(n=f"{n:,}", vocab=f"{ex.vocab_asked:,}")
        return tr.ngettext(
            "Training stopped after the {n} merge asked for.", "Training stopped after the {n} merges asked for.", n
        ).format(n=f"{n:,}")
    if ex.reason == "vocab_size":
        return tr.gettext("Training stopped when the vocabulary reached {vocab} tokens (the size asked for).").format(
            vocab=f"{ex.vocab_reached:,}"
        )
    if ex.reason == "no_pairs":
        if ex.words == 0:
            return tr.gettext("There is nothing to train on: the pre-tokenizer found no words in the text.")
        return tr.gettext("Training stopped: no adjacent pair is left (every word is a single token).")
    if ex.reason == "min_frequency":
        return tr.ngettext(
            "Training stopped: the most frequent pair left occurs {best} time, below the minimum frequency of {minf}.",
            "Training stopped: the most frequent pair left occurs {best} times, below the minimum frequency of {minf}.",
            ex.best_left,
        ).format(best=f"{ex.best_left:,}", minf=f"{ex.min_frequency:,}")
    return tr.gettext("Training has not finished.")


def stop_reason_at(run, step: int) -> str:
    """Why a run cut at ``step`` stops: the run's own reason at its end, ``"num_merges"`` before it."""
    return (run.stop_reason or "") if step >= run.num_steps else "num_merges"
