"""A grounded task (SAS+, :mod:`puzzleplan.strips.sas`) as SAT: one action per time step
(:mod:`.steps`; under action costs :mod:`.cost`, a walk of cost 0 in one transition :mod:`.walk`),
with the levers of :mod:`.levers`.

State at step t: ``("val", v, x, t)`` variable v has value x, exactly one value per
variable (one-hot); a variable of two values (a fact and its negation, as the translator
makes most of them) is one Boolean, its value that is not a negation, and the other is
its negative literal (measured on Rush Hour card 40: 20% less time than two variables
tied by a one-hot; the lemmas then ask about the kept values only).  The translator's mutex groups (facts of several variables that
never hold together) are added as at-most-one constraints, which the rules imply
but the solver would otherwise have to learn; so are the h^2 mutexes (:mod:`~puzzleplan.strips.analyses.mutex`:
a binary clause per pair of facts that no reachable state holds together, a unit per
fact none holds, and one clause "f implies w = y" where f's pairs leave one value of w, in
place of those pairs: :func:`~puzzleplan.strips.analyses.mutex.implications`), at every step of either end of the unrolling, in CP-SAT and in the
exports.  Avoided facts are false at every step.  The few facts of a group whose
number no action changes (one or two: a board's empty cells) are counted at every step,
larger counts on the goal side (:func:`.levers.tallies.tallies`), and a goal-side state has no goal
variable further from its goal value than the moves left, nor, over the variables no action
changes two of, more distance in all (:meth:`.levers.bound.Bound.goal_bound`).  Once a run proves hard
(:meth:`.steps.StepsEncoder.escalate`), actions that commute are kept in one order (:mod:`.levers.order`),
and, with the ``counts`` lever (off by default: its search cost more than it saved), the goal
side of the double-ended unrolling also says "at least one" of each set of facts that every
reachable state holds exactly one of (:mod:`.levers.counts`: a cell is empty or covered), which its
otherwise free states lack and the start side keeps by itself.

Actions ``("mv", o, t)``: operator o applies at t; its preconditions hold at t, its
effects at t+1.  Explanatory frame axioms: a value turns false only through an
action that sets its variable to another value (and may apply while it holds),
and turns true only through an action that sets it.  An action is never followed
straight by one that undoes it (:mod:`.levers.barred`; not when a move count ``>= k`` or
``== k`` could need the moves), nor by one that a single action does together with it
(:mod:`.levers.barred`; not with move counts or frozen pieces).  Actions that are a product (a
move times its counter's step: our exports' move counts) are said by two literals, their
group's ``("fj", g, t)`` and their transition's ``("fx", s, t)`` (:mod:`.levers.factor`), each
frame axiom naming the transition for the counter and the group elsewhere.  The shared
:class:`~puzzleplan.encodings.base.Encoder` adds at most one action per step,
no-ops last, the goal and move counts.

``cost`` (:class:`.cost.CostEncoder`): horizon T asks for a plan of total cost at most T.
Where every action costs at least 1, such a plan has at most T actions, T layers hold
every plan of cost T, and refuting T refutes every plan of that cost, whatever its
length.  Actions of cost 0 get layers of their own, as many as a shortest plan of cost
T can need (:mod:`~puzzleplan.strips.analyses.free`: a finishing action once, a walk at most its states, one
transition for a walk that follows one variable; refused where a walk's states are too
many), and each changes something.  Per step, cost units
``("unit", t, j)``: an action of cost c at step t sets units 1..c; the goal of horizon
T bounds their number by T.
"""

