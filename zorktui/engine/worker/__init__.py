"""Worker processes: the game's interpreter and the planner's search run outside the application.

A command that corrupts Frotz then takes a worker down, never the person's
screen or the recorded turns: :class:`~zorktui.engine.worker.game_process.GameProcess`
starts another worker and rebuilds the game in it from what was played.
"""
