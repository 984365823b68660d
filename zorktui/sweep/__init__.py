"""Sweeps: stories x agents x seeds, each run a Ray task, on this machine or a cluster (``zorktui sweep``).

A layer above the session (each run is an ordinary autopilot session) and
beside the UI and the MCP server. Ray is an optional extra
(``pip install 'zorktui[sweep]'``), imported only by :mod:`zorktui.sweep.driver`
when a sweep starts; ``plan``, ``pack`` and ``worker`` work without it.
See docs/sweep.md.
"""
