"""Dock widgets of the main window."""
