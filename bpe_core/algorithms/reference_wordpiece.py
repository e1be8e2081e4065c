"""The textbook WordPiece trainer: short and slow, written to be read (the loop the Hugging Face course builds in
chapter 6, section 6). Every step counts every pair and every token again. :mod:`bpe_core.algorithms.wordpiece`
makes the same merges in the same order, updating the counts in place; the tests check the two agree."""

from __future__ import annotations


def train_wordpiece(word_freqs: dict[str, int], vocab_size: int) -> list[str]:
    """The vocabulary WordPiece learns from ``{word: frequency}`` (first-appearance order), ``vocab_size`` tokens at
    most: the special tokens, the alphabet sorted, then one token per merge."""
    # A character that does not start its word carries the continuation prefix ##.
    splits = {word: [c if i == 0 else "##" + c for i, c in enumerate(word)] for word in word_freqs}
    alphabet = sorted({token for tokens in splits.values() for token in tokens})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *alphabet]
    while len(vocab) < vocab_size:
        token_counts: dict = {}
        pair_counts: dict = {}
        for word, freq in word_freqs.items():
            tokens = splits[word]
            for token in tokens:
                token_counts[token] = token_counts.get(token, 0) + freq
            for pair in zip(tokens, tokens[1:]):
                pair_counts[pair] = pair_counts.get(pair, 0) + freq
        if not pair_counts:
            break
        # Rare parts that nearly always go together score high. max keeps the first of equal scores: a tie goes
        # to the pair seen first.
        scores = {pair: count / (token_counts[pair[0]] * token_counts[pair[1]]) for pair, count in pair_counts.items()}
        first, second = max(scores, key=scores.get)
        new = first + second[2:] if second.startswith("##") else first + second
        for word, tokens in splits.items():
            merged, i = [], 0
            while i < len(tokens):
                if tokens[i : i + 2] == [first, second]:
                    merged.append(new)
                    i += 2
                else:
                    merged.append(tokens[i])
                    i += 1
            splits[word] = merged
        if new not in vocab:
            vocab.append(new)
    return vocab
