"""Sessions: the loop that plays a game for a human, an agent or a script (no textual here)."""
