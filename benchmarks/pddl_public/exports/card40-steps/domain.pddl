;; puzzleplan export instances/seeds/rushhour_card40_bmodel_v2.rh
;; KHH.F.
;; KBC.FL
;; KBCAAL
;; MMME.L
;; ..DEJJ
;; GGDII.
(define (domain puzzleplan-sliding)
  (:requirements :strips)
  (:constants k0 k1 k2 k3 k4 k5 k6 k7 k8 k9 k10 k11 k12)
  (:predicates (at ?a0 ?a1) (clear ?a0) (legal-step-k0-left-1 ?a0 ?a1 ?a2 ?a3) (legal-step-k0-right-1 ?a0 ?a1 ?a2 ?a3) (legal-step-g1-up-1 ?a0 ?a1 ?a2 ?a3 ?a4) (legal-step-g1-down-1 ?a0 ?a1 ?a2 ?a3 ?a4) (legal-step-g2-left-1 ?a0 ?a1 ?a2 ?a3 ?a4) (legal-step-g2-right-1 ?a0 ?a1 ?a2 ?a3 ?a4) (legal-step-g3-up-1 ?a0 ?a1 ?a2 ?a3 ?a4) (legal-step-g3-down-1 ?a0 ?a1 ?a2 ?a3 ?a4) (legal-step-k12-left-1 ?a0 ?a1 ?a2 ?a3) (legal-step-k12-right-1 ?a0 ?a1 ?a2 ?a3))
  (:action step-k0-left-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k0 ?from) (clear ?e0) (legal-step-k0-left-1 ?from ?to ?e0 ?l0))
   :effect (and (at k0 ?to) (clear ?l0) (not (at k0 ?from)) (not (clear ?e0))))
  (:action step-k0-right-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k0 ?from) (clear ?e0) (legal-step-k0-right-1 ?from ?to ?e0 ?l0))
   :effect (and (at k0 ?to) (clear ?l0) (not (at k0 ?from)) (not (clear ?e0))))
  (:action step-g1-up-1
   :parameters (?k ?from ?to ?e0 ?l0)
   :precondition (and (at ?k ?from) (clear ?e0) (legal-step-g1-up-1 ?k ?from ?to ?e0 ?l0))
   :effect (and (at ?k ?to) (clear ?l0) (not (at ?k ?from)) (not (clear ?e0))))
  (:action step-g1-down-1
   :parameters (?k ?from ?to ?e0 ?l0)
   :precondition (and (at ?k ?from) (clear ?e0) (legal-step-g1-down-1 ?k ?from ?to ?e0 ?l0))
   :effect (and (at ?k ?to) (clear ?l0) (not (at ?k ?from)) (not (clear ?e0))))
  (:action step-g2-left-1
   :parameters (?k ?from ?to ?e0 ?l0)
   :precondition (and (at ?k ?from) (clear ?e0) (legal-step-g2-left-1 ?k ?from ?to ?e0 ?l0))
   :effect (and (at ?k ?to) (clear ?l0) (not (at ?k ?from)) (not (clear ?e0))))
  (:action step-g2-right-1
   :parameters (?k ?from ?to ?e0 ?l0)
   :precondition (and (at ?k ?from) (clear ?e0) (legal-step-g2-right-1 ?k ?from ?to ?e0 ?l0))
   :effect (and (at ?k ?to) (clear ?l0) (not (at ?k ?from)) (not (clear ?e0))))
  (:action step-g3-up-1
   :parameters (?k ?from ?to ?e0 ?l0)
   :precondition (and (at ?k ?from) (clear ?e0) (legal-step-g3-up-1 ?k ?from ?to ?e0 ?l0))
   :effect (and (at ?k ?to) (clear ?l0) (not (at ?k ?from)) (not (clear ?e0))))
  (:action step-g3-down-1
   :parameters (?k ?from ?to ?e0 ?l0)
   :precondition (and (at ?k ?from) (clear ?e0) (legal-step-g3-down-1 ?k ?from ?to ?e0 ?l0))
   :effect (and (at ?k ?to) (clear ?l0) (not (at ?k ?from)) (not (clear ?e0))))
  (:action step-k12-left-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k12 ?from) (clear ?e0) (legal-step-k12-left-1 ?from ?to ?e0 ?l0))
   :effect (and (at k12 ?to) (clear ?l0) (not (at k12 ?from)) (not (clear ?e0))))
  (:action step-k12-right-1
   :parameters (?from ?to ?e0 ?l0)
   :precondition (and (at k12 ?from) (clear ?e0) (legal-step-k12-right-1 ?from ?to ?e0 ?l0))
   :effect (and (at k12 ?to) (clear ?l0) (not (at k12 ?from)) (not (clear ?e0))))
)
