//! rl-core's conformance checker over every id, and the parameters' validation: a bad view
//! size or a grid too small for its environment is one error naming the parameter.

use rl_core::{CheckConfig, check_domain};
use rl_object_grid::envs::door_key::DoorKeyParams;
use rl_object_grid::envs::empty::EmptyParams;
use rl_object_grid::{EnvParams, Error, MiniGrid, MiniGridParams, ids};

#[test]
fn every_id_passes_the_checker() {
    let config = CheckConfig {
        episodes: 2,
        max_steps: 300,
        ..CheckConfig::default()
    };
    for id in ids::IDS {
        let domain = MiniGrid::for_id(id).expect("a registered id");
        let report = check_domain(&domain, &config);
        let failures: Vec<String> = report.failures().map(|f| format!("{f:?}")).collect();
        assert!(report.is_ok(), "{id}: {failures:#?}");
    }
}

/// The parameter an error names.
fn parameter(error: Error) -> String {
    match error {
        Error::InvalidParameter { parameter, .. } => parameter,
        other => panic!("not a parameter error: {other}"),
    }
}

#[test]
fn view_sizes_must_be_odd_and_at_least_three() {
    for size in [0, 1, 2, 4, 8, 64, 65, usize::MAX] {
        let params = MiniGridParams {
            agent_view_size: size,
            ..MiniGridParams::for_id("MiniGrid-DoorKey-5x5-v0").expect("an id")
        };
        let error = MiniGrid::new(params).expect_err("a bad view size");
        assert!(error.to_string().contains(&size.to_string()), "{error}");
        assert_eq!(parameter(error), "agent_view_size");
    }
    for size in [3, 5, 9, 63] {
        let params = MiniGridParams {
            agent_view_size: size,
            ..MiniGridParams::default()
        };
        let domain = MiniGrid::new(params).expect("a good view size");
        assert_eq!(domain.image_len(), size * size * 3);
    }
}

#[test]
fn grids_too_small_or_too_large_are_refused_by_name() {
    let cases = [
        (
            EnvParams::DoorKey(DoorKeyParams { size: 4 }),
            "door_key.size",
        ),
        (
            EnvParams::DoorKey(DoorKeyParams { size: 1 << 40 }),
            "door_key.size",
        ),
        (
            EnvParams::Empty(EmptyParams {
                size: 3,
                ..EmptyParams::default()
            }),
            "empty.size",
        ),
        (
            EnvParams::Empty(EmptyParams {
                agent_start_pos: Some([0, 1]),
                ..EmptyParams::default()
            }),
            "empty.agent_start_pos",
        ),
    ];
    for (env, name) in cases {
        let error = MiniGrid::new(MiniGridParams::new(env)).expect_err("refused");
        assert!(error.to_string().contains(name), "{error}");
        assert_eq!(parameter(error), name);
    }
    // max_steps 0 is minigrid's to accept: the episode ends at its first step (a cap of 1).
    let zero = MiniGrid::new(MiniGridParams {
        max_steps: Some(0),
        ..MiniGridParams::default()
    })
    .expect("max_steps 0 is accepted, as minigrid accepts it");
    assert_eq!(
        (zero.max_steps(), rl_core::Domain::episode_cap(&zero)),
        (0, Some(1))
    );
}

#[test]
fn ids_and_their_parameters() {
    assert!(matches!(
        MiniGrid::for_id("MiniGrid-NoSuch-v0"),
        Err(Error::UnknownId { .. })
    ));
    let domain = MiniGrid::for_id("MiniGrid-DoorKey-16x16-v0").expect("an id");
    assert_eq!(domain.grid_size(), (16, 16));
    assert_eq!(domain.max_steps(), 2560);
    let overridden = MiniGridParams::for_id_with(
        "MiniGrid-DoorKey-16x16-v0",
        &serde_json::json!({"agent_view_size": 5, "env": {"door_key": {"size": 6}}}),
    )
    .expect("overrides");
    let domain = MiniGrid::new(overridden).expect("valid");
    assert_eq!(
        (domain.grid_size(), domain.view_size(), domain.max_steps()),
        ((6, 6), 5, 360)
    );
    let unknown = MiniGridParams::for_id_with(
        "MiniGrid-DoorKey-5x5-v0",
        &serde_json::json!({"env": {"door_key": {"sise": 6}}}),
    );
    assert!(
        matches!(&unknown, Err(Error::InvalidJson { path, reason, .. }) if reason.contains("sise") && path == "env.door_key.sise"),
        "{unknown:?}"
    );
}

#[test]
fn states_from_outside_are_checked() {
    use rand::SeedableRng;
    use rl_core::{Domain, NumpyGenerator};
    use rl_object_grid::MiniGridState;

    let domain = MiniGrid::for_id("MiniGrid-DoorKey-5x5-v0").expect("an id");
    let state = domain.generate(&mut NumpyGenerator::seed_from_u64(1));
    assert_eq!(domain.check_state(&state), Ok(()));
    let json = serde_json::to_value(&state).expect("a state as JSON");
    let round: MiniGridState = serde_json::from_value(json.clone()).expect("read back");
    assert_eq!(round, state);

    let mut bad_cell = json.clone();
    bad_cell["grid"]["cells"][0] = serde_json::json!([42, 0, 0, 0]);
    let bad_cell: MiniGridState = serde_json::from_value(bad_cell).expect("bytes");
    let error = domain.check_state(&bad_cell).expect_err("no object 42");
    assert!(error.contains("cell 0"), "{error}");

    let mut outside = json;
    outside["agent"] = serde_json::json!({"x": 9, "y": 1});
    let outside: MiniGridState = serde_json::from_value(outside).expect("a position");
    let error = domain.check_state(&outside).expect_err("outside");
    assert!(error.contains("outside the grid"), "{error}");
}

#[test]
fn grids_read_from_json_have_as_many_cells_as_their_sides_say() {
    use rl_object_grid::Grid;

    let grid: Result<Grid, _> = serde_json::from_value(
        serde_json::json!({"width": 3, "height": 3, "cells": [[1, 0, 0, 0]]}),
    );
    let error = grid.expect_err("one cell for nine").to_string();
    assert!(error.contains("3 by 3"), "{error}");
    let grid: Grid = serde_json::from_value(
        serde_json::json!({"width": 1, "height": 1, "cells": [[2, 5, 0, 0]]}),
    )
    .expect("one wall");
    assert_eq!(grid.encode(), vec![2, 5, 0]);
}

/// The numeric fields of a JSON object, with their paths as flat keyword arguments take them.
fn numeric_fields(value: &serde_json::Value, out: &mut Vec<String>) {
    if let serde_json::Value::Object(fields) = value {
        for (name, field) in fields {
            match field {
                serde_json::Value::Number(_) | serde_json::Value::Null => out.push(name.clone()),
                serde_json::Value::Array(items) if items.iter().all(|item| item.is_number()) => {
                    out.push(name.clone());
                }
                _ => {}
            }
        }
    }
}

/// Every numeric keyword argument of every MiniGrid and BabyAI id, given flat with values
/// from 0 to 2^64 - 1 as a Python caller may pass them: the build either succeeds or is an
/// error naming the argument; it never panics (sizes multiplied out before they are bounded
/// overflowed once: `size=2**63-1` on GoToObject).
#[test]
fn huge_keyword_arguments_are_refused_by_name_never_overflow() {
    rl_object_grid::register();
    let values: [serde_json::Value; 10] = [
        serde_json::json!(0),
        serde_json::json!(1),
        serde_json::json!(3),
        serde_json::json!(257),
        serde_json::json!(1_u64 << 32),
        serde_json::json!((1_u64 << 53) + 1),
        serde_json::json!(i64::MAX),
        serde_json::json!(1_u64 << 63),
        serde_json::json!(u64::MAX),
        serde_json::json!(-1),
    ];
    let mut built = 0;
    let mut refused = 0;
    let ids = ids::IDS
        .iter()
        .copied()
        .chain(rl_object_grid::babyai::ids::IDS.iter().copied());
    for id in ids {
        let defaults = rl_core::registry::describe(id).expect("registered");
        let mut names = Vec::new();
        if id.starts_with("MiniGrid-") {
            let params = serde_json::to_value(MiniGridParams::for_id(id).expect("an id"))
                .expect("parameters as JSON");
            numeric_fields(&params, &mut names);
            if let Some(family) = params["env"]
                .as_object()
                .and_then(|env| env.values().next())
            {
                numeric_fields(family, &mut names);
            }
        } else {
            let params = serde_json::to_value(
                rl_object_grid::babyai::BabyAiParams::for_id(id).expect("an id"),
            )
            .expect("parameters as JSON");
            numeric_fields(&params, &mut names);
            if let Some(level) = params["level"]
                .as_object()
                .and_then(|level| level.values().next())
            {
                numeric_fields(level, &mut names);
            }
        }
        assert!(
            !names.is_empty(),
            "{id}: no numeric parameters found ({defaults:?})"
        );
        for name in &names {
            for value in &values {
                let value = if name.ends_with("_pos") || name == "agent_room" || name == "goal_pos"
                {
                    serde_json::json!([value, value])
                } else {
                    value.clone()
                };
                let overrides = serde_json::json!({ name.as_str(): value });
                match rl_core::registry::build(id, Some(&overrides)) {
                    Ok(_) => built += 1,
                    Err(error) => {
                        refused += 1;
                        let text = error.to_string();
                        assert!(text.contains(name.as_str()), "{id} {overrides}: {text}");
                    }
                }
            }
        }
    }
    assert!(built > 0 && refused > 0, "built {built}, refused {refused}");
}
