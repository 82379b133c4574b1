"""The bundled puzzle files (package data of ``puzzleplan.instances``; see puzzleplan/catalogue.py)."""
