"""A session's folder on disk: its layout, the recorder that writes it, resuming and inspecting it."""
