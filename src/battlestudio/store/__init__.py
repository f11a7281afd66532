"""Persistence: .battle (SQLite via sqlmodel) and .battle.json (GeoJSON); the only place SQL appears."""
