//! Balancing a vector environment's threads: the chunks its environments are split into
//! ([`layout`]) and the [`Balancer`] that moves chunks across the boundaries between the
//! threads' shares so that the threads finish their steps together.
//!
//! A lockstep step lasts as long as its slowest share. On a machine whose cores do not run at
//! one speed (a virtual CPU the host slows for a while, a core shared with another process),
//! even shares leave the faster thread waiting: on the 2-core VM of docs/PERFORMANCE.md, two
//! threads with static shares reached 1.54 and 1.65 times one thread where the balanced ones
//! reached 1.70 (CartPole and MountainCar, the same rounds). The balancer measures when each
//! share finishes a step and, when one boundary's neighbours keep finishing apart by most of a
//! chunk's worth of work, moves the chunk at that boundary to the share that finishes
//! first. Which thread steps an environment never changes its results (each environment has
//! its own state and generator), so balancing changes only the speed.

use std::time::Duration;

/// How many movable chunks each side of a boundary starts with: a share's quarter next to
/// each neighbour is split into this many chunks (an eighth of the share each), so that a
/// boundary moves by an eighth of a share at a time, at most twice each way before reaching a
/// share's fixed core (a speed ratio of up to about 1.7 between neighbouring cores is evened
/// out). Each chunk costs the fixed work of one kernel call per step (about 0.1 µs for
/// CartPole), so finer chunks cost more than their finer moves bought (docs/PERFORMANCE.md,
/// "The vector runtime").
const CHUNKS_PER_SIDE: usize = 2;

/// The smallest share (in environments) whose sides are split into movable chunks: below it a
/// share is one chunk and its boundaries stay where they are.
const SMALLEST_SPLIT_SHARE: usize = 64;

/// How much of a new measurement goes into a boundary's smoothed number of environments that
/// would even out its neighbours' finishing times (an exponential moving average): enough to follow a change of speed within a few
/// steps, little enough that one step's noise moves nothing.
const GAIN: f64 = 0.25;

/// A chunk moves when the smoothed number reaches this many times the chunk's environments.
/// Over a half, so that a move always shrinks the difference and never calls for the move
/// back (what is left, on either side, is under a quarter of the chunk, inside the other
/// direction's threshold); under one, so that
/// shares whose speeds differ by less than a chunk's worth still get the chunk that brings them
/// closer (chunks are an eighth of a share: a core 1.3 times slower than its neighbour is worth
/// about 0.8 of a chunk).
const THRESHOLD: f64 = 0.75;

/// How many chunks one measurement counts for at most: see [`Balancer::plan`]. From zero,
/// one measurement at this limit brings the smoothed number to [`GAIN`] times two, half a
/// chunk, under the [`THRESHOLD`]; two in a row bring it to seven eighths and move the chunk.
const OUTLIER_CHUNKS: f64 = 2.0;

/// The chunks of `len` environments on `threads` threads, per thread in order, each
/// `(first, len)`: thread `k` starts with the `k`-th even contiguous share of the
/// environments. With one thread, or shares smaller than [`SMALLEST_SPLIT_SHARE`], each share
/// is one chunk; otherwise each share's quarter next to each neighbour is split into
/// [`CHUNKS_PER_SIDE`] chunks (rounded to whole blocks of 8 environments where the share
/// allows, the blocks the kernels step in vector instructions), and the rest is one chunk.
pub(crate) fn layout(len: usize, threads: usize) -> Vec<Vec<(usize, usize)>> {
    let threads = threads.clamp(1, len.max(1));
    let mut layout = Vec::with_capacity(threads);
    for k in 0..threads {
        let first = k * len / threads;
        let size = (k + 1) * len / threads - first;
        if threads == 1 || size < SMALLEST_SPLIT_SHARE {
            layout.push(vec![(first, size)]);
            continue;
        }
        // A side's chunk: an eighth of the share, in whole blocks of 8.
        let chunk = (size / (4 * CHUNKS_PER_SIDE) / 8 * 8).max(1);
        let front = if k > 0 { CHUNKS_PER_SIDE } else { 0 };
        let back = if k + 1 < threads { CHUNKS_PER_SIDE } else { 0 };
        let core = size - (front + back) * chunk;
        let mut chunks = Vec::with_capacity(front + 1 + back);
        let mut next = first;
        for length in std::iter::repeat_n(chunk, front)
            .chain(std::iter::once(core))
            .chain(std::iter::repeat_n(chunk, back))
        {
            chunks.push((next, length));
            next += length;
        }
        layout.push(chunks);
    }
    layout
}

/// The boundaries' state: a smoothed number of environments to move per boundary, and the move
/// each plans. Its vectors are sized at construction, so that planning allocates nothing.
#[derive(Debug, Clone)]
pub(crate) struct Balancer {
    /// Per boundary (between share `j` and share `j + 1`), the smoothed number of environments
    /// that would even out their finishing times (see [`plan`](Self::plan)): positive when the
    /// left share finishes later, and environments should move right.
    lean: Vec<f64>,
    /// Per boundary, the move [`plan`](Self::plan) decided.
    moves: Vec<Move>,
}

/// What a boundary does after a measured step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Move {
    /// Nothing.
    Stay,
    /// The left share's last chunk goes to the right share.
    Right,
    /// The right share's first chunk goes to the left share.
    Left,
}

/// One share's measurement of a step: when it finished after the step was handed out, how
/// many environments it holds, and the sizes of its chunks at each end (what a move would
/// hand over), `None` when it holds a single chunk (it keeps at least one).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Measurement {
    pub(crate) finished: Duration,
    pub(crate) size: usize,
    pub(crate) first_chunk: Option<usize>,
    pub(crate) last_chunk: Option<usize>,
}

impl Balancer {
    /// A balancer for `shares` shares (`shares - 1` boundaries).
    pub(crate) fn new(shares: usize) -> Self {
        let boundaries = shares.saturating_sub(1);
        Balancer {
            lean: vec![0.0; boundaries],
            moves: vec![Move::Stay; boundaries],
        }
    }

    /// Takes one step's measurements (one per share, in order) into each boundary's smoothed
    /// difference and returns the move of each boundary.
    ///
    /// Moving `m` environments from share `j` to share `j + 1` shortens `j`'s step by about
    /// `m` times its time per environment and lengthens `j + 1`'s by `m` times its own, so the
    /// difference shrinks by `m` times their sum: a step's difference divided by that sum is
    /// how many environments would even it out. A boundary smooths that number and moves the
    /// chunk at its edge when it reaches [`THRESHOLD`] times the chunk, then takes the chunk
    /// off the smoothed number, so that the next measurements are compared with the new
    /// boundary. One measurement counts for at most [`OUTLIER_CHUNKS`] chunks (of the chunk
    /// that would move): one long interrupt moves nothing, while a neighbour slower by any
    /// factor, measured step after step, still has a chunk moved away from it every step or
    /// two.
    pub(crate) fn plan(&mut self, measurements: &[Measurement]) -> &[Move] {
        let sides = measurements.windows(2);
        for ((lean, planned), pair) in self.lean.iter_mut().zip(&mut self.moves).zip(sides) {
            *planned = Move::Stay;
            let [left, right] = pair else {
                continue;
            };
            if left.size == 0 || right.size == 0 {
                continue;
            }
            let (left_time, right_time) = (
                left.finished.as_nanos() as f64,
                right.finished.as_nanos() as f64,
            );
            if left_time == 0.0 || right_time == 0.0 {
                continue;
            }
            let per_environment = left_time / left.size as f64 + right_time / right.size as f64;
            let even_out = (left_time - right_time) / per_environment;
            let towards = if even_out > 0.0 {
                left.last_chunk
            } else {
                right.first_chunk
            };
            let limit = OUTLIER_CHUNKS * towards.unwrap_or(0) as f64;
            *lean += GAIN * (even_out.clamp(-limit, limit) - *lean);
            let (chunk, direction) = if *lean > 0.0 {
                (left.last_chunk, Move::Right)
            } else {
                (right.first_chunk, Move::Left)
            };
            let Some(chunk) = chunk else {
                continue;
            };
            if lean.abs() < THRESHOLD * chunk as f64 {
                continue;
            }
            *planned = direction;
            *lean -= (chunk as f64).copysign(*lean);
        }
        &self.moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes of the chunks of each thread.
    fn sizes(layout: &[Vec<(usize, usize)>]) -> Vec<Vec<usize>> {
        layout
            .iter()
            .map(|chunks| chunks.iter().map(|(_, len)| *len).collect())
            .collect()
    }

    #[test]
    fn the_layout_covers_every_environment_in_order_with_even_shares() {
        assert_eq!(layout(5, 1), vec![vec![(0, 5)]]);
        assert_eq!(
            sizes(&layout(1024, 2)),
            vec![vec![384, 64, 64], vec![64, 64, 384]]
        );
        assert_eq!(sizes(&layout(7, 3)), vec![vec![2], vec![2], vec![3]]);
        for (len, threads) in [
            (1, 1),
            (7, 4),
            (130, 3),
            (64, 2),
            (1024, 3),
            (1000, 2),
            (3, 8),
        ] {
            let list = layout(len, threads);
            assert_eq!(list.len(), threads.min(len));
            let mut next = 0;
            for (k, chunks) in list.iter().enumerate() {
                let share: usize = chunks.iter().map(|(_, len)| len).sum();
                let even = (k + 1) * len / list.len() - k * len / list.len();
                assert_eq!(share, even, "{len} on {threads}, thread {k}");
                for (first, chunk) in chunks {
                    assert_eq!(*first, next, "{len} on {threads}");
                    assert!(*chunk > 0, "{len} on {threads}");
                    next += chunk;
                }
            }
            assert_eq!(next, len);
        }
    }

    /// One share's measurement when it takes `per_environment` ns per environment after a
    /// hand-over of `latency` ns, with chunks of 32 at its ends.
    fn measure(size: usize, per_environment: f64, latency: f64) -> Measurement {
        Measurement {
            finished: Duration::from_nanos((latency + per_environment * size as f64) as u64),
            size,
            first_chunk: Some(32),
            last_chunk: Some(32),
        }
    }

    /// Plans `rounds` times with shares of the given speeds, applying the moves to `sizes`.
    fn run(
        balancer: &mut Balancer,
        sizes: &mut [usize; 2],
        per_environment: [f64; 2],
        rounds: usize,
    ) {
        for _ in 0..rounds {
            let measured = [
                measure(sizes[0], per_environment[0], 0.0),
                measure(sizes[1], per_environment[1], 0.0),
            ];
            match balancer.plan(&measured)[0] {
                Move::Stay => {}
                Move::Right => (sizes[0], sizes[1]) = (sizes[0] - 32, sizes[1] + 32),
                Move::Left => (sizes[0], sizes[1]) = (sizes[0] + 32, sizes[1] - 32),
            }
        }
    }

    #[test]
    fn equal_speeds_move_nothing() {
        let mut balancer = Balancer::new(2);
        let mut sizes = [512, 512];
        run(&mut balancer, &mut sizes, [19.0, 19.0], 100);
        assert_eq!(sizes, [512, 512]);
    }

    #[test]
    fn a_slower_share_gives_chunks_until_both_finish_together_and_stays() {
        // The second share's core is 1.4 times slower: perfect balance puts 1024 / 1.714 =
        // 597 environments on the first; chunks of 32 get within one chunk of it.
        let mut balancer = Balancer::new(2);
        let mut sizes = [512, 512];
        run(&mut balancer, &mut sizes, [19.0, 26.6], 200);
        assert_eq!(sizes.iter().sum::<usize>(), 1024);
        assert!((576..=608).contains(&sizes[0]), "{sizes:?}");
        let settled = sizes;
        run(&mut balancer, &mut sizes, [19.0, 26.6], 100);
        assert_eq!(sizes, settled, "balanced, it stays");
        // And back when the speeds swap.
        run(&mut balancer, &mut sizes, [26.6, 19.0], 200);
        assert!((416..=448).contains(&sizes[0]), "{sizes:?}");
    }

    #[test]
    fn a_share_two_three_or_ten_times_slower_still_gives_chunks_until_both_finish_together() {
        // Differences this large are clamped (to two chunks' worth), which slows the moves but
        // does not stop them: the first share ends within one chunk of 1024 r / (1 + r).
        for (ratio, ideal) in [(2.0, 682.7), (3.0, 768.0), (10.0, 930.9)] {
            let mut balancer = Balancer::new(2);
            let mut sizes = [512, 512];
            run(&mut balancer, &mut sizes, [19.0, 19.0 * ratio], 400);
            assert!(
                (sizes[0] as f64 - ideal).abs() <= 32.0,
                "{ratio} times slower: {sizes:?}"
            );
        }
    }

    #[test]
    fn a_share_of_one_chunk_gives_nothing_and_an_outlier_moves_nothing() {
        let mut balancer = Balancer::new(2);
        let mut single = measure(512, 30.0, 0.0);
        single.last_chunk = None;
        for _ in 0..50 {
            assert_eq!(
                balancer.plan(&[single, measure(512, 19.0, 0.0)]),
                &[Move::Stay]
            );
        }
        // One step where the left share was interrupted for a long time, then even steps.
        let mut balancer = Balancer::new(2);
        let slow = measure(512, 19.0, 1e7);
        assert_eq!(
            balancer.plan(&[slow, measure(512, 19.0, 0.0)]),
            &[Move::Stay]
        );
        for _ in 0..50 {
            let even = measure(512, 19.0, 0.0);
            assert_eq!(balancer.plan(&[even, even]), &[Move::Stay]);
        }
    }
}
