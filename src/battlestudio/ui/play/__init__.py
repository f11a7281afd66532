"""Play mode: recording a game in the main window and replaying it.

``PlayDocument`` shows the battle at a replay cursor and turns edits made during play into
battle events; ``PlayView`` installs the Game menu and toolbar (phase strip), the Replay dock
(timeline bar, event list) and the map's trails and highlights; the order, umpire and
annotation dialogs record through the session.
"""
