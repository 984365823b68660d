"""The app in a browser: textual-serve's server (``zorktui serve``), the drivers that let one tab's
process run a short question app before the main one, and the live viewer of growing sessions."""
