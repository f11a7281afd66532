"""File ▸ Open Club Game…: the server, a battle from its list, the umpire's name.

The password field is for this connection only: it is never stored, and an empty one leaves
libpq to find it (``~/.pgpass``, ``PGPASSWORD``). Errors (server down, no such database,
refused password, not a club database) show under the fields in the server's words.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from battlestudio.store.club import ClubError, ClubURL
from battlestudio.store.club.listing import list_battles
from battlestudio.ui.club.opening import default_umpire, with_password

STATUS_WORDS = {"setup": "not started", "running": "being played", "finished": "finished"}


class ClubOpenDialog(QDialog):
    """Pick a club game to open; ``url()`` (with ``battle=``), ``password()`` and ``umpire()``
    once accepted."""

    def __init__(self, url: str = "", umpire: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Open Club Game")
        self.setObjectName("club_open_dialog")
        self.server = QLineEdit(url)
        self.server.setPlaceholderText("postgresql://you@host:5432/club")
        self.server.setObjectName("club_server")
        self.password_field = QLineEdit()
        self.password_field.setEchoMode(QLineEdit.EchoMode.Password)
        self.password_field.setPlaceholderText("not stored; empty: ~/.pgpass or PGPASSWORD")
        self.umpire_field = QLineEdit(umpire or default_umpire())
        self.umpire_field.setObjectName("club_umpire")
        self.umpire_field.setToolTip("The name the other umpires see on your claims and phase closes")
        self.list_button = QPushButton("&List Battles")
        self.list_button.clicked.connect(self.list_battles)
        self.battles = QListWidget()
        self.battles.setObjectName("club_battles")
        self.battles.itemDoubleClicked.connect(lambda _i: self.accept())
        self.battles.currentItemChanged.connect(lambda *_: self._update())
        self.error = QLabel()
        self.error.setObjectName("club_error")
        self.error.setWordWrap(True)
        self.error.setTextFormat(Qt.TextFormat.PlainText)
        self.error.setStyleSheet("color: #b00020;")
        self.error.hide()
        form = QFormLayout()
        form.addRow("&Server:", self.server)
        form.addRow("&Password:", self.password_field)
        form.addRow("&Umpire:", self.umpire_field)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Open | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.list_button)
        lay.addWidget(self.battles, 1)
        lay.addWidget(self.error)
        lay.addWidget(self.buttons)
        self.server.returnPressed.connect(self.list_battles)
        self.umpire_field.textChanged.connect(lambda _t: self._update())
        self.resize(520, 420)
        self._update()

    def _update(self) -> None:
        ok = self.battles.currentItem() is not None and bool(self.umpire_field.text().strip())
        self.buttons.button(QDialogButtonBox.StandardButton.Open).setEnabled(ok)

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.setVisible(bool(text))

    def list_battles(self) -> bool:
        """Read the server's battles into the list (the URL's ``battle=`` chosen); True if read."""
        self.battles.clear()
        self.show_error("")
        text = self.server.text().strip()
        try:
            u = ClubURL.parse(text)
            found = list_battles(with_password(text, self.password()))
        except ClubError as exc:
            self.show_error(str(exc))
            self._update()
            return False
        for b in found:
            item = QListWidgetItem(f"{b.id}  {b.title} — {STATUS_WORDS.get(b.status, b.status)}")
            item.setData(Qt.ItemDataRole.UserRole, b.id)
            self.battles.addItem(item)
            if b.id == u.battle or self.battles.count() == 1:
                self.battles.setCurrentItem(item)
        if not found:
            self.show_error(f"No battles on {u.shown} yet: put one there with battlestudio publish FILE {u.shown}")
        self._update()
        return bool(found)

    def battle(self) -> int | None:
        item = self.battles.currentItem()
        return int(item.data(Qt.ItemDataRole.UserRole)) if item is not None else None

    def url(self) -> str:
        """The server URL naming the chosen battle (no password unless typed into the URL)."""
        u = ClubURL.parse(self.server.text().strip())
        b = self.battle()
        return str(u.with_battle(b)) if b is not None else str(u)

    def connect_url(self) -> str:
        """``url()`` with the password typed, for connecting only."""
        return _with_battle_text(with_password(self.server.text().strip(), self.password()), self.battle())

    def password(self) -> str:
        return self.password_field.text()

    def umpire(self) -> str:
        return self.umpire_field.text().strip()


def _with_battle_text(url: str, battle: int | None) -> str:
    """``url`` (kept as typed, password and all) with its ``battle=`` set to ``battle``."""
    from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

    if battle is None:
        return url
    p = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(p.query, keep_blank_values=True) if k != "battle"]
    return urlunsplit((p.scheme, p.netloc, p.path, urlencode([*query, ("battle", str(battle))]), ""))
