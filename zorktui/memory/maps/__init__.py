"""The map from the memory: rooms and ways as a model, the walks over it, and its drawing."""
