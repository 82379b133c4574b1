; series strips/gripper n=4 seed=0: n balls from room a to room b, two grippers
(define (problem gripper-4)
  (:domain gripper)
  (:objects rooma roomb - room b0 b1 b2 b3 - ball left right - gripper)
  (:init (at-robby rooma) (free left) (free right)
    (at b0 rooma) (at b1 rooma) (at b2 rooma) (at b3 rooma))
  (:goal (and (at b0 roomb) (at b1 roomb) (at b2 roomb) (at b3 roomb))))
