"""The training algorithms and their runs: the BPE trainer, its run and records, the tie-break keys, the textbook loop, the language-mix trainer."""
