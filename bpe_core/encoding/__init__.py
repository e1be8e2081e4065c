"""Encoding and decoding with a trained vocabulary: the tokenizer, merge application, the longest-match encoder, traces and replays."""
