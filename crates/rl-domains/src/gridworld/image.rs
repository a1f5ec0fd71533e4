//! GridWorld's grid image: one channel per cell kind and one for the agent (gym-gridverse's
//! grid representation), written into a plain slice by [`write_grid_image`], and, with the
//! `grid-image` feature, [`GridImage`], the same image as an rl-wrappers `Representation`.

use rl_core::CoreError;
use rl_spaces::FlatScalar;

use super::map::{CellKind, GridCell, GridMap};

/// The number of channels: one per [`CellKind`] in code order, then the agent.
pub const GRID_IMAGE_CHANNELS: usize = CellKind::ALL.len() + 1;

/// Writes the agent at `cell` on `map` as a `[channels, rows, cols]` image of zeros and ones
/// into `out` (in that order, row-major, `GRID_IMAGE_CHANNELS × rows × cols` numbers):
/// channel `k < 5` marks the cells of kind `CellKind::ALL[k]` (empty, blocked, start, goal,
/// pit), and the last channel marks the agent's cell.
///
/// Errors if `out` has another length or `cell` is outside the map.
///
/// ```
/// use rl_domains::gridworld::{GridCell, GridMap, GRID_IMAGE_CHANNELS, write_grid_image};
///
/// let map = GridMap::builtin("4x5")?;
/// let mut image = vec![0.0f32; GRID_IMAGE_CHANNELS * 4 * 5];
/// write_grid_image(&map, &GridCell::new(3, 0), &mut image)?;
/// // The agent's channel is the last plane; the agent stands at row 3, column 0.
/// assert_eq!(image[(GRID_IMAGE_CHANNELS - 1) * 20 + 3 * 5], 1.0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_grid_image<T: FlatScalar>(
    map: &GridMap,
    cell: &GridCell,
    out: &mut [T],
) -> Result<(), CoreError> {
    let plane = map.cell_count();
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
    if !map.contains(*cell) {
        return Err(CoreError::invalid_parameter(
            "cell",
            format!("{cell:?} is outside the {}x{} grid", map.rows(), map.cols()),
        ));
    }
    out.fill(T::ZERO);
    for (index, kind) in map.cells().iter().enumerate() {
        let channel = CellKind::ALL.iter().position(|k| k == kind).unwrap_or(0);
        if let Some(slot) = out.get_mut(channel * plane + index) {
            *slot = T::ONE;
        }
    }
    let agent = (GRID_IMAGE_CHANNELS - 1) * plane + cell.row * map.cols() + cell.col;
    if let Some(slot) = out.get_mut(agent) {
        *slot = T::ONE;
    }
    Ok(())
}

#[cfg(feature = "grid-image")]
pub use representation::GridImage;

#[cfg(feature = "grid-image")]
mod representation {
    use rl_core::CoreError;
    use rl_spaces::{AnyBox, BoxSpace, FlatScalar};
    use rl_wrappers::{NumericLayout, Representation};

    use super::{GRID_IMAGE_CHANNELS, write_grid_image};
    use crate::gridworld::{GridCell, GridMap};

    /// A GridWorld cell drawn as a `[channels, rows, cols]` image of zeros and ones, named
    /// `"grid"` ([`write_grid_image`]). Use it with
    /// [`OuterEnvironment`](rl_wrappers::OuterEnvironment) to give a network the whole map.
    /// Needs the `grid-image` feature (which brings in rl-wrappers).
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
            write_grid_image(&self.map, cell, out)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn the_representation_writes_the_grid_image() {
            let map = GridMap::builtin("2x3").expect("built in");
            let image = GridImage::new(&map).expect("valid");
            assert_eq!(image.layout().flat_dim(), GRID_IMAGE_CHANNELS * 6);
            let mut out = vec![0.0f32; image.layout().flat_dim()];
            let mut expected = out.clone();
            image.write(&GridCell::new(1, 2), &mut out).expect("writes");
            write_grid_image(&map, &GridCell::new(1, 2), &mut expected).expect("writes");
            assert_eq!(out, expected);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_has_one_kind_and_the_agent_one_cell() {
        let map = GridMap::builtin("4x5").unwrap();
        let mut out = vec![0.0f64; GRID_IMAGE_CHANNELS * map.cell_count()];
        write_grid_image(&map, &GridCell::new(1, 0), &mut out).unwrap();
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
        let mut short = vec![0.0f32; 3];
        assert!(write_grid_image(&map, &GridCell::new(0, 0), &mut short).is_err());
        let mut out = vec![0.0f32; GRID_IMAGE_CHANNELS * map.cell_count()];
        assert!(write_grid_image(&map, &GridCell::new(5, 0), &mut out).is_err());
    }
}
