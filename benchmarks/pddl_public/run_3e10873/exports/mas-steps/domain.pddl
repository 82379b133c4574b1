;; puzzleplan export instances/sliding/mas_puzzle.slide
;; aaabb
;; ccddb
;; effgg
;; eehhh
;; ..i..
(define (domain puzzleplan-sliding)
  (:requirements :strips)
  (:constants k0 k1 k2 k3 k4)
  (:predicates (at ?a0 ?a1) (clear ?a0) (legal-step-k0-up-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7) (legal-step-k0-down-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5 ?a6 ?a7) (legal-step-k0-left-1 ?a0 ?a1 ?a2 ?a3) (legal-step-k0-right-1 ?a0 ?a1 ?a2 ?a3) (legal-step-k1-up-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-step-k1-down-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-step-k1-left-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-step-k1-right-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-step-k2-up-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-step-k2-down-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-step-k2-left-1 ?a0 ?a1 ?a2 ?a3) (legal-step-k2-right-1 ?a0 ?a1 ?a2 ?a3) (legal-step-k3-up-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-step-k3-down-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-step-k3-left-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-step-k3-right-1 ?a0 ?a1 ?a2 ?a3 ?a4 ?a5) (legal-step-k4-up-1 ?a0 ?a1 ?a2 ?a3) (legal-step-k4-down-1 ?a0 ?a1 ?a2 ?a3) (legal-step-k4-left-1 ?a0 ?a1 ?a2 ?a3) (legal-step-k4-right-1 ?a0 ?a1 ?a2 ?a3))
  (:action step-k0-up-1
   :parameters (?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2)
   :precondition (and (at k0 ?from) (clear ?e0) (clear ?e1) (clear ?e2) (legal-step-k0-up-1 ?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2))
   :effect (and (at k0 ?to) (clear ?l0) (clear ?l1) (clear ?l2) (not (at k0 ?from)) (not (clear ?e0)) (not (clear ?e1)) (not (clear ?e2))))
  (:action step-k0-down-1
   :parameters (?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2)
   :precondition (and (at k0 ?from) (clear ?e0) (clear ?e1) (clear ?e2) (legal-step-k0-down-1 ?from ?to ?e0 ?e1 ?e2 ?l0 ?l1 ?l2))
   :effect (and (at k0 ?to) (clear ?l0) (clear ?l1) (clear ?l2) (not (at k0 ?from)) (not (clear ?e0)) (not (clear ?e1)) (not (clear ?e2))))
  (:action step-k0-left-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k0 ?from) (clear ?e0) (legal-step-k0-left-1 ?from ?to ?e0 ?l0))
   :effect (and (at k0 ?to) (clear ?l0) (not (at k0 ?from)) (not (clear ?e0))))
  (:action step-k0-right-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k0 ?from) (clear ?e0) (legal-step-k0-right-1 ?from ?to ?e0 ?l0))
   :effect (and (at k0 ?to) (clear ?l0) (not (at k0 ?from)) (not (clear ?e0))))
  (:action step-k1-up-1
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k1 ?from) (clear ?e0) (clear ?e1) (legal-step-k1-up-1 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k1 ?to) (clear ?l0) (clear ?l1) (not (at k1 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action step-k1-down-1
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k1 ?from) (clear ?e0) (clear ?e1) (legal-step-k1-down-1 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k1 ?to) (clear ?l0) (clear ?l1) (not (at k1 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action step-k1-left-1
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k1 ?from) (clear ?e0) (clear ?e1) (legal-step-k1-left-1 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k1 ?to) (clear ?l0) (clear ?l1) (not (at k1 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action step-k1-right-1
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k1 ?from) (clear ?e0) (clear ?e1) (legal-step-k1-right-1 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k1 ?to) (clear ?l0) (clear ?l1) (not (at k1 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action step-k2-up-1
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k2 ?from) (clear ?e0) (clear ?e1) (legal-step-k2-up-1 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k2 ?to) (clear ?l0) (clear ?l1) (not (at k2 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action step-k2-down-1
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k2 ?from) (clear ?e0) (clear ?e1) (legal-step-k2-down-1 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k2 ?to) (clear ?l0) (clear ?l1) (not (at k2 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action step-k2-left-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k2 ?from) (clear ?e0) (legal-step-k2-left-1 ?from ?to ?e0 ?l0))
   :effect (and (at k2 ?to) (clear ?l0) (not (at k2 ?from)) (not (clear ?e0))))
  (:action step-k2-right-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k2 ?from) (clear ?e0) (legal-step-k2-right-1 ?from ?to ?e0 ?l0))
   :effect (and (at k2 ?to) (clear ?l0) (not (at k2 ?from)) (not (clear ?e0))))
  (:action step-k3-up-1
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k3 ?from) (clear ?e0) (clear ?e1) (legal-step-k3-up-1 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k3 ?to) (clear ?l0) (clear ?l1) (not (at k3 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action step-k3-down-1
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k3 ?from) (clear ?e0) (clear ?e1) (legal-step-k3-down-1 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k3 ?to) (clear ?l0) (clear ?l1) (not (at k3 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action step-k3-left-1
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k3 ?from) (clear ?e0) (clear ?e1) (legal-step-k3-left-1 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k3 ?to) (clear ?l0) (clear ?l1) (not (at k3 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action step-k3-right-1
   :parameters (?from ?to ?e0 ?e1 ?l0 ?l1)
   :precondition (and (at k3 ?from) (clear ?e0) (clear ?e1) (legal-step-k3-right-1 ?from ?to ?e0 ?e1 ?l0 ?l1))
   :effect (and (at k3 ?to) (clear ?l0) (clear ?l1) (not (at k3 ?from)) (not (clear ?e0)) (not (clear ?e1))))
  (:action step-k4-up-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k4 ?from) (clear ?e0) (legal-step-k4-up-1 ?from ?to ?e0 ?l0))
   :effect (and (at k4 ?to) (clear ?l0) (not (at k4 ?from)) (not (clear ?e0))))
  (:action step-k4-down-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k4 ?from) (clear ?e0) (legal-step-k4-down-1 ?from ?to ?e0 ?l0))
   :effect (and (at k4 ?to) (clear ?l0) (not (at k4 ?from)) (not (clear ?e0))))
  (:action step-k4-left-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k4 ?from) (clear ?e0) (legal-step-k4-left-1 ?from ?to ?e0 ?l0))
   :effect (and (at k4 ?to) (clear ?l0) (not (at k4 ?from)) (not (clear ?e0))))
  (:action step-k4-right-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k4 ?from) (clear ?e0) (legal-step-k4-right-1 ?from ?to ?e0 ?l0))
   :effect (and (at k4 ?to) (clear ?l0) (not (at k4 ?from)) (not (clear ?e0))))
)
