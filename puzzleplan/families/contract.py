"""The family contract now lives in :mod:`puzzleplan.contract`; this name is kept for families
written against ``puzzleplan.families.contract``."""
from ..contract import *  # noqa: F401,F403
from ..contract import Family, Format, Parsed, Replay, Rules, missing_methods, resolve  # noqa: F401
