//! The GridWorld observation space passes the rl-spaces conformance harness and agrees with
//! the `MultiDiscrete([rows, cols])` it converts to: indices (RLPy's state index), flat
//! vectors, JSON, samples and dynamic elements.

use rand::SeedableRng;
use rl_core::NumpyGenerator;
use rl_domains::gridworld::{GridCell, GridCellSpace, GridMap};
use rl_spaces::testing::{check_finite_space, check_space};
use rl_spaces::{
    AnySpace, DynamicSpace, FiniteSpace, FlattenSpace, JsonSpace, SampleSpace, Space, SpaceError,
};

fn spaces() -> Vec<GridCellSpace> {
    let mut spaces: Vec<GridCellSpace> = GridMap::builtin_names()
        .iter()
        .map(|name| {
            let map = GridMap::builtin(name).expect("a built-in map");
            GridCellSpace::new(map.rows(), map.cols()).expect("a space")
        })
        .collect();
    spaces.push(GridCellSpace::new(1, 1).expect("a space"));
    spaces.push(GridCellSpace::new(7, 1).expect("a space"));
    spaces
}

#[test]
fn the_space_passes_the_rl_spaces_harness() {
    for space in spaces() {
        let report = check_space(&space, 7);
        assert!(report.is_ok(), "{report}");
        let report = check_finite_space(&space, 7);
        assert!(report.is_ok(), "{report}");
    }
}

#[test]
fn the_space_agrees_with_its_multi_discrete() {
    for space in spaces() {
        let any = space.to_any_space();
        let AnySpace::MultiDiscrete(multi) = &any else {
            panic!("{space}: {any:?}");
        };
        assert_eq!(
            multi.nvec().as_slice(),
            Some(&[space.rows() as i64, space.cols() as i64][..])
        );
        assert_eq!(space.cardinality(), any.cardinality());
        assert_eq!(space.flat_dim(), any.flat_dim());
        for index in 0..space.rows() * space.cols() {
            let cell = space.element_at(index).expect("in range");
            assert_eq!(
                cell,
                GridCell::new(index / space.cols(), index % space.cols())
            );
            let element = space.element_to_any(&cell);
            assert!(any.contains(&element));
            assert_eq!(any.index_of(&element), Some(index), "the state index");
            assert_eq!(space.element_from_any(&element).expect("a cell"), cell);
            let flat: Vec<f64> = space.flatten(&cell).expect("flat");
            assert_eq!(flat, any.flatten::<f64>(&element).expect("flat"));
            assert_eq!(space.unflatten(&flat).expect("a cell"), cell);
            let json = space.element_to_json(&cell).expect("JSON");
            assert_eq!(json, any.element_to_json(&element).expect("JSON"));
            assert_eq!(space.element_from_json(&json).expect("a cell"), cell);
        }
        // The same generator gives the same samples.
        let mut typed_rng = NumpyGenerator::seed_from_u64(5);
        let mut any_rng = NumpyGenerator::seed_from_u64(5);
        for _ in 0..50 {
            let cell = space.sample(&mut typed_rng);
            let element =
                rl_spaces::TrySampleSpace::try_sample(&any, &mut any_rng).expect("a sample");
            assert_eq!(space.element_to_any(&cell), element);
        }
    }
}

#[test]
fn cells_outside_and_malformed_elements_are_errors() {
    let space = GridCellSpace::new(4, 5).expect("a space");
    let outside = GridCell::new(4, 0);
    assert!(!space.contains(&outside));
    assert_eq!(space.index_of(&outside), None);
    assert_eq!(space.element_at(20), None);
    assert!(matches!(
        space.flatten::<f32>(&outside),
        Err(SpaceError::NotInSpace { .. })
    ));
    assert!(matches!(
        space.element_to_json(&outside),
        Err(SpaceError::NotInSpace { .. })
    ));
    let mut short = [0.0f32; 8];
    assert!(matches!(
        space.flatten_into(&GridCell::new(0, 0), &mut short),
        Err(SpaceError::LengthMismatch { .. })
    ));
    for flat in [
        [0.0f32; 9],
        [1.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
        [0.5, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
    ] {
        assert!(
            matches!(space.unflatten(&flat), Err(SpaceError::InvalidFlat { .. })),
            "{flat:?}"
        );
    }
    for json in [
        serde_json::json!([4, 0]),
        serde_json::json!([0]),
        serde_json::json!("x"),
        serde_json::json!([-1, 0]),
    ] {
        assert!(space.element_from_json(&json).is_err(), "{json}");
    }
    for element in [
        rl_spaces::AnyElement::Int(3),
        rl_spaces::AnyElement::from(ndarray::arr1(&[0i64, 5]).into_dyn()),
        rl_spaces::AnyElement::from(ndarray::arr1(&[0.0f32, 1.0]).into_dyn()),
    ] {
        assert!(space.element_from_any(&element).is_err(), "{element:?}");
    }
    assert!(GridCellSpace::new(0, 3).is_err());
    assert!(GridCellSpace::new(usize::MAX, 2).is_err());
    assert_eq!(space.to_string(), "GridCells(4, 5)");
}
