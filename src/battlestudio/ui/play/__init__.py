"""Play mode: recording a game in the main window and replaying it.

``PlayView`` shows a ``battlestudio.play.PlayDocument`` (the battle at a replay cursor, its
gestures recorded as battle events) in the window: the Game menu and toolbar (phase strip),
the Replay dock (timeline bar, event list) and the map's trails and highlights; the order,
umpire and annotation dialogs record through the session.
"""
