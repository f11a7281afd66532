"""Club play in the window: a game on a club's PostgreSQL server recorded by several umpires.

``document.ClubPlayDocument`` (the game, recorded through ``store.club.ClubConnection``),
``opening.open_club`` (connect and read it), ``view.ClubView`` (File ▸ Open Club Game…, the
Umpires dock, live following), ``open_dialog.ClubOpenDialog`` and ``panel.UmpiresPanel``.
"""
