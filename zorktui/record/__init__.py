"""Trajectories: the JSONL record of a session, and reading it back."""
