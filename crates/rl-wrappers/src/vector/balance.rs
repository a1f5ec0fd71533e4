//! [`Balancer`]: moves the boundaries between the threads' shares of a kernel vector
//! environment so that the threads finish their steps together.
//!
//! A lockstep step lasts as long as its slowest share. On a machine whose cores do not run at
//! one speed (a host that slows one virtual CPU for a while, a core shared with another
//! process), equal shares leave the faster thread waiting. The balancer watches when each
//! share finishes (measured on some steps, from the moment the step was handed out) and moves
//! a few environments across a boundary from the share that finishes later to its neighbour.
//! Which share steps an environment never changes its results (each carries its own state and
//! generator), so balancing changes only the speed.

/// How many environments a boundary moves at least, and the multiple it moves by (kernels
/// step blocks of 8 environments in vector instructions, so that shares stay whole blocks
/// when they start as such).
const GRANULE: usize = 8;

/// The most environments a boundary moves after one measured step.
const MOST: usize = 64;

/// How much of a new measurement goes into a boundary's smoothed difference of finishing
/// times (an exponential moving average): enough to follow a change of speed within a few
/// measurements, little enough that one step's noise moves nothing.
const GAIN: f64 = 0.25;

/// A boundary moves only when the smoothed difference would take at least this many granules
/// to even out: a dead band, so that balanced shares do not swap environments back and forth
/// on noise, and each move leaves the difference on the same side.
const THRESHOLD: f64 = 1.5;

/// The boundaries' state: a smoothed difference of finishing times per boundary, and the last
/// measurement of each share. Its vectors are sized at construction, so that planning
/// allocates nothing.
#[derive(Debug, Clone)]
pub(crate) struct Balancer {
    /// Per share, when it finished the last measured step, in nanoseconds after the step was
    /// handed out (0: not measured).
    finished: Vec<u64>,
    /// Per share, how many environments it holds.
    sizes: Vec<usize>,
    /// Per boundary (between share `j` and share `j + 1`), the smoothed difference of their
    /// finishing times, `j`'s minus `j + 1`'s, in nanoseconds: positive when the left share
    /// finishes later.
    lean: Vec<f64>,
    /// Per boundary, the environments to move after [`plan`](Self::plan): positive from the
    /// end of share `j` to the front of share `j + 1`, negative the other way.
    moves: Vec<isize>,
}

impl Balancer {
    /// A balancer for `shares` shares (`shares - 1` boundaries).
    pub(crate) fn new(shares: usize) -> Self {
        let boundaries = shares.saturating_sub(1);
        Balancer {
            finished: vec![0; shares],
            sizes: vec![0; shares],
            lean: vec![0.0; boundaries],
            moves: vec![0; boundaries],
        }
    }

    /// Records that share `share`, holding `size` environments, finished the measured step
    /// `finished` nanoseconds after it was handed out.
    pub(crate) fn record(&mut self, share: usize, finished: u64, size: usize) {
        if let (Some(time), Some(slot)) = (self.finished.get_mut(share), self.sizes.get_mut(share))
        {
            *time = finished;
            *slot = size;
        }
    }

    /// Takes the recorded measurements into each boundary's smoothed difference and works out
    /// the moves ([`moves`](Self::moves)); returns whether any boundary is to move.
    ///
    /// Moving `m` environments from share `j` to share `j + 1` shortens `j`'s step by about
    /// `m` times its time per environment and lengthens `j + 1`'s by `m` times its own, so the
    /// difference shrinks by `m` times their sum: the move is the smoothed difference divided
    /// by that sum, rounded down to whole granules and capped at [`MOST`]. The smoothed
    /// difference is then reduced by the move's expected effect, so that the next
    /// measurements are compared with the new boundary. A measurement far off (an interrupt on
    /// one core) counts at most a quarter of the shorter step.
    pub(crate) fn plan(&mut self) -> bool {
        let mut any = false;
        let sides = self.finished.windows(2).zip(self.sizes.windows(2));
        for ((lean, planned), (times, sizes)) in
            self.lean.iter_mut().zip(&mut self.moves).zip(sides)
        {
            *planned = 0;
            let (&[left, right], &[left_size, right_size]) = (times, sizes) else {
                continue;
            };
            if left == 0 || right == 0 || left_size == 0 || right_size == 0 {
                continue;
            }
            let (left, right) = (left as f64, right as f64);
            let per_environment = left / left_size as f64 + right / right_size as f64;
            let limit = left.min(right) / 4.0;
            let difference = (left - right).clamp(-limit, limit);
            *lean += GAIN * (difference - *lean);
            let even_out = *lean / per_environment;
            let granules = (even_out.abs() / GRANULE as f64).floor();
            if granules < THRESHOLD {
                continue;
            }
            let count = (granules as usize * GRANULE).min(MOST);
            let count = if even_out > 0.0 {
                count as isize
            } else {
                -(count as isize)
            };
            *planned = count;
            *lean -= count as f64 * per_environment;
            any = true;
        }
        any
    }

    /// The moves of the last [`plan`](Self::plan), one per boundary, and a callback to call
    /// with each boundary that could not move as planned (no room left): its smoothed
    /// difference is forgotten, so that it builds up again only from new measurements.
    pub(crate) fn moves_and_refusals(&mut self) -> (&[isize], impl FnMut(usize) + '_) {
        let lean = &mut self.lean;
        let refused = move |boundary: usize| {
            if let Some(lean) = lean.get_mut(boundary) {
                *lean = 0.0;
            }
        };
        (&self.moves, refused)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The moves of the last plan.
    fn moves(balancer: &mut Balancer) -> Vec<isize> {
        balancer.moves_and_refusals().0.to_vec()
    }

    /// Plans once with shares that take `per_environment[k]` ns per environment, after a
    /// hand-over of `latency[k]` ns, and applies the moves to `sizes` (no room limit).
    fn round(
        balancer: &mut Balancer,
        sizes: &mut [usize],
        per_environment: &[f64],
        latency: &[f64],
    ) {
        for (k, size) in sizes.iter().enumerate() {
            let finished = latency[k] + per_environment[k] * *size as f64;
            balancer.record(k, finished as u64, *size);
        }
        if balancer.plan() {
            for (j, count) in moves(balancer).into_iter().enumerate() {
                let moved = count.unsigned_abs();
                if count > 0 {
                    sizes[j] -= moved;
                    sizes[j + 1] += moved;
                } else {
                    sizes[j] += moved;
                    sizes[j + 1] -= moved;
                }
            }
        }
    }

    #[test]
    fn equal_speeds_move_nothing() {
        let mut balancer = Balancer::new(2);
        let mut sizes = [512, 512];
        for _ in 0..100 {
            round(&mut balancer, &mut sizes, &[19.0, 19.0], &[0.0, 0.0]);
        }
        assert_eq!(sizes, [512, 512]);
    }

    #[test]
    fn a_slower_share_gives_environments_until_both_finish_together() {
        // The second share's core is 1.4 times slower: perfect balance puts 1024 / 1.714 =
        // 597 environments on the first.
        let mut balancer = Balancer::new(2);
        let mut sizes = [512, 512];
        for _ in 0..200 {
            round(&mut balancer, &mut sizes, &[19.0, 26.6], &[0.0, 0.0]);
        }
        assert_eq!(sizes.iter().sum::<usize>(), 1024);
        let [first, _] = sizes;
        assert!((584..=608).contains(&first), "{sizes:?}");
        // And back when the speeds swap.
        for _ in 0..200 {
            round(&mut balancer, &mut sizes, &[26.6, 19.0], &[0.0, 0.0]);
        }
        let [first, _] = sizes;
        assert!((416..=440).contains(&first), "{sizes:?}");
        // Balanced, it stays where it is.
        let settled = sizes;
        for _ in 0..100 {
            round(&mut balancer, &mut sizes, &[26.6, 19.0], &[0.0, 0.0]);
        }
        assert_eq!(sizes, settled);
    }

    #[test]
    fn a_late_start_is_made_up_with_fewer_environments() {
        // A worker that starts 1 µs after the calling thread, at the same speed: both finish
        // together with the boundary at (1024 * 19 + 1000) / 38 = 525, which the dead band
        // of 1.5 granules leaves within 12 environments.
        let mut balancer = Balancer::new(2);
        let mut sizes = [512, 512];
        for _ in 0..200 {
            round(&mut balancer, &mut sizes, &[19.0, 19.0], &[0.0, 1000.0]);
        }
        let [first, second] = sizes;
        assert_eq!(first + second, 1024);
        assert!((513..=537).contains(&first), "{sizes:?}");
    }

    #[test]
    fn every_boundary_of_a_chain_follows_its_neighbours() {
        // Four shares, the third one twice as slow as the others: perfect balance gives
        // 1024 / 3.5 = 293 environments to each fast one and 146 to the slow one.
        let mut balancer = Balancer::new(4);
        let mut sizes = [256, 256, 256, 256];
        for _ in 0..400 {
            round(
                &mut balancer,
                &mut sizes,
                &[10.0, 10.0, 20.0, 10.0],
                &[0.0; 4],
            );
        }
        assert_eq!(sizes.iter().sum::<usize>(), 1024);
        let [a, b, c, d] = sizes;
        assert!((120..=175).contains(&c), "{sizes:?}");
        for fast in [a, b, d] {
            assert!((265..=320).contains(&fast), "{sizes:?}");
        }
    }

    #[test]
    fn one_wild_measurement_moves_nothing() {
        // An interrupt makes one step of the first share take 1 ms: it counts as a quarter of
        // the shorter step (2.4 µs), smoothed to 0.6 µs, against about 2 µs per environment
        // (the wild step's time spread over its environments): no move.
        let mut balancer = Balancer::new(2);
        let mut sizes = [512, 512];
        balancer.record(0, 1_000_000, 512);
        balancer.record(1, 9_728, 512);
        assert!(!balancer.plan());
        for _ in 0..50 {
            round(&mut balancer, &mut sizes, &[19.0, 19.0], &[0.0, 0.0]);
        }
        assert_eq!(sizes, [512, 512]);
    }

    #[test]
    fn a_refused_move_is_forgotten() {
        let mut balancer = Balancer::new(2);
        // The first share is far slower: within a few measurements a move is planned.
        let planned = (0..5).any(|_| {
            balancer.record(0, 20_000, 512);
            balancer.record(1, 10_000, 512);
            balancer.plan()
        });
        assert!(planned);
        assert!(moves(&mut balancer)[0] > 0);
        assert!(balancer.lean[0] > 0.0);
        // It could not move (no room): what had built up is dropped.
        {
            let (_, mut refused) = balancer.moves_and_refusals();
            refused(0);
        }
        assert_eq!(balancer.lean, [0.0]);
    }

    #[test]
    fn unmeasured_shares_move_nothing() {
        let mut balancer = Balancer::new(3);
        balancer.record(0, 0, 100);
        balancer.record(1, 5_000, 100);
        balancer.record(2, 9_000, 0);
        assert!(!balancer.plan());
        assert_eq!(moves(&mut balancer), [0, 0]);
    }
}
