"""The desktop user interface: the only package that imports PySide6."""
