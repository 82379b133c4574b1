"""Classic state-space search over the Domain protocol: the baselines."""
from .algorithms import SEARCHES, astar_search, breadth_first_search, explore

__all__ = ["SEARCHES", "astar_search", "breadth_first_search", "explore"]
