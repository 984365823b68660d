"""Widgets of the main screen: transcript, room, map, agent, status bar and command line."""
