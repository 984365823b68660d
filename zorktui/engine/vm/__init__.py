"""Running a story: the interpreter, its way to the first prompt, checkpoints, story files, reply text."""
