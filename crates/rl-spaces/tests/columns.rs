//! The batched layout (`RowLayout::Batched`, `FlattenSpace::batched_into`) and its columns
//! (`Columns`): over every example space, and exactly on a Dict of every kind of leaf.

use rand::SeedableRng;
use rl_spaces::testing::example_spaces;
use rl_spaces::{
    AnyElement, AnySpace, ColumnKey, ColumnKind, Columns, DType, DictSpace, Discrete, FlattenSpace,
    MultiBinary, MultiDiscrete, NumpyGenerator, RowLayout, Text, TrySampleSpace, TupleSpace,
};

#[test]
fn every_example_space_writes_rows_as_wide_as_its_columns() {
    let mut rng = NumpyGenerator::seed_from_u64(3);
    let mut with_columns = 0;
    for (name, space) in example_spaces() {
        if !space.is_flattenable() || space.is_empty() {
            continue;
        }
        let width = space.row_dim(RowLayout::Batched);
        match Columns::of(&space) {
            Ok(columns) => {
                with_columns += 1;
                assert_eq!(columns.width(), width, "{name}");
                let widths: usize = columns.columns().iter().map(|c| c.width).sum();
                assert_eq!(widths, width, "{name}: the columns tile the row");
            }
            Err(_) => assert!(
                matches!(
                    space,
                    AnySpace::FiniteSet(_)
                        | AnySpace::OneOf(_)
                        | AnySpace::Tuple(_)
                        | AnySpace::Dict(_)
                ),
                "{name}: only spaces with a FiniteSet or OneOf have no columns"
            ),
        }
        // The flat layout is the flat one; a batched row takes every sample, and a wrong
        // length is an error, not a panic.
        assert_eq!(space.row_dim(RowLayout::Flat), space.flat_dim(), "{name}");
        for _ in 0..5 {
            let Some(x) = space.try_sample(&mut rng) else {
                continue;
            };
            let mut row = vec![f64::NAN; width];
            space.batched_into(&x, &mut row).expect("a sample writes");
            assert!(
                row.iter().all(|v| !v.is_nan()),
                "{name}: every entry written"
            );
            let mut long = vec![0.0f64; width + 1];
            assert!(space.batched_into(&x, &mut long).is_err(), "{name}");
        }
    }
    assert!(with_columns >= 10, "only {with_columns} spaces had columns");
}

#[test]
fn a_dict_of_every_leaf_has_one_typed_column_each_in_key_order() {
    let image = rl_spaces::AnyBox::from(
        rl_spaces::BoxSpace::<u8>::new(
            ndarray::ArrayD::from_elem(ndarray::IxDyn(&[2, 2]), 0),
            ndarray::ArrayD::from_elem(ndarray::IxDyn(&[2, 2]), 255),
        )
        .expect("a box"),
    );
    let space = AnySpace::Dict(
        DictSpace::new([
            (
                "a_direction",
                AnySpace::Discrete(Discrete::with_start(4, -1).expect("ok")),
            ),
            ("b_image", AnySpace::Box(image)),
            (
                "c_pair",
                AnySpace::Tuple(
                    TupleSpace::new(vec![
                        AnySpace::MultiDiscrete(MultiDiscrete::from_vec(vec![3, 5]).expect("ok")),
                        AnySpace::MultiBinary(MultiBinary::new(&[2]).expect("ok")),
                    ])
                    .expect("ok"),
                ),
            ),
            (
                "d_mission",
                AnySpace::Text(Text::new(0, 3, "ab").expect("ok")),
            ),
        ])
        .expect("a dict"),
    );
    let columns = Columns::of(&space).expect("columns");
    let summary: Vec<(usize, usize, DType, Vec<usize>)> = columns
        .columns()
        .iter()
        .map(|c| (c.offset, c.width, c.dtype, c.shape.clone()))
        .collect();
    assert_eq!(
        summary,
        [
            (0, 1, DType::I64, vec![]),
            (1, 4, DType::U8, vec![2, 2]),
            (5, 2, DType::I64, vec![2]),
            (7, 2, DType::I8, vec![2]),
            (9, 3, DType::I32, vec![3]),
        ]
    );
    assert_eq!(
        columns.columns()[2].path,
        [ColumnKey::Key("c_pair".into()), ColumnKey::Index(0)]
    );
    assert_eq!(
        columns.columns()[0].kind,
        ColumnKind::Numbers { offsets: vec![-1] }
    );
    assert_eq!(columns.width(), 12);
    // One element: the direction as its index from the start, the MultiDiscrete as its
    // components, the rest as flattening writes them.
    let x = AnyElement::Dict(
        [
            ("a_direction".to_string(), AnyElement::Int(2)),
            (
                "b_image".to_string(),
                AnyElement::from(ndarray::arr2(&[[1u8, 2], [3, 4]]).into_dyn()),
            ),
            (
                "c_pair".to_string(),
                AnyElement::Tuple(vec![
                    AnyElement::from(ndarray::arr1(&[2i64, 4]).into_dyn()),
                    AnyElement::from(ndarray::arr1(&[1i8, 0]).into_dyn()),
                ]),
            ),
            ("d_mission".to_string(), AnyElement::Text("ba".into())),
        ]
        .into_iter()
        .collect(),
    );
    let mut row = vec![0.0f64; 12];
    space.batched_into(&x, &mut row).expect("writes");
    assert_eq!(
        row,
        [3.0, 1.0, 2.0, 3.0, 4.0, 2.0, 4.0, 1.0, 0.0, 1.0, 0.0, 2.0]
    );
    // The flat row is Gymnasium's: a one-hot block of 4 for the direction.
    let flat: Vec<f64> = space.flatten(&x).expect("flattens");
    assert_eq!(flat.len(), 4 + 4 + 8 + 2 + 3);
    assert_eq!(&flat[..4], &[0.0, 0.0, 0.0, 1.0]);
}

#[test]
fn rows_of_bytes_hold_byte_leaves_exactly_and_refuse_integers_beyond_a_byte() {
    let mut rng = NumpyGenerator::seed_from_u64(9);
    let image = rl_spaces::BoxSpace::<u8>::uniform(&[3, 3, 3], 0, 255).expect("a box");
    let space = AnySpace::Dict(
        DictSpace::new([
            (
                "direction",
                AnySpace::Discrete(Discrete::new(4).expect("ok")),
            ),
            ("image", AnySpace::from(image)),
            (
                "mission",
                AnySpace::Text(Text::new(0, 5, "ab c").expect("ok")),
            ),
            (
                "seen",
                AnySpace::MultiBinary(MultiBinary::new(&[3]).expect("ok")),
            ),
        ])
        .expect("a dict"),
    );
    let mut samples = 0;
    for layout in [RowLayout::Flat, RowLayout::Batched] {
        for _ in 0..20 {
            let x = space.try_sample(&mut rng).expect("a sample");
            let mut wide = vec![0.0f64; space.row_dim(layout)];
            let mut bytes = vec![0u8; space.row_dim(layout)];
            space.write_row(layout, &x, &mut wide).expect("a row");
            space
                .write_row(layout, &x, &mut bytes)
                .expect("a row of bytes");
            let back: Vec<f64> = bytes.iter().map(|b| f64::from(*b)).collect();
            assert_eq!(back, wide, "{layout:?}");
            samples += usize::from(wide.iter().any(|v| *v > 200.0));
        }
    }
    assert!(samples > 0, "the images' bytes above 200 were written");
    // An integer Box's 300 has no byte: an error, not 255 (nor 44).
    let wide = rl_spaces::BoxSpace::<i64>::uniform(&[2], 0, 1000).expect("a box");
    let x = ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[2]), vec![7, 300]).expect("shape");
    let mut bytes = [0u8; 2];
    assert!(wide.flatten_into(&x, &mut bytes).is_err());
    let mut floats = [0.0f32; 2];
    wide.flatten_into(&x, &mut floats).expect("exact in f32");
    assert_eq!(floats, [7.0, 300.0]);
}
