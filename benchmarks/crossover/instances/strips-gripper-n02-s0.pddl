; series strips/gripper n=2 seed=0: n balls from room a to room b, two grippers
(define (problem gripper-2)
  (:domain gripper)
  (:objects rooma roomb - room b0 b1 - ball left right - gripper)
  (:init (at-robby rooma) (free left) (free right)
    (at b0 rooma) (at b1 rooma))
  (:goal (and (at b0 roomb) (at b1 roomb))))
