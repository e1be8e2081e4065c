"""Checking a student's BPE: merges against the reference, an encoder's first difference, the known mistakes, merge-list agreement."""
