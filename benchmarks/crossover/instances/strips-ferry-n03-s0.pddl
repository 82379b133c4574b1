; series strips/ferry n=3 seed=0: n cars over four ports, one ferry
(define (problem ferry-3)
  (:domain ferry)
  (:objects c0 c1 c2 - car l0 l1 l2 l3 - location)
  (:init (at-ferry l0) (empty-ferry)
    (at c0 l1) (at c1 l1) (at c2 l1))
  (:goal (and (at c0 l2) (at c1 l2) (at c2 l3))))
