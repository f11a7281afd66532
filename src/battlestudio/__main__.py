"""``python -m battlestudio`` runs the command-line interface."""

from battlestudio.cli import main

raise SystemExit(main())
