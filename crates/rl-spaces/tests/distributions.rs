//! Goodness of fit: with fixed seeds, sampled frequencies pass a chi-squared test at the 0.1%
//! level for the distributions and the sampling rules of the spaces.
//!
//! The seeds are fixed, so each test is deterministic; a failure means the sampler changed.

use rand::SeedableRng;
use rl_spaces::{BoxSpace, Discrete, DiscreteDistribution, Distribution, SampleSpace};

/// Chi-squared critical values at the 0.001 level, indexed by degrees of freedom.
fn critical_value(degrees_of_freedom: usize) -> f64 {
    match degrees_of_freedom {
        1 => 10.828,
        2 => 13.816,
        3 => 16.266,
        4 => 18.467,
        9 => 27.877,
        other => panic!("no critical value tabulated for {other} degrees of freedom"),
    }
}

/// The chi-squared statistic of observed counts against expected probabilities.
fn chi_squared(counts: &[usize], probabilities: &[f64]) -> f64 {
    let total: usize = counts.iter().sum();
    counts
        .iter()
        .zip(probabilities)
        .map(|(c, p)| {
            let expected = p * total as f64;
            (*c as f64 - expected).powi(2) / expected
        })
        .sum()
}

fn assert_fits(name: &str, counts: &[usize], probabilities: &[f64]) {
    let statistic = chi_squared(counts, probabilities);
    let limit = critical_value(counts.len() - 1);
    assert!(
        statistic < limit,
        "{name}: chi-squared {statistic:.2} >= {limit} for counts {counts:?} and probabilities {probabilities:?}"
    );
}

const DRAWS: usize = 40_000;

#[test]
fn discrete_distribution_draws_in_proportion_to_weights() {
    let d = DiscreteDistribution::new(vec![(0usize, 1.0), (1, 2.0), (2, 3.0), (3, 4.0)]).unwrap();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(1);
    let mut counts = [0usize; 4];
    for _ in 0..DRAWS {
        counts[d.sample(&mut rng)] += 1;
    }
    assert_fits("DiscreteDistribution", &counts, &[0.1, 0.2, 0.3, 0.4]);
}

#[test]
fn discrete_space_sampling_is_uniform() {
    let space = Discrete::with_start(5, -2).unwrap();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(2);
    let mut counts = [0usize; 5];
    for _ in 0..DRAWS {
        counts[(space.sample(&mut rng) + 2) as usize] += 1;
    }
    assert_fits("Discrete", &counts, &[0.2; 5]);
}

#[test]
fn masked_and_weighted_sampling_fit() {
    let space = Discrete::new(5).unwrap();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(3);
    let mask = [true, false, true, true, false];
    let mut counts = [0usize; 3];
    for _ in 0..DRAWS {
        let x = space.sample_masked(&mask, &mut rng).unwrap().unwrap();
        counts[[0, 9, 1, 2][x as usize]] += 1;
    }
    assert_fits("masked Discrete", &counts, &[1.0 / 3.0; 3]);

    let weights = [1.0, 0.0, 3.0, 0.0, 4.0];
    let mut counts = [0usize; 3];
    for _ in 0..DRAWS {
        let x = space.sample_weighted(&weights, &mut rng).unwrap().unwrap();
        counts[[0, 9, 1, 9, 2][x as usize]] += 1;
    }
    assert_fits("weighted Discrete", &counts, &[0.125, 0.375, 0.5]);
}

/// Deciles of the standard normal distribution.
const NORMAL_DECILES: [f64; 9] = [
    -1.281_551_565_5,
    -0.841_621_233_6,
    -0.524_400_512_7,
    -0.253_347_103_1,
    0.0,
    0.253_347_103_1,
    0.524_400_512_7,
    0.841_621_233_6,
    1.281_551_565_5,
];

fn decile_counts(values: impl Iterator<Item = f64>, deciles: &[f64; 9]) -> [usize; 10] {
    let mut counts = [0usize; 10];
    for v in values {
        counts[deciles.partition_point(|d| *d <= v)] += 1;
    }
    counts
}

#[test]
fn box_sampling_follows_gymnasium_per_side() {
    // One entry of each kind: bounded, bounded below, bounded above, unbounded.
    let space = BoxSpace::from_vecs(
        vec![2.0, -1.0, f64::NEG_INFINITY, f64::NEG_INFINITY],
        vec![4.0, f64::INFINITY, 5.0, f64::INFINITY],
    )
    .unwrap();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(4);
    let samples: Vec<_> = (0..DRAWS).map(|_| space.sample(&mut rng)).collect();

    let uniform_deciles: [f64; 9] = std::array::from_fn(|i| 2.0 + 0.2 * (i + 1) as f64);
    assert_fits(
        "uniform side",
        &decile_counts(samples.iter().map(|x| x[0]), &uniform_deciles),
        &[0.1; 10],
    );

    // low + Exp(1): deciles at low - ln(1 - q).
    let exponential_deciles: [f64; 9] =
        std::array::from_fn(|i| -1.0 - (1.0 - 0.1 * (i + 1) as f64).ln());
    assert_fits(
        "lower-bounded side",
        &decile_counts(samples.iter().map(|x| x[1]), &exponential_deciles),
        &[0.1; 10],
    );

    // high - Exp(1): mirror image.
    let mirrored = samples.iter().map(|x| 5.0 - x[2]);
    let unit_exponential: [f64; 9] = std::array::from_fn(|i| -(1.0 - 0.1 * (i + 1) as f64).ln());
    assert_fits(
        "upper-bounded side",
        &decile_counts(mirrored, &unit_exponential),
        &[0.1; 10],
    );

    assert_fits(
        "unbounded side",
        &decile_counts(samples.iter().map(|x| x[3]), &NORMAL_DECILES),
        &[0.1; 10],
    );
}

#[test]
fn integer_boxes_are_uniform_over_both_bounds() {
    let space = BoxSpace::uniform(&[1], -1i8, 2).unwrap();
    let mut rng = rand_pcg::Pcg64::seed_from_u64(5);
    let mut counts = [0usize; 4];
    for _ in 0..DRAWS {
        counts[(space.sample(&mut rng)[0] + 1) as usize] += 1;
    }
    assert_fits("integer Box", &counts, &[0.25; 4]);
}
