; series strips/ferry n=7 seed=0: n cars over four ports, one ferry
(define (problem ferry-7)
  (:domain ferry)
  (:objects c0 c1 c2 c3 c4 c5 c6 - car l0 l1 l2 l3 - location)
  (:init (at-ferry l1) (empty-ferry)
    (at c0 l2) (at c1 l2) (at c2 l2) (at c3 l3) (at c4 l3) (at c5 l0) (at c6 l3))
  (:goal (and (at c0 l3) (at c1 l3) (at c2 l1) (at c3 l2) (at c4 l0) (at c5 l3) (at c6 l1))))
