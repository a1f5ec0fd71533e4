//! [`RunningMeanVariance`]: the running mean and variance of vectors, updated as Gymnasium's
//! `RunningMeanStd` updates them.

use rl_core::CoreError;
use rl_spaces::{FlatScalar, SpaceError};
use serde::{Deserialize, Serialize};

/// The running mean and variance of a stream of vectors (Gymnasium's `RunningMeanStd`), with
/// Chan, Golub and LeVeque's parallel update: a batch of `n` samples with mean `m_b` and
/// variance `v_b` is merged into the running `count`, `mean` and `variance` as
///
/// ```text
/// delta = m_b - mean;  total = count + n
/// mean' = mean + delta * n / total
/// variance' = (variance * count + v_b * n + delta² * count * n / total) / total
/// ```
///
/// with the same floating-point operations in the same order as Gymnasium, so the statistics
/// agree bit for bit. It starts with mean 0, variance 1 and a count of
/// [`INITIAL_COUNT`](Self::INITIAL_COUNT) (Gymnasium's `epsilon=1e-4`). It serializes, so a
/// training run can hand its statistics to an evaluation environment.
///
/// ```
/// use rl_wrappers::stateful::RunningMeanVariance;
///
/// let mut statistics = RunningMeanVariance::new(1)?;
/// for x in [1.0f64, 2.0, 3.0] {
///     statistics.update(&[x])?;
/// }
/// assert!((statistics.mean()[0] - 2.0).abs() < 1e-3);
/// assert!((statistics.variance()[0] - 2.0 / 3.0).abs() < 1e-3);
/// # Ok::<(), rl_core::CoreError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Moments", into = "Moments")]
pub struct RunningMeanVariance {
    mean: Vec<f64>,
    variance: Vec<f64>,
    count: f64,
}

/// The serialized form, checked when read.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Moments {
    mean: Vec<f64>,
    variance: Vec<f64>,
    count: f64,
}

impl TryFrom<Moments> for RunningMeanVariance {
    type Error = CoreError;

    fn try_from(m: Moments) -> Result<Self, CoreError> {
        if m.mean.len() != m.variance.len() {
            return Err(length("variance", m.mean.len(), m.variance.len()));
        }
        if !(m.count.is_finite() && m.count > 0.0) {
            return Err(CoreError::invalid_parameter(
                "count",
                format!("{} is not a positive count", m.count),
            ));
        }
        if let Some(v) = m.variance.iter().find(|v| !(v.is_finite() && **v >= 0.0)) {
            return Err(CoreError::invalid_parameter(
                "variance",
                format!("{v} is not a finite non-negative variance"),
            ));
        }
        Ok(RunningMeanVariance {
            mean: m.mean,
            variance: m.variance,
            count: m.count,
        })
    }
}

impl From<RunningMeanVariance> for Moments {
    fn from(r: RunningMeanVariance) -> Self {
        Moments {
            mean: r.mean,
            variance: r.variance,
            count: r.count,
        }
    }
}

impl RunningMeanVariance {
    /// The count the statistics start with (Gymnasium's `epsilon=1e-4`), which keeps the first
    /// update well defined.
    pub const INITIAL_COUNT: f64 = 1e-4;

    /// Statistics of vectors of `dimension` entries: mean 0, variance 1, count
    /// [`INITIAL_COUNT`](Self::INITIAL_COUNT). Errors if the vectors cannot be allocated.
    pub fn new(dimension: usize) -> Result<Self, CoreError> {
        if dimension.saturating_mul(size_of::<f64>()) > isize::MAX as usize {
            return Err(CoreError::invalid_parameter(
                "dimension",
                format!("{dimension} entries are too many"),
            ));
        }
        Ok(RunningMeanVariance {
            mean: vec![0.0; dimension],
            variance: vec![1.0; dimension],
            count: Self::INITIAL_COUNT,
        })
    }

    /// The number of entries of each vector.
    pub fn dimension(&self) -> usize {
        self.mean.len()
    }

    /// The running mean of each entry.
    pub fn mean(&self) -> &[f64] {
        &self.mean
    }

    /// The running (population) variance of each entry.
    pub fn variance(&self) -> &[f64] {
        &self.variance
    }

    /// The number of samples seen, plus [`INITIAL_COUNT`](Self::INITIAL_COUNT).
    pub fn count(&self) -> f64 {
        self.count
    }

    /// Merges one sample (a batch of one: its mean is the sample, its variance 0), as
    /// Gymnasium's `update(np.array([x]))` does. Errors if the sample has another dimension.
    pub fn update<T: FlatScalar>(&mut self, sample: &[T]) -> Result<(), CoreError> {
        if sample.len() != self.dimension() {
            return Err(length("sample", self.dimension(), sample.len()));
        }
        let (count, batch_count) = (self.count, 1.0);
        let total = count + batch_count;
        for ((mean, variance), x) in self.mean.iter_mut().zip(&mut self.variance).zip(sample) {
            (*mean, *variance) =
                merged(*mean, *variance, count, x.to_f64(), 0.0, batch_count, total);
        }
        self.count = total;
        Ok(())
    }

    /// Merges a batch of `batch_count` samples with the given mean and variance of each entry
    /// (Gymnasium's `update_from_moments`). Errors on another dimension or a count that is not
    /// positive.
    pub fn update_from_moments(
        &mut self,
        batch_mean: &[f64],
        batch_variance: &[f64],
        batch_count: f64,
    ) -> Result<(), CoreError> {
        if batch_mean.len() != self.dimension() {
            return Err(length("batch mean", self.dimension(), batch_mean.len()));
        }
        if batch_variance.len() != self.dimension() {
            return Err(length(
                "batch variance",
                self.dimension(),
                batch_variance.len(),
            ));
        }
        if !(batch_count.is_finite() && batch_count > 0.0) {
            return Err(CoreError::invalid_parameter(
                "batch_count",
                format!("{batch_count} is not a positive count"),
            ));
        }
        let count = self.count;
        let total = count + batch_count;
        for (((mean, variance), m), v) in self
            .mean
            .iter_mut()
            .zip(&mut self.variance)
            .zip(batch_mean)
            .zip(batch_variance)
        {
            (*mean, *variance) = merged(*mean, *variance, count, *m, *v, batch_count, total);
        }
        self.count = total;
        Ok(())
    }

    /// Merges statistics gathered elsewhere (by another environment of a vector, say).
    pub fn merge(&mut self, other: &RunningMeanVariance) -> Result<(), CoreError> {
        self.update_from_moments(&other.mean, &other.variance, other.count)
    }
}

/// Gymnasium's `update_mean_var_count_from_moments` for one entry, operation for operation.
fn merged(
    mean: f64,
    variance: f64,
    count: f64,
    batch_mean: f64,
    batch_variance: f64,
    batch_count: f64,
    total: f64,
) -> (f64, f64) {
    let delta = batch_mean - mean;
    let new_mean = mean + delta * batch_count / total;
    let m_a = variance * count;
    let m_b = batch_variance * batch_count;
    let m2 = m_a + m_b + delta * delta * count * batch_count / total;
    (new_mean, m2 / total)
}

fn length(what: &'static str, expected: usize, found: usize) -> CoreError {
    CoreError::Space(SpaceError::LengthMismatch {
        what,
        expected,
        found,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_updates_agree_with_batch_moments() {
        let samples = [[1.0, -3.0], [4.0, 0.5], [2.5, 2.0], [-1.0, 8.0]];
        let mut one_by_one = RunningMeanVariance::new(2).expect("small");
        for s in &samples {
            one_by_one.update(s).expect("dimension 2");
        }
        // The same samples as one batch of four.
        let n = samples.len() as f64;
        let mean: Vec<f64> = (0..2)
            .map(|j| samples.iter().map(|s| s[j]).sum::<f64>() / n)
            .collect();
        let variance: Vec<f64> = (0..2)
            .map(|j| {
                samples
                    .iter()
                    .map(|s| (s[j] - mean[j]).powi(2))
                    .sum::<f64>()
                    / n
            })
            .collect();
        let mut batch = RunningMeanVariance::new(2).expect("small");
        batch
            .update_from_moments(&mean, &variance, n)
            .expect("dimension 2");
        for j in 0..2 {
            assert!((one_by_one.mean()[j] - batch.mean()[j]).abs() < 1e-12);
            assert!((one_by_one.variance()[j] - batch.variance()[j]).abs() < 1e-9);
        }
        assert_eq!(one_by_one.count(), batch.count());
    }

    #[test]
    fn the_first_update_follows_gymnasium() {
        // Gymnasium: RunningMeanStd(shape=()) then update(np.array([3.0])).
        let mut r = RunningMeanVariance::new(1).expect("small");
        r.update(&[3.0f32]).expect("dimension 1");
        let total = 1e-4 + 1.0;
        assert_eq!(r.mean()[0], 0.0 + 3.0 * 1.0 / total);
        assert_eq!(
            r.variance()[0],
            (1.0 * 1e-4 + 0.0 * 1.0 + 3.0 * 3.0 * 1e-4 * 1.0 / total) / total
        );
        assert_eq!(r.count(), total);
    }

    #[test]
    fn wrong_input_is_an_error() {
        let mut r = RunningMeanVariance::new(2).expect("small");
        assert!(r.update(&[1.0f64]).is_err());
        assert!(
            r.update_from_moments(&[0.0, 0.0], &[1.0, 1.0], 0.0)
                .is_err()
        );
        assert!(r.update_from_moments(&[0.0], &[1.0, 1.0], 1.0).is_err());
        assert_eq!(
            r,
            RunningMeanVariance::new(2).expect("small"),
            "failed updates change nothing"
        );
    }

    #[test]
    fn serialized_statistics_are_checked() {
        let r = RunningMeanVariance::new(2).expect("small");
        let json = serde_json::to_string(&r).expect("serializes");
        assert_eq!(
            serde_json::from_str::<RunningMeanVariance>(&json).expect("reads"),
            r
        );
        let bad = r#"{"mean": [0.0], "variance": [1.0, 1.0], "count": 1.0}"#;
        assert!(serde_json::from_str::<RunningMeanVariance>(bad).is_err());
        let negative = r#"{"mean": [0.0], "variance": [-1.0], "count": 1.0}"#;
        assert!(serde_json::from_str::<RunningMeanVariance>(negative).is_err());
    }
}
