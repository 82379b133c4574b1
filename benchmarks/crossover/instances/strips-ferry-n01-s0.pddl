; series strips/ferry n=1 seed=0: n cars over four ports, one ferry
(define (problem ferry-1)
  (:domain ferry)
  (:objects c0 - car l0 l1 l2 l3 - location)
  (:init (at-ferry l2) (empty-ferry)
    (at c0 l1))
  (:goal (and (at c0 l2))))
