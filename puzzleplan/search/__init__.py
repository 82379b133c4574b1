"""Classic state-space search over any family's rules (:class:`puzzleplan.contract.Rules`): the baselines."""
from .algorithms import Stopped, astar_search, breadth_first_search, explore
from .idastar import ida_star_search

__all__ = ["Stopped", "astar_search", "breadth_first_search", "explore", "ida_star_search"]
