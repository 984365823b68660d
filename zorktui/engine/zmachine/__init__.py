"""Reading a Z-machine story's memory: header, z-strings, dictionary, object table, grammar tables.

Pure readers over a story's bytes (or a live copy of its RAM); nothing here runs the game.
"""
