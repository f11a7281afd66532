"""Play: a battle recorded and replayed, without Qt.

``PlayDocument`` (``play.document``) shows the battle at a replay cursor and answers the
gestures of the map and the Properties dock (``move``, ``rotate``, ``set_fields``, ``place``)
with battle events recorded through its ``GameSession``; ``play.events`` names the events of a
gesture; ``play.problems`` says what is wrong with a game that cannot be replayed. The window's
play mode (``ui.play``) shows and drives it.
"""
