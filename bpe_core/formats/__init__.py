"""File formats: merges.txt, vocab.json, tokenizer.json, GPT-2 folders, merge lists in five formats, the merge table and the training history as rows, CSV and JSON lines."""
