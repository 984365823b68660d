"""What the world holds, read from memory: places, objects and their names, light, sight, state fingerprints."""
