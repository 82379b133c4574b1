; series strips/gripper n=8 seed=0: n balls from room a to room b, two grippers
(define (problem gripper-8)
  (:domain gripper)
  (:objects rooma roomb - room b0 b1 b2 b3 b4 b5 b6 b7 - ball left right - gripper)
  (:init (at-robby rooma) (free left) (free right)
    (at b0 rooma) (at b1 rooma) (at b2 rooma) (at b3 rooma) (at b4 rooma) (at b5 rooma) (at b6 rooma) (at b7 rooma))
  (:goal (and (at b0 roomb) (at b1 roomb) (at b2 roomb) (at b3 roomb) (at b4 roomb) (at b5 roomb) (at b6 roomb) (at b7 roomb))))
