//! [`TileCoder`]: sparse binary features of a bounded vector by overlapping grids (tilings).

use crate::ExperimentError;

/// The most features a tile coder may have per action.
const MAX_FEATURES: usize = 1 << 24;

/// Tile coding (Sutton and Barto, section 9.5.4): `tilings` grids of `tiles` tiles per
/// dimension cover the box `[low, high]`, each grid offset by a fraction of a tile (the
/// asymmetric offsets `(1, 3, 5, ...)` of Miller and Glanz). A point activates exactly one tile
/// per tiling; values outside the box are clamped onto it.
///
/// ```
/// use rl_experiment::agent::TileCoder;
///
/// let coder = TileCoder::new(&[-1.0, 0.0], &[1.0, 10.0], 4, 8)?;
/// let mut active = [0usize; 8];
/// coder.active_features(&[0.3, 7.5], &mut active);
/// assert!(active.iter().all(|f| *f < coder.feature_count()));
/// # Ok::<(), rl_experiment::ExperimentError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct TileCoder {
    low: Vec<f64>,
    high: Vec<f64>,
    tile_width: Vec<f64>,
    tiles: usize,
    tilings: usize,
    strides: Vec<usize>,
    tiles_per_tiling: usize,
}

impl TileCoder {
    /// A coder of the box `[low, high]` with `tiles` tiles per dimension and `tilings` tilings.
    pub fn new(
        low: &[f64],
        high: &[f64],
        tiles: usize,
        tilings: usize,
    ) -> Result<Self, ExperimentError> {
        if low.len() != high.len() || low.is_empty() {
            return Err(ExperimentError::invalid(
                "tile coding",
                "low and high must be non-empty and of equal length",
            ));
        }
        if tiles == 0 || tilings == 0 {
            return Err(ExperimentError::invalid(
                "tile coding",
                "tiles and tilings must be at least 1",
            ));
        }
        for (d, (l, h)) in low.iter().zip(high).enumerate() {
            if !(l.is_finite() && h.is_finite() && l < h) {
                return Err(ExperimentError::invalid(
                    "tile coding",
                    format!(
                        "dimension {d} has bounds [{l}, {h}]; they must be finite with low < high"
                    ),
                ));
            }
        }
        let per_dimension = tiles + 1;
        let mut strides = Vec::with_capacity(low.len());
        let mut tiles_per_tiling = 1usize;
        for _ in low {
            strides.push(tiles_per_tiling);
            tiles_per_tiling = tiles_per_tiling
                .checked_mul(per_dimension)
                .filter(|n| n.saturating_mul(tilings) <= MAX_FEATURES)
                .ok_or_else(|| {
                    ExperimentError::invalid(
                        "tile coding",
                        format!("more than {MAX_FEATURES} features: use fewer tiles or tilings"),
                    )
                })?;
        }
        Ok(TileCoder {
            low: low.to_vec(),
            high: high.to_vec(),
            tile_width: low
                .iter()
                .zip(high)
                .map(|(l, h)| (h - l) / tiles as f64)
                .collect(),
            tiles,
            tilings,
            strides,
            tiles_per_tiling,
        })
    }

    /// The number of features (all tilings together).
    pub fn feature_count(&self) -> usize {
        self.tiles_per_tiling * self.tilings
    }

    /// The number of tilings, which is the number of active features of every point.
    pub fn tilings(&self) -> usize {
        self.tilings
    }

    /// The number of dimensions.
    pub fn dimensions(&self) -> usize {
        self.low.len()
    }

    /// Writes the active feature of each tiling for the point `x` into `active` (length
    /// [`tilings`](Self::tilings); `x` of length [`dimensions`](Self::dimensions)). A NaN
    /// coordinate counts as the lower bound.
    pub fn active_features(&self, x: &[f64], active: &mut [usize]) {
        for (t, slot) in active.iter_mut().enumerate().take(self.tilings) {
            let mut index = t * self.tiles_per_tiling;
            for (d, value) in x.iter().enumerate().take(self.low.len()) {
                let clamped = if value.is_nan() {
                    self.low[d]
                } else {
                    value.clamp(self.low[d], self.high[d])
                };
                let offset = ((t * (2 * d + 1)) % self.tilings) as f64 / self.tilings as f64;
                let coordinate =
                    ((clamped - self.low[d]) / self.tile_width[d] + offset).floor() as usize;
                index += coordinate.min(self.tiles) * self.strides[d];
            }
            *slot = index;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearby_points_share_most_tiles_and_distant_ones_none() {
        let coder = TileCoder::new(&[0.0], &[1.0], 10, 8).unwrap();
        let (mut a, mut b, mut c) = ([0; 8], [0; 8], [0; 8]);
        coder.active_features(&[0.50], &mut a);
        coder.active_features(&[0.51], &mut b);
        coder.active_features(&[0.90], &mut c);
        let shared = |x: &[usize], y: &[usize]| x.iter().zip(y).filter(|(p, q)| p == q).count();
        assert!(shared(&a, &b) >= 6, "{a:?} {b:?}");
        assert_eq!(shared(&a, &c), 0);
        assert!(a.iter().all(|f| *f < coder.feature_count()));
    }

    #[test]
    fn out_of_range_and_nan_inputs_are_clamped() {
        let coder = TileCoder::new(&[0.0, -1.0], &[1.0, 1.0], 4, 4).unwrap();
        let mut active = [0; 4];
        coder.active_features(&[5.0, f64::NAN], &mut active);
        assert!(active.iter().all(|f| *f < coder.feature_count()));
    }

    #[test]
    fn bad_bounds_are_errors() {
        assert!(TileCoder::new(&[0.0], &[0.0], 4, 4).is_err());
        assert!(TileCoder::new(&[0.0], &[f64::INFINITY], 4, 4).is_err());
        assert!(TileCoder::new(&[0.0; 12], &[1.0; 12], 20, 8).is_err());
    }
}
