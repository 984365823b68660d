"""The Monte Carlo tree-search planner: the search (planner.py), its tree, priors, rewards and routes."""
