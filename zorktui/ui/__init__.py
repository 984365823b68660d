"""The Textual app: screens, widgets and themes (the only package that imports textual).

Build the app with :func:`zorktui.ui.app.create_app` (the CLI and the tests share it).
"""
