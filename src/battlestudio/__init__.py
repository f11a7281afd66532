"""BattleStudio: scenario editor and battle replayer for Napoleonic wargames.

Importing the package is cheap and Qt-free; it only carries the version.
"""

__version__ = "0.1.0"
