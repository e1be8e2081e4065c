"""WordPiece and Unigram models as Hugging Face ``tokenizer.json`` files, and back: :func:`tokenizer_json` writes a
trained run's model with its pre-tokenizer and decoder (``tokenizers.Tokenizer.from_file`` reads it and encodes
as :class:`FieldTokenizer` does), :func:`load_field_model` reads one (ours, or any WordPiece / Unigram
``tokenizer.json`` with no normalizer and a ``bert`` or ``metaspace`` pre-tokenizer) into a :class:`FieldTokenizer`.

No special token is an ``added_tokens`` entry: ``[CLS]`` in a text is split as text, as this encoder does.
"""

from __future__ import annotations

from pathlib import Path

from ..algorithms import unigram, wordpiece_run
from ..inputs import InputError, read_json
from ..pretokenize_field import BERT, METASPACE, SPACE_MARK, field_pieces

_PRE_TOKENIZERS = {
    BERT: {"type": "BertPreTokenizer"},
    METASPACE: {"type": "Metaspace", "replacement": SPACE_MARK, "prepend_scheme": "always", "split": True},
}
_DECODERS = {
    "WordPiece": {"type": "WordPiece", "prefix": wordpiece_run.PREFIX, "cleanup": True},
    "Unigram": {"type": "Metaspace", "replacement": SPACE_MARK, "prepend_scheme": "always", "split": True},
}


def tokenizer_json(run) -> dict:
    """The ``tokenizer.json`` of a finished WordPiece or Unigram run (its last step's vocabulary; a Unigram
    vocabulary gets ``<unk>`` as id 0, its pieces after it in the run's order, each with its log probability).
    Raises ``ValueError`` for another kind of run."""
    pre = run.config.resolved_pretokenizer
    if isinstance(run, wordpiece_run.WordPieceRun):
        model = {
            "type": "WordPiece",
            "unk_token": wordpiece_run.UNK,
            "continuing_subword_prefix": wordpiece_run.PREFIX,
            "max_input_chars_per_word": wordpiece_run.MAX_WORD_CHARS,
            "vocab": {v: i for i, v in enumerate(run.vocabulary())},
        }
    elif isinstance(run, unigram.UnigramRun):
        logp = run.model()
        # 12 significant digits: a decimal that short is read to the same double by Python and by serde_json (whose
        # default parser may be one unit off on a longer one, which turns an exact tie between two segmentations).
        pieces = [[unigram.UNK, 0.0]] + [[t, float(f"{-logp[t]:.12g}")] for t in run.vocabulary()]
        model = {"type": "Unigram", "unk_id": 0, "vocab": pieces, "byte_fallback": False}
    else:
        raise ValueError("only WordPiece and Unigram runs are written by tokenizer_json")
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": _PRE_TOKENIZERS[pre],
        "post_processor": None,
        "decoder": _DECODERS[model["type"]],
        "model": model,
    }


class FieldTokenizer:
    """A WordPiece or Unigram model that encodes text (the ``encode`` command's interface).

    Args:
        kind: ``"WordPiece"`` or ``"Unigram"``.
        vocab: the token strings in id order.
        pretokenizer: ``"bert"`` or ``"metaspace"``.
        log_probs: Unigram: each token's log probability, in id order (``None`` for WordPiece).
        unk_id: the id of ``[UNK]`` / ``<unk>``.
    """

    def __init__(self, kind: str, vocab: list[str], pretokenizer: str, log_probs=None, unk_id: int = 0):
        self.kind = kind
        self.vocab = vocab
        self.pretokenizer = pretokenizer
        self.ids = {v: i for i, v in enumerate(vocab)}
        # The encode command shows the id unk_id as "<unk>": WordPiece's is shown as it is spelled, [UNK].
        self.unk_id = unk_id if kind == "Unigram" else -1
        self._unk = unk_id
        if kind == "Unigram":
            self._model = {v: -lp for i, (v, lp) in enumerate(zip(vocab, log_probs)) if i != unk_id}
            self._maxlen = max(map(len, self._model), default=1)

    def tokenize(self, text: str) -> list[str]:
        """The tokens of ``text`` (strings)."""
        out: list[str] = []
        for word in field_pieces(text, self.pretokenizer):
            if self.kind == "WordPiece":
                out.extend(wordpiece_run.encode_word(word, self.ids))
            else:
                out.extend(unigram.encode_word(word, self._model, self._maxlen))
        return out

    def encode(self, text: str, dropout: float = 0.0, seed=None) -> list[int]:
        """The ids of ``text``. Raises :class:`InputError` for ``dropout`` (BPE-dropout is for BPE models)."""
        if dropout:
            raise InputError("--dropout applies to BPE models only; this is a " + self.kind + " model.")
        unk = self.vocab[self._unk]
        return [self.ids.get(t, self._unk) if t != unk else self._unk for t in self.tokenize(text)]

    def token_value(self, tid: int) -> str:
        """The token string of ``tid``."""
        return self.vocab[tid]

    def token_wires(self, ids) -> list[str]:
        """The token strings of ``ids``."""
        return [self.vocab[i] for i in ids]


def load_field_model(model_dir) -> FieldTokenizer | None:
    """The WordPiece or Unigram model of ``model_dir/tokenizer.json``; ``None`` when there is no such file or it
    holds another model (a BPE one, or one with a normalizer or another pre-tokenizer: ``tokenizers`` itself
    reads those). Raises :class:`InputError` (one line) for a file that is not JSON or a malformed model."""
    path = Path(model_dir) / "tokenizer.json"
    if not path.is_file():
        return None
    doc = read_json(path)
    model = doc.get("model") if isinstance(doc, dict) else None
    kind = model.get("type") if isinstance(model, dict) else None
    if kind not in ("WordPiece", "Unigram"):
        return None
    pre = doc.get("pre_tokenizer") or {}
    names = {"BertPreTokenizer": BERT, "Metaspace": METASPACE}
    if doc.get("normalizer") is not None or pre.get("type") not in names:
        return None  # not one of ours (a normalizer, another pre-tokenizer): tokenizers itself reads it
    try:
        if kind == "WordPiece":
            vocab_map = model["vocab"]
            vocab = sorted(vocab_map, key=vocab_map.__getitem__)
            return FieldTokenizer(kind, vocab, names[pre["type"]], unk_id=vocab_map[model.get("unk_token", "[UNK]")])
        vocab = [str(v) for v, _ in model["vocab"]]
        return FieldTokenizer(
            kind, vocab, names[pre["type"]], [float(s) for _, s in model["vocab"]], int(model["unk_id"])
        )
    except (KeyError, TypeError, ValueError) as err:
        raise InputError(f"{path}: the {kind} model is malformed ({err}).") from None
