"""Learned once per story by probing: the player, the status globals, the parser's noise, object words, the compass."""
