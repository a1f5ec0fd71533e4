//! The observation's image options (`image`: minigrid's observation wrappers written by the
//! domain): their shapes, their rows written without allocating once a thread has drawn the
//! tiles of a size, the RGB frames at minigrid's natural size, and minigrid's keyword
//! arguments given flat. That the pictures are minigrid's, pixel for pixel, is checked beside
//! live minigrid by the Python package's tests (`tests/test_minigrid_object.py`).

use counting_allocator::thread_allocations as allocations;
use rand::SeedableRng;
use rl_core::{Domain, Frame, Mode, NumpyGenerator, RenderFrame};
use rl_object_grid::{EnvParams, ImageKind, MiniGrid, MiniGridParams};
use rl_spaces::FlattenSpace;
use serde_json::json;

/// The domain of `id` with the JSON parameters `params`.
fn domain(id: &str, params: serde_json::Value) -> MiniGrid {
    MiniGrid::new(MiniGridParams::for_id_with(id, &params).expect("valid parameters"))
        .expect("a domain")
}

#[test]
fn every_image_kind_has_its_wrappers_shape() {
    let cases = [
        (json!({}), [7, 7, 3]),
        (json!({"image": "full"}), [8, 8, 3]),
        (json!({"image": "one_hot"}), [7, 7, 20]),
        (json!({"image": "rgb_partial"}), [56, 56, 3]),
        (
            json!({"image": "rgb_partial", "image_tile_size": 3}),
            [21, 21, 3],
        ),
        (
            json!({"image": "rgb_full", "image_tile_size": 5}),
            [40, 40, 3],
        ),
        (
            json!({"image": "one_hot", "agent_view_size": 5}),
            [5, 5, 20],
        ),
    ];
    for (params, shape) in cases {
        let domain = domain("MiniGrid-DoorKey-8x8-v0", params.clone());
        assert_eq!(domain.image_shape(), shape, "{params}");
        assert_eq!(domain.image_len(), shape.iter().product::<usize>());
        assert_eq!(
            domain.observation_space().flat_dim(),
            4 + domain.image_len() + 53,
            "{params}"
        );
    }
}

#[test]
fn image_rows_allocate_nothing_once_the_tiles_are_drawn() {
    for image in ["partial", "full", "one_hot", "rgb_partial", "rgb_full"] {
        for id in ["MiniGrid-DoorKey-8x8-v0", "MiniGrid-KeyCorridorS3R1-v0"] {
            let domain = domain(id, json!({"image": image, "image_tile_size": 4}));
            let mut row = vec![0.0f32; domain.observation_space().flat_dim()];
            let mut image_bytes = vec![0u8; domain.image_len()];
            // The same trajectory twice: the first pass draws the tiles this thread caches,
            // the second draws none and allocates nothing.
            for pass in 0..2 {
                let mut rng = NumpyGenerator::seed_from_u64(3);
                let mut state = domain.generate(&mut rng);
                let mut allocated = 0;
                for step in 0..1_000_i64 {
                    let before = allocations();
                    let outcome =
                        domain.step_in_place(&mut state, &(step % 6), Mode::Training, &mut rng);
                    domain
                        .observe_flat_into(&state, &mut row)
                        .expect("a row of the flat length");
                    domain.write_image(&state, &mut image_bytes);
                    allocated += allocations() - before;
                    if outcome.terminated || state.step_count() >= domain.max_steps() {
                        domain.initial_state_into(&mut state, Mode::Training, &mut rng);
                    }
                }
                if pass == 1 {
                    assert_eq!(allocated, 0, "{id} {image}");
                }
            }
            // The row's image part is the image, byte for byte.
            let image_part = &row[4..4 + domain.image_len()];
            assert!(
                image_part
                    .iter()
                    .zip(&image_bytes)
                    .all(|(&entry, &byte)| entry == f32::from(byte)),
                "{id} {image}"
            );
        }
    }
}

#[test]
fn rgb_images_are_the_frames_at_their_tile_size() {
    let mut rng = NumpyGenerator::seed_from_u64(8);
    let full = domain(
        "MiniGrid-DoorKey-8x8-v0",
        json!({"image": "rgb_full", "image_tile_size": 32}),
    );
    let state = full.generate(&mut rng);
    let mut frame = Frame::new(256, 256).expect("a frame");
    full.draw_frame(&state, &mut frame);
    let mut image = vec![0u8; full.image_len()];
    full.write_image(&state, &mut image);
    assert_eq!(frame.pixels(), &image[..]);
    // agent_pov frames are the partial RGB image.
    let pov = domain(
        "MiniGrid-DoorKey-8x8-v0",
        json!({"image": "rgb_partial", "image_tile_size": 9, "agent_pov": true, "tile_size": 9}),
    );
    assert_eq!(pov.frame_size(), (63, 63));
    let mut frame = Frame::new(63, 63).expect("a frame");
    pov.draw_frame(&state, &mut frame);
    let mut image = vec![0u8; pov.image_len()];
    pov.write_image(&state, &mut image);
    assert_eq!(frame.pixels(), &image[..]);
}

#[test]
fn minigrids_keyword_arguments_are_taken_flat() {
    let flat = MiniGridParams::for_id_with(
        "MiniGrid-MultiRoom-N6-v0",
        &json!({"minNumRooms": 2, "maxNumRooms": 3, "maxRoomSize": 5, "max_steps": 9}),
    )
    .expect("minigrid's keywords");
    let EnvParams::MultiRoom(ref rooms) = flat.env else {
        panic!("a MultiRoom environment")
    };
    assert_eq!(
        (
            rooms.min_num_rooms,
            rooms.max_num_rooms,
            rooms.max_room_size
        ),
        (2, 3, 5)
    );
    assert_eq!(flat.max_steps, Some(9));
    // Refused where minigrid refuses: an unknown keyword, a keyword for an environment
    // without parameters, see_through_walls where the class sets it itself.
    for (id, params, named) in [
        ("MiniGrid-DoorKey-8x8-v0", json!({"sise": 5}), "sise"),
        ("MiniGrid-Unlock-v0", json!({"size": 5}), "size"),
        (
            "MiniGrid-Empty-5x5-v0",
            json!({"see_through_walls": true}),
            "see_through_walls",
        ),
        (
            "MiniGrid-DoorKey-8x8-v0",
            json!({"image_tile_size": 0}),
            "image_tile_size",
        ),
        (
            "MiniGrid-DoorKey-8x8-v0",
            json!({"image": "rgb_full", "image_tile_size": 128, "size": 200}),
            "image_tile_size",
        ),
    ] {
        let error = MiniGridParams::for_id_with(id, &params)
            .and_then(MiniGrid::new)
            .expect_err("refused");
        assert!(error.to_string().contains(named), "{id} {params}: {error}");
        // The message does not repeat the id (the registry's error names it once).
        assert!(
            !error.to_string().contains(id) || named == "size",
            "{error}"
        );
    }
    let see = domain(
        "MiniGrid-DoorKey-8x8-v0",
        json!({"see_through_walls": true}),
    );
    assert!(see.see_through_walls());
    assert_eq!(
        domain("MiniGrid-DoorKey-8x8-v0", json!({})).image_kind(),
        ImageKind::Partial
    );
}
