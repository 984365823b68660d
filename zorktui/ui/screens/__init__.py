"""Screens pushed over the main screen: help, memory inspector, rejection reason."""
