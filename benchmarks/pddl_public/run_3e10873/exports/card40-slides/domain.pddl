;; puzzleplan export instances/seeds/rushhour_card40_bmodel_v2.rh
;; KHH.F.
;; KBC.FL
;; KBCAAL
;; MMME.L
;; ..DEJJ
;; GGDII.
(define (domain puzzleplan-sliding)
  (:requirements :strips)
  (:constants k0 k1 k2 k3 k4)
  (:predicates (at ?a0 ?a1) (clear ?a0) (legal-slide-k0-left-1 ?a0 ?a1 ?a2 ?a3) (legal-slide-k0-left-2 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-slide-k0-left-3 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6) (legal-slide-k0-left-4 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7) (legal-slide-k0-right-1 ?a0 ?a1 ?a2 ?a3) (legal-slide-k0-right-2 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-slide-k0-right-3 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6) (legal-slide-k0-right-4 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7) (legal-slide-k1-up-1 ?a0 ?a1 ?a2 ?a3) (legal-slide-k1-up-2 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-slide-k1-up-3 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6) (legal-slide-k1-up-4 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7) (legal-slide-k1-down-1 ?a0 ?a1 ?a2 ?a3) (legal-slide-k1-down-2 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-slide-k1-down-3 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6) (legal-slide-k1-down-4 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7) (legal-slide-k2-left-1 ?a0 ?a1 ?a2 ?a3) (legal-slide-k2-left-2 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-slide-k2-left-3 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6) (legal-slide-k2-left-4 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7) (legal-slide-k2-right-1 ?a0 ?a1 ?a2 ?a3) (legal-slide-k2-right-2 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-slide-k2-right-3 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6) (legal-slide-k2-right-4 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7) (legal-slide-k3-up-1 ?a0 ?a1 ?a2 ?a3) (legal-slide-k3-up-2 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-slide-k3-up-3 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7) (legal-slide-k3-down-1 ?a0 ?a1 ?a2 ?a3) (legal-slide-k3-down-2 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-slide-k3-down-3 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7) (legal-slide-k4-left-1 ?a0 ?a1 ?a2 ?a3) (legal-slide-k4-left-2 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-slide-k4-left-3 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7) (legal-slide-k4-right-1 ?a0 ?a1 ?a2 ?a3) (legal-slide-k4-right-2 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-slide-k4-right-3 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7))
  (:action slide-k0-left-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k0 ?from) (clear ?e0) (legal-slide-k0-left-1 ?from ?to ?e0 ?l0))
   :effect (and (at k0 ?to) (clear ?l0) (not (at k0 ?from)) (not (clear ?e0))))
  (:action slide-k0-left-2
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k0 ?from) (clear ?e0) (clear ?e1) (legal-slide-k0-left-2 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k0 ?to) (clear ?l0) (clear ?l1) (not (at k0 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k0-left-3
   :parameters (?from ?to ?e0 ?e1 ?t0 ?l0 ?l1)
   :precondition (and (at k0 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (legal-slide-k0-left-3 ?from ?to ?e0 ?e1 ?t0 ?l0 ?l1))
   :effect (and (at k0 ?to) (clear ?l0) (clear ?l1) (not (at k0 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k0-left-4
   :parameters (?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1)
   :precondition (and (at k0 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (clear ?t1) (legal-slide-k0-left-4 ?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1))
   :effect (and (at k0 ?to) (clear ?l0) (clear ?l1) (not (at k0 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k0-right-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k0 ?from) (clear ?e0) (legal-slide-k0-right-1 ?from ?to ?e0 ?l0))
   :effect (and (at k0 ?to) (clear ?l0) (not (at k0 ?from)) (not (clear ?e0))))
  (:action slide-k0-right-2
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k0 ?from) (clear ?e0) (clear ?e1) (legal-slide-k0-right-2 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k0 ?to) (clear ?l0) (clear ?l1) (not (at k0 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k0-right-3
   :parameters (?from ?to ?e0 ?e1 ?t0 ?l0 ?l1)
   :precondition (and (at k0 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (legal-slide-k0-right-3 ?from ?to ?e0 ?e1 ?t0 ?l0 ?l1))
   :effect (and (at k0 ?to) (clear ?l0) (clear ?l1) (not (at k0 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k0-right-4
   :parameters (?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1)
   :precondition (and (at k0 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (clear ?t1) (legal-slide-k0-right-4 ?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1))
   :effect (and (at k0 ?to) (clear ?l0) (clear ?l1) (not (at k0 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k1-up-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k1 ?from) (clear ?e0) (legal-slide-k1-up-1 ?from ?to ?e0 ?l0))
   :effect (and (at k1 ?to) (clear ?l0) (not (at k1 ?from)) (not (clear ?e0))))
  (:action slide-k1-up-2
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k1 ?from) (clear ?e0) (clear ?e1) (legal-slide-k1-up-2 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k1 ?to) (clear ?l0) (clear ?l1) (not (at k1 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k1-up-3
   :parameters (?from ?to ?e0 ?e1 ?t0 ?l0 ?l1)
   :precondition (and (at k1 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (legal-slide-k1-up-3 ?from ?to ?e0 ?e1 ?t0 ?l0 ?l1))
   :effect (and (at k1 ?to) (clear ?l0) (clear ?l1) (not (at k1 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k1-up-4
   :parameters (?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1)
   :precondition (and (at k1 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (clear ?t1) (legal-slide-k1-up-4 ?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1))
   :effect (and (at k1 ?to) (clear ?l0) (clear ?l1) (not (at k1 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k1-down-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k1 ?from) (clear ?e0) (legal-slide-k1-down-1 ?from ?to ?e0 ?l0))
   :effect (and (at k1 ?to) (clear ?l0) (not (at k1 ?from)) (not (clear ?e0))))
  (:action slide-k1-down-2
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k1 ?from) (clear ?e0) (clear ?e1) (legal-slide-k1-down-2 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k1 ?to) (clear ?l0) (clear ?l1) (not (at k1 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k1-down-3
   :parameters (?from ?to ?e0 ?e1 ?t0 ?l0 ?l1)
   :precondition (and (at k1 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (legal-slide-k1-down-3 ?from ?to ?e0 ?e1 ?t0 ?l0 ?l1))
   :effect (and (at k1 ?to) (clear ?l0) (clear ?l1) (not (at k1 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k1-down-4
   :parameters (?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1)
   :precondition (and (at k1 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (clear ?t1) (legal-slide-k1-down-4 ?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1))
   :effect (and (at k1 ?to) (clear ?l0) (clear ?l1) (not (at k1 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k2-left-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k2 ?from) (clear ?e0) (legal-slide-k2-left-1 ?from ?to ?e0 ?l0))
   :effect (and (at k2 ?to) (clear ?l0) (not (at k2 ?from)) (not (clear ?e0))))
  (:action slide-k2-left-2
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k2 ?from) (clear ?e0) (clear ?e1) (legal-slide-k2-left-2 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k2 ?to) (clear ?l0) (clear ?l1) (not (at k2 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k2-left-3
   :parameters (?from ?to ?e0 ?e1 ?t0 ?l0 ?l1)
   :precondition (and (at k2 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (legal-slide-k2-left-3 ?from ?to ?e0 ?e1 ?t0 ?l0 ?l1))
   :effect (and (at k2 ?to) (clear ?l0) (clear ?l1) (not (at k2 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k2-left-4
   :parameters (?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1)
   :precondition (and (at k2 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (clear ?t1) (legal-slide-k2-left-4 ?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1))
   :effect (and (at k2 ?to) (clear ?l0) (clear ?l1) (not (at k2 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k2-right-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k2 ?from) (clear ?e0) (legal-slide-k2-right-1 ?from ?to ?e0 ?l0))
   :effect (and (at k2 ?to) (clear ?l0) (not (at k2 ?from)) (not (clear ?e0))))
  (:action slide-k2-right-2
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k2 ?from) (clear ?e0) (clear ?e1) (legal-slide-k2-right-2 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k2 ?to) (clear ?l0) (clear ?l1) (not (at k2 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k2-right-3
   :parameters (?from ?to ?e0 ?e1 ?t0 ?l0 ?l1)
   :precondition (and (at k2 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (legal-slide-k2-right-3 ?from ?to ?e0 ?e1 ?t0 ?l0 ?l1))
   :effect (and (at k2 ?to) (clear ?l0) (clear ?l1) (not (at k2 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k2-right-4
   :parameters (?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1)
   :precondition (and (at k2 ?from) (clear ?e0) (clear ?e1) (clear ?t0) (clear ?t1) (legal-slide-k2-right-4 ?from ?to ?e0 ?e1 ?t0 ?t1 ?l0 ?l1))
   :effect (and (at k2 ?to) (clear ?l0) (clear ?l1) (not (at k2 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k3-up-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k3 ?from) (clear ?e0) (legal-slide-k3-up-1 ?from ?to ?e0 ?l0))
   :effect (and (at k3 ?to) (clear ?l0) (not (at k3 ?from)) (not (clear ?e0))))
  (:action slide-k3-up-2
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k3 ?from) (clear ?e0) (clear ?e1) (legal-slide-k3-up-2 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k3 ?to) (clear ?l0) (clear ?l1) (not (at k3 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k3-up-3
   :parameters (?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2)
   :precondition (and (at k3 ?from) (clear ?e0) (clear ?e1) (clear ?e2) (legal-slide-k3-up-3 ?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2))
   :effect (and (at k3 ?to) (clear ?l0) (clear ?l1) (clear ?l2) (not (at k3 ?from)) (not (clear ?e0)) (not (clear ?e1)) (not (clear ?e2))))
  (:action slide-k3-down-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k3 ?from) (clear ?e0) (legal-slide-k3-down-1 ?from ?to ?e0 ?l0))
   :effect (and (at k3 ?to) (clear ?l0) (not (at k3 ?from)) (not (clear ?e0))))
  (:action slide-k3-down-2
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k3 ?from) (clear ?e0) (clear ?e1) (legal-slide-k3-down-2 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k3 ?to) (clear ?l0) (clear ?l1) (not (at k3 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k3-down-3
   :parameters (?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2)
   :precondition (and (at k3 ?from) (clear ?e0) (clear ?e1) (clear ?e2) (legal-slide-k3-down-3 ?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2))
   :effect (and (at k3 ?to) (clear ?l0) (clear ?l1) (clear ?l2) (not (at k3 ?from)) (not (clear ?e0)) (not (clear ?e1)) (not (clear ?e2))))
  (:action slide-k4-left-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k4 ?from) (clear ?e0) (legal-slide-k4-left-1 ?from ?to ?e0 ?l0))
   :effect (and (at k4 ?to) (clear ?l0) (not (at k4 ?from)) (not (clear ?e0))))
  (:action slide-k4-left-2
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k4 ?from) (clear ?e0) (clear ?e1) (legal-slide-k4-left-2 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k4 ?to) (clear ?l0) (clear ?l1) (not (at k4 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k4-left-3
   :parameters (?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2)
   :precondition (and (at k4 ?from) (clear ?e0) (clear ?e1) (clear ?e2) (legal-slide-k4-left-3 ?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2))
   :effect (and (at k4 ?to) (clear ?l0) (clear ?l1) (clear ?l2) (not (at k4 ?from)) (not (clear ?e0)) (not (clear ?e1)) (not (clear ?e2))))
  (:action slide-k4-right-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k4 ?from) (clear ?e0) (legal-slide-k4-right-1 ?from ?to ?e0 ?l0))
   :effect (and (at k4 ?to) (clear ?l0) (not (at k4 ?from)) (not (clear ?e0))))
  (:action slide-k4-right-2
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k4 ?from) (clear ?e0) (clear ?e1) (legal-slide-k4-right-2 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k4 ?to) (clear ?l0) (clear ?l1) (not (at k4 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action slide-k4-right-3
   :parameters (?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2)
   :precondition (and (at k4 ?from) (clear ?e0) (clear ?e1) (clear ?e2) (legal-slide-k4-right-3 ?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2))
   :effect (and (at k4 ?to) (clear ?l0) (clear ?l1) (clear ?l2) (not (at k4 ?from)) (not (clear ?e0)) (not (clear ?e1)) (not (clear ?e2))))
)
