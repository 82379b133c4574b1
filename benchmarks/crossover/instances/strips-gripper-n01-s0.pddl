; series strips/gripper n=1 seed=0: n balls from room a to room b, two grippers
(define (problem gripper-1)
  (:domain gripper)
  (:objects rooma roomb - room b0 - ball left right - gripper)
  (:init (at-robby rooma) (free left) (free right)
    (at b0 rooma))
  (:goal (and (at b0 roomb))))
