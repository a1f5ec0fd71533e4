"""A fixed amount of work for callgrind: STEPS steps of a 1024-environment `rlrs.RustVectorEnv`
of ID on one thread (copy=False, the default episode statistics), with 16 rows of actions drawn
once from the action space with seed 0, cycled. The difference of two counts (450 and 50 steps)
over 400 x 1024 is the instructions of one environment step from Python, without the start-up:

    for steps in 50 450; do
        OPENBLAS_NUM_THREADS=1 PYTHONHASHSEED=0 valgrind --tool=callgrind \\
            --callgrind-out-file=/tmp/cg.$steps python benches/compare/python_steps.py ID $steps
    done

`OPENBLAS_NUM_THREADS=1` matters: NumPy's OpenBLAS starts threads at import that spin for a
while, and callgrind counts every thread's instructions, so without it two counts of the same
build differ by several percent. With it (and `PYTHONHASHSEED=0`) they are the same to the
instruction. Needs rlrs installed (`benches/compare/install_rlrs.sh PYTHON`, a release build);
not run in CI.

Usage: python benches/compare/python_steps.py ID STEPS
"""

import sys

import numpy as np

import rlrs


def main(arguments):
    if len(arguments) != 2 or not arguments[1].isdigit():
        sys.exit("usage: python_steps.py ID STEPS")
    env_id, steps = arguments[0], int(arguments[1])
    env = rlrs.RustVectorEnv(env_id, 1024, threads=1, copy=False)
    env.reset(seed=0)
    env.action_space.seed(0)
    actions = np.stack([env.action_space.sample() for _ in range(16)])
    for k in range(steps):
        env.step(actions[k % 16])
    env.close()


if __name__ == "__main__":
    main(sys.argv[1:])
