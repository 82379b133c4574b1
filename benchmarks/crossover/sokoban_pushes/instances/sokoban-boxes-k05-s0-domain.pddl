;; puzzleplan export benchmarks/crossover/instances/sokoban-boxes-k05-s0.xsb
;; ##########
;; # @      #
;; #.       #
;; #$       #
;; #        #
;; #  ..    #
;; #  $$   $#
;; #    .$ .#
;; #        #
;; ##########
(define (domain puzzleplan-sokoban)
  (:requirements :strips :action-costs)
  (:predicates (player ?a0) (clear ?a0) (legal-walk-up ?a0 ?a1) (box ?a0) (legal-push-up ?a0 ?a1 ?a2) (legal-walk-down ?a0 ?a1) (legal-push-down ?a0 ?a1 ?a2) (legal-walk-left ?a0 ?a1) (legal-push-left ?a0 ?a1 ?a2) (legal-walk-right ?a0 ?a1) (legal-push-right ?a0 ?a1 ?a2))
  (:functions (total-cost) - number)
  (:action walk-up
   :parameters (?from ?to)
   :precondition (and (player ?from) (clear ?to) (legal-walk-up ?from ?to))
   :effect (and (player ?to) (clear ?from) (not (player ?from)) (not (clear ?to)) (increase (total-cost) 0)))
  (:action push-up
   :parameters (?from ?box ?to)
   :precondition (and (player ?from) (box ?box) (clear ?to) (legal-push-up ?from ?box ?to))
   :effect (and (player ?box) (box ?to) (clear ?from) (not (player ?from)) (not (box ?box)) (not (clear ?to)) (increase (total-cost) 1)))
  (:action walk-down
   :parameters (?from ?to)
   :precondition (and (player ?from) (clear ?to) (legal-walk-down ?from ?to))
   :effect (and (player ?to) (clear ?from) (not (player ?from)) (not (clear ?to)) (increase (total-cost) 0)))
  (:action push-down
   :parameters (?from ?box ?to)
   :precondition (and (player ?from) (box ?box) (clear ?to) (legal-push-down ?from ?box ?to))
   :effect (and (player ?box) (box ?to) (clear ?from) (not (player ?from)) (not (box ?box)) (not (clear ?to)) (increase (total-cost) 1)))
  (:action walk-left
   :parameters (?from ?to)
   :precondition (and (player ?from) (clear ?to) (legal-walk-left ?from ?to))
   :effect (and (player ?to) (clear ?from) (not (player ?from)) (not (clear ?to)) (increase (total-cost) 0)))
  (:action push-left
   :parameters (?from ?box ?to)
   :precondition (and (player ?from) (box ?box) (clear ?to) (legal-push-left ?from ?box ?to))
   :effect (and (player ?box) (box ?to) (clear ?from) (not (player ?from)) (not (box ?box)) (not (clear ?to)) (increase (total-cost) 1)))
  (:action walk-right
   :parameters (?from ?to)
   :precondition (and (player ?from) (clear ?to) (legal-walk-right ?from ?to))
   :effect (and (player ?to) (clear ?from) (not (player ?from)) (not (clear ?to)) (increase (total-cost) 0)))
  (:action push-right
   :parameters (?from ?box ?to)
   :precondition (and (player ?from) (box ?box) (clear ?to) (legal-push-right ?from ?box ?to))
   :effect (and (player ?box) (box ?to) (clear ?from) (not (player ?from)) (not (box ?box)) (not (clear ?to)) (increase (total-cost) 1)))
)
