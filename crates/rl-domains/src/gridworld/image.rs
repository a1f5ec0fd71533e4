//! [`GridImage`]: GridWorld's own numeric representation, an image of the grid with one
//! channel per cell kind and one for the agent (gym-gridverse's grid representation).

use rl_core::CoreError;
use rl_spaces::{AnyBox, BoxSpace, FlatScalar};
use rl_wrappers::{NumericLayout, Representation};

use super::map::{CellKind, GridCell, GridMap};

/// The number of channels: one per [`CellKind`] in code order, then the agent.
pub const GRID_IMAGE_CHANNELS: usize = CellKind::ALL.len() + 1;

/// A GridWorld cell drawn as a `[channels, rows, cols]` image of zeros and ones, named
/// `"grid"`: channel `k < 5` marks the cells of kind `CellKind::ALL[k]` (empty, blocked, start,
/// goal, pit), and the last channel marks the agent's cell. Use it with
/// [`OuterEnvironment`](rl_wrappers::OuterEnvironment) to give a network the whole map.
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_domains::gridworld::{GridImage, GridWorld, GridWorldParams, GRID_IMAGE_CHANNELS};
/// use rl_wrappers::OuterEnvironment;
///
/// let world = GridWorld::builtin("4x5", GridWorldParams::default())?;
/// let image = GridImage::new(world.map())?;
/// let mut env = OuterEnvironment::<_, _, f32>::new(Simulator::new(world, 0), image);
/// let observation = env.reset(Mode::Training)?;
/// let grid = observation.get("grid").expect("the grid array");
/// assert_eq!(grid.shape(), &[GRID_IMAGE_CHANNELS, 4, 5]);
/// assert_eq!(grid[[GRID_IMAGE_CHANNELS - 1, 3, 0]], 1.0); // the agent at the start [3, 0]
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GridImage {
    map: GridMap,
    layout: NumericLayout,
}

impl GridImage {
    /// The image representation of cells of `map`.
    pub fn new(map: &GridMap) -> Result<Self, CoreError> {
        let shape = [GRID_IMAGE_CHANNELS, map.rows(), map.cols()];
        let layout =
            NumericLayout::single("grid", AnyBox::from(BoxSpace::uniform(&shape, 0u8, 1)?))?;
        Ok(GridImage {
            map: map.clone(),
            layout,
        })
    }
}

impl Representation<GridCell> for GridImage {
    fn layout(&self) -> &NumericLayout {
        &self.layout
    }

    fn write<T: FlatScalar>(&self, cell: &GridCell, out: &mut [T]) -> Result<(), CoreError> {
        let plane = self.map.cell_count();
        if out.len() != GRID_IMAGE_CHANNELS * plane {
            return Err(CoreError::invalid_parameter(
                "out",
                format!(
                    "has length {}, the grid image has {}",
                    out.len(),
                    GRID_IMAGE_CHANNELS * plane
                ),
            ));
        }
        if !self.map.contains(*cell) {
            return Err(CoreError::invalid_parameter(
                "cell",
                format!(
                    "{cell:?} is outside the {}x{} grid",
                    self.map.rows(),
                    self.map.cols()
                ),
            ));
        }
        out.fill(T::ZERO);
        for (index, kind) in self.map.cells().iter().enumerate() {
            let channel = CellKind::ALL.iter().position(|k| k == kind).unwrap_or(0);
            out[channel * plane + index] = T::ONE;
        }
        out[(GRID_IMAGE_CHANNELS - 1) * plane + cell.row * self.map.cols() + cell.col] = T::ONE;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_has_one_kind_and_the_agent_one_cell() {
        let map = GridMap::builtin("4x5").unwrap();
        let image = GridImage::new(&map).unwrap();
        let mut out = vec![0.0f64; image.layout().flat_dim()];
        image.write(&GridCell::new(1, 0), &mut out).unwrap();
        let plane = map.cell_count();
        for index in 0..plane {
            let kinds: f64 = (0..CellKind::ALL.len())
                .map(|k| out[k * plane + index])
                .sum();
            assert_eq!(kinds, 1.0, "cell {index}");
        }
        let agent = &out[(GRID_IMAGE_CHANNELS - 1) * plane..];
        assert_eq!(agent.iter().sum::<f64>(), 1.0);
        assert_eq!(agent[5], 1.0);
        // Pits of the 4x5 map are the cells [3, 1] and [3, 2].
        let pit = CellKind::ALL
            .iter()
            .position(|k| *k == CellKind::Pit)
            .unwrap();
        assert_eq!(out[pit * plane + 16], 1.0);
        assert_eq!(out[pit * plane + 17], 1.0);
    }

    #[test]
    fn bad_buffers_and_cells_are_errors() {
        let map = GridMap::builtin("2x3").unwrap();
        let image = GridImage::new(&map).unwrap();
        let mut short = vec![0.0f32; 3];
        assert!(image.write(&GridCell::new(0, 0), &mut short).is_err());
        let mut out = vec![0.0f32; image.layout().flat_dim()];
        assert!(image.write(&GridCell::new(5, 0), &mut out).is_err());
    }
}
