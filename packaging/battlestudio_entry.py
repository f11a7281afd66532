"""Entry script of the PyInstaller bundle: runs the ``battlestudio`` console script.

``battlestudio [FILE]`` opens the editor; ``check``, ``info``, ``replay`` ... work as with the
installed package (see ``battlestudio --help``). Kept outside the package so PyInstaller
analyses ``battlestudio.cli`` as an ordinary import.
"""

import sys

from battlestudio.cli import main

if __name__ == "__main__":
    sys.exit(main())
