"""Teaching texts and values: why a merge was chosen, facts, the quiz, the handout, notebook tables."""
