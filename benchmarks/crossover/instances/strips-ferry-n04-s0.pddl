; series strips/ferry n=4 seed=0: n cars over four ports, one ferry
(define (problem ferry-4)
  (:domain ferry)
  (:objects c0 c1 c2 c3 - car l0 l1 l2 l3 - location)
  (:init (at-ferry l0) (empty-ferry)
    (at c0 l3) (at c1 l2) (at c2 l3) (at c3 l3))
  (:goal (and (at c0 l1) (at c1 l3) (at c2 l1) (at c3 l2))))
