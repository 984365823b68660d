"""``zorktui mcp``: the session's play, memory and checkpoints as Model Context Protocol tools.

:mod:`zorktui.mcp_server.tools` holds what each tool does, over one
:class:`~zorktui.session.session.Session` and one lock; :mod:`zorktui.mcp_server.server`
puts them on the official SDK's server, over stdio or streamable HTTP.
"""
