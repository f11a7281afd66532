"""Importers of real order-of-battle data."""
