"""The real trainers beside ours, on the same words: Hugging Face ``tokenizers``' ``WordPieceTrainer`` beside our
WordPiece, and ``sentencepiece``'s Unigram trainer beside our Unigram, with how far the vocabularies agree.

Both are fed the words our runs train on (``{word: frequency}`` from the ``bert`` pre-tokenizer for WordPiece, from
``metaspace`` for Unigram), each word repeated as often as the corpus has it, so they count what ours count:

* ``WordPieceTrainer`` trains with BPE's rule (the most frequent pair) and only renames the result with ``##``
  (huggingface/tokenizers#1777): where its vocabulary parts from ours is where the score rule chose otherwise.
  Its alphabet comes in another order than ours (sorted), so agreement is counted in any order.
* ``sentencepiece`` seeds from a suffix array, re-estimates the probabilities by EM and prunes to three quarters a
  round; the course's Unigram (ours) does none of these. Its pieces come most probable first; ours are compared
  in the same order (our final costs). Its text is left as it is (``identity`` normalization, not NFKC).

``tokenizers`` and ``sentencepiece`` are the app's extra: imported only here, only when called.
"""

from __future__ import annotations

import io
from typing import NamedTuple

from ..checking.merge_agreement import MergeOverlap, merge_overlap
from ..i18n import N_
from ..inputs import EXTRA_HINT, SettingError
from ..pretokenize_field import SPACE_MARK
from .wordpiece_run import SPECIAL_TOKENS

#: Word repeats per line fed to the real trainers, and the most UTF-8 bytes a line of repeats takes (sentencepiece
#: skips a line longer than its ``max_sentence_length``, 4,192 bytes unless raised: a longer word raises it).
_PER_LINE, _LINE_BYTES = 40, 4096
#: sentencepiece's own special pieces, before its vocabulary (not compared).
SENTENCEPIECE_SPECIALS = ("<unk>", "<s>", "</s>")


class Agreement(NamedTuple):
    """Two vocabularies compared over their first ``overlap.n`` tokens (``overlap``: how many both hold in any
    order, the first rank where they differ), each as a tuple of token strings in the order compared."""

    ours: tuple[str, ...]
    theirs: tuple[str, ...]
    overlap: MergeOverlap


def agreement(ours, theirs, n: int) -> Agreement:
    """How the first ``n`` tokens of two vocabularies (sequences of strings, in order) agree. Raises
    ``ValueError`` for ``n`` < 1."""
    overlap = merge_overlap([(t,) for t in ours], [(t,) for t in theirs], n)
    return Agreement(tuple(ours), tuple(theirs), overlap)


def _lines(words: dict[str, int], strip: str = ""):
    """The words as lines of text, each word ``frequency`` times (at most :data:`_PER_LINE` a line), without a
    leading ``strip`` mark; a word that is only the mark is left out."""
    for word, freq in words.items():
        word = word[len(strip) :] if strip and word.startswith(strip) else word
        if not word:
            continue
        per_line = max(1, min(_PER_LINE, _LINE_BYTES // (len(word.encode("utf-8")) + 1)))
        while freq > 0:
            k = min(freq, per_line)
            yield " ".join([word] * k)
            freq -= k


def _missing(package: str) -> SettingError:
    return SettingError(
        N_("Comparing with the real trainers needs the package {package}: {hint}"), package=package, hint=EXTRA_HINT
    )


def wordpiece_anchor(words: dict[str, int], vocab_size: int) -> tuple[str, ...]:
    """``tokenizers``' ``WordPieceTrainer`` vocabulary trained on ``words`` (``bert`` pieces, ``{word:
    frequency}``) to ``vocab_size`` tokens, in id order, with our special tokens first.

    Raises:
        SettingError: ``tokenizers`` is not installed.
    """
    try:
        from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    except ImportError:
        raise _missing("tokenizers") from None
    tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    trainer = trainers.WordPieceTrainer(vocab_size=vocab_size, show_progress=False, special_tokens=list(SPECIAL_TOKENS))
    tok.train_from_iterator(_lines(words), trainer=trainer)
    vocab = tok.get_vocab()
    return tuple(sorted(vocab, key=vocab.__getitem__))


def unigram_anchor(words: dict[str, int], vocab_size: int) -> tuple[str, ...]:
    """``sentencepiece``'s Unigram pieces trained on ``words`` (``metaspace`` pieces, ``{word: frequency}``) to
    ``vocab_size`` pieces besides its own :data:`SENTENCEPIECE_SPECIALS` (left out), most probable first.

    Raises:
        SettingError: ``sentencepiece`` is not installed, or it cannot train on so few words.
    """
    try:
        import sentencepiece
    except ImportError:
        raise _missing("sentencepiece") from None
    buf = io.BytesIO()
    try:
        sentencepiece.SentencePieceTrainer.train(
            sentence_iterator=_lines(words, SPACE_MARK),
            model_writer=buf,
            vocab_size=vocab_size + len(SENTENCEPIECE_SPECIALS),
            model_type="unigram",
            normalization_rule_name="identity",
            hard_vocab_limit=False,
            max_sentence_length=max(4192, *(len(w.encode("utf-8")) + 1 for w in words)),
            minloglevel=2,
        )
    except RuntimeError as err:
        raise SettingError(
            N_("sentencepiece cannot train on this corpus: {reason}"), reason=str(err).rsplit("] ", 1)[-1][:200]
        ) from None
    sp = sentencepiece.SentencePieceProcessor(model_proto=buf.getvalue())
    pieces = (sp.id_to_piece(i) for i in range(sp.get_piece_size()))
    return tuple(p for p in pieces if p not in SENTENCEPIECE_SPECIALS)
