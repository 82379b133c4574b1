; series strips/ferry n=2 seed=0: n cars over four ports, one ferry
(define (problem ferry-2)
  (:domain ferry)
  (:objects c0 c1 - car l0 l1 l2 l3 - location)
  (:init (at-ferry l0) (empty-ferry)
    (at c0 l1) (at c1 l1))
  (:goal (and (at c0 l2) (at c1 l2))))
