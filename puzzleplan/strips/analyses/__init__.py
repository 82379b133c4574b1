"""What is proved about a grounded task (:class:`~puzzleplan.strips.sas.Grounded`) before or
beside its encoding, one analysis a module, each with one entry point:

=============  ===================================================================================
module         entry point: what it gives
=============  ===================================================================================
mutex          :func:`.mutex.mutexes`: h^2 pairs of facts no reachable state holds together
inverse        :func:`.inverse.known` (preconditions the mutexes imply), :func:`.inverse.inverse_pairs`
shortcut       :func:`.shortcut.shortcuts`: two actions that one action does at once
relaxed        :class:`.relaxed.Relaxed`: h^max and LM-cut (delete relaxation)
counting       :class:`.counting.CountingBound`: the counting bound, and the counts no action changes
dtg            :class:`.dtg.Distances`: the transition graphs' distances, summed over independent variables
counts         :func:`.counts.count_invariants`: sets of facts every reachable state holds one of
symmetry       :func:`.symmetry.symmetric_pairs`: interchangeable objects
order          :func:`.order.interfering_above`: actions that commute
factor         :func:`.factor.factor`: actions that are a product of two parts
free           :func:`.free.free_actions`: how long runs of actions of cost 0 can be
=============  ===================================================================================

:class:`Analyses` computes each once per task (a mixin for the rules of a grounded task: it
reads their ``task``, ``ops``, ``initial``, ``avoided`` and ``levers``).  Costs are a flag
here (``costed``: each action's own cost, else 1 per action), not a metric's name.
"""
from __future__ import annotations

from .counting import CountingBound
from .counts import count_invariants
from .dtg import Distances
from .inverse import known
from .mutex import Mutexes, mutexes
from .relaxed import Relaxed
from .symmetry import Symmetry, symmetric_pairs

LMCUT_WORK = 2_500_000     # LM-cut's budget at the start, in units of work (about 5 s of CPU here)


class Analyses:
    """Each analysis of the task, made once (see the module doc)."""

    def _cache(self, name: str) -> dict:
        return self.__dict__.setdefault(name, {})

    def relaxed(self, costed: bool = False) -> Relaxed:
        """The delete relaxation (:mod:`.relaxed`), made once per cost model."""
        cache = self._cache("_relaxed")
        if costed not in cache:
            cache[costed] = Relaxed(self, costed)
        return cache[costed]

    def mutexes(self) -> Mutexes | None:
        """The h^2 mutexes (:mod:`.mutex`), computed once; None if over its budget."""
        if "_mutexes" not in self.__dict__:
            self._mutexes = mutexes(self)
        return self._mutexes

    def symmetry(self) -> Symmetry | None:
        """The interchangeable objects (:mod:`.symmetry`), found once; None where an action name
        stands for several actions."""
        if "_symmetry" not in self.__dict__:
            self._symmetry = symmetric_pairs(self.task.values, self.ops, self.initial, self.task.alternatives())
        return self._symmetry

    def known_ops(self) -> list:
        """The operators with the preconditions reachable states imply (:func:`.inverse.known`),
        made once (with the mutexes and without: the levers may change between runs)."""
        cache = self._cache("_known")
        use = "mutex" in self.levers
        if use not in cache:
            cache[use] = known(self.ops, self.task.values, self.mutexes() if use else None)
        return cache[use]

    def counts(self) -> list:
        """The counting invariants (:mod:`.counts`), sought once (with the mutexes and without)."""
        cache = self._cache("_counts")
        use = "mutex" in self.levers
        if use not in cache:
            cache[use] = count_invariants(self, self.known_ops(), self.mutexes() if use else None)
        return cache[use]

    def counting(self, costed: bool = False) -> CountingBound:
        """The counting bound (:mod:`.counting`), made once per cost model."""
        cache = self._cache("_counting")
        key = (costed, "mutex" in self.levers)
        if key not in cache:
            costs = [op.cost if costed else 1 for op in self.ops]
            cache[key] = CountingBound(self.task.values, self.known_ops(), costs, self.task.alternatives(),
                                       self.initial)
        return cache[key]

    def distances(self, costed: bool = False) -> Distances:
        """The transition graphs' distances (:mod:`.dtg`), made once per cost model: over the
        operators with what reachable states imply of them (:meth:`known_ops`), those that would
        make an avoided fact true left out."""
        cache = self._cache("_distances")
        key = (costed, "mutex" in self.levers)
        if key not in cache:
            avoided = set(self.avoided)
            ops, costs = [], []
            for op, own in zip(self.known_ops(), self.ops):
                if not avoided.intersection(op.eff):
                    ops.append(op)
                    costs.append(own.cost if costed else 1)
            cache[key] = Distances(self.task.values, ops, costs, self.task.alternatives(), self.initial)
        return cache[key]

    def lmcut_at_start(self, costed: bool = False) -> int:
        """LM-cut at the start, computed once (within :data:`LMCUT_WORK` units of work)."""
        cache = self._cache("_start_lmcut")
        if costed not in cache:
            cache[costed] = self.relaxed(costed).lmcut(self.initial, LMCUT_WORK)
        return cache[costed]
