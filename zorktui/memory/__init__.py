"""AriGraph memory on embedded Kuzu: semantic facts with validity in turns, episodic turns, questions, map.

No textual here; kuzu is imported only when a memory is opened.
"""
