//! Stepping a state in place, writing its image and its flat observation allocate nothing,
//! for every id, and restarting an episode in place allocates nothing for the environments
//! whose generation needs no room of its own (a counting global allocator proves it);
//! `Domain::step` clones the state and allocates. The flat observation written from the
//! state is the flattened observation, entry for entry.

use counting_allocator::thread_allocations as allocations;
use rand::SeedableRng;
use rl_core::{Domain, Mode, NumpyGenerator};
use rl_object_grid::{MiniGrid, ids};
use rl_spaces::FlattenSpace;

/// A small deterministic action source that allocates nothing.
struct Actions(u64);

impl Actions {
    fn next(&mut self, count: u64) -> i64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % count) as i64
    }
}

/// The families whose reset in place allocates nothing (their generation draws onto the grid
/// only); the others lay out rooms or draw subsets into lists of their own.
const RESET_WITHOUT_ALLOCATING: [&str; 9] = [
    "MiniGrid-Empty-",
    "MiniGrid-DoorKey-",
    "MiniGrid-FourRooms-",
    "MiniGrid-Dynamic-Obstacles-",
    "MiniGrid-LavaGap",
    "MiniGrid-DistShift",
    "MiniGrid-Memory",
    "MiniGrid-RedBlueDoors-",
    "MiniGrid-Playground-",
];

#[test]
fn stepping_in_place_and_writing_observations_allocate_nothing() {
    for id in ids::IDS {
        let domain = MiniGrid::for_id(id).expect("a registered id");
        let resets_free = RESET_WITHOUT_ALLOCATING
            .iter()
            .any(|family| id.starts_with(family));
        let mut rng = NumpyGenerator::seed_from_u64(5);
        let mut state = domain.generate(&mut rng);
        let mut image = vec![0; domain.image_len()];
        let mut row = vec![0.0f32; domain.observation_space().flat_dim()];
        let (width, height) = domain.grid_size();
        let mut full = vec![0; width * height * 3];
        let mut actions = Actions(11);
        let count = domain.params().env.action_count() as u64;
        let mut ended = 0;
        let (mut allocated, mut reset_allocated) = (0, 0);
        for _ in 0..domain.max_steps().max(2_000) + 1 {
            let before = allocations();
            let action = actions.next(count);
            let outcome = domain.step_in_place(&mut state, &action, Mode::Training, &mut rng);
            domain.write_image(&state, &mut image);
            domain.write_full_encoding(&state, &mut full);
            domain
                .observe_flat_into(&state, &mut row)
                .expect("a row of the flat length");
            allocated += allocations() - before;
            if outcome.terminated || state.step_count() >= domain.max_steps() {
                ended += 1;
                let before = allocations();
                domain.initial_state_into(&mut state, Mode::Training, &mut rng);
                reset_allocated += allocations() - before;
            }
        }
        assert!(ended > 0, "{id}: the loop must cross episode ends too");
        assert_eq!(allocated, 0, "{id} allocated while stepping");
        if resets_free {
            assert_eq!(
                reset_allocated, 0,
                "{id} allocated while resetting in place"
            );
        }
    }
}

#[test]
fn flat_rows_and_resets_in_place_are_the_flattened_observations_and_fresh_states() {
    for id in ids::IDS {
        let domain = MiniGrid::for_id(id).expect("a registered id");
        let space = domain.observation_space();
        let mut rng = NumpyGenerator::seed_from_u64(9);
        let mut state = domain.generate(&mut rng);
        let mut actions = Actions(3);
        let count = domain.params().env.action_count() as u64;
        let (mut expected, mut found) = (
            vec![0.0f64; space.flat_dim()],
            vec![0.0f64; space.flat_dim()],
        );
        let mut resets = 0;
        for _ in 0..400 {
            space
                .flatten_into(&domain.observe(&state), &mut expected)
                .expect("flattens");
            domain
                .observe_flat_into(&state, &mut found)
                .expect("flattens");
            assert_eq!(expected, found, "{id}: the row of {state:?}");
            let action = actions.next(count);
            let outcome = domain.step_in_place(&mut state, &action, Mode::Training, &mut rng);
            if outcome.terminated || state.step_count() >= domain.max_steps() {
                resets += 1;
                let mut fresh_rng = rng.clone();
                let fresh = domain.initial_state(Mode::Training, &mut fresh_rng);
                domain.initial_state_into(&mut state, Mode::Training, &mut rng);
                assert_eq!(state, fresh, "{id}: the state reset in place");
                assert!(rng == fresh_rng, "{id}: the draws of a reset in place");
            }
        }
        assert!(
            resets > 0 || domain.max_steps() > 400,
            "{id}: no episode ended"
        );
    }
}

/// BabyAI: stepping in place and writing the flat observation allocate nothing for every
/// level (the verifier's bookkeeping included); the flat row is the flattened observation.
#[test]
fn babyai_steps_in_place_without_allocating() {
    use rl_object_grid::babyai::{BabyAi, ids as babyai_ids};
    for id in babyai_ids::IDS {
        let domain = BabyAi::for_id(id).expect("a registered id");
        let mut rng = NumpyGenerator::seed_from_u64(7);
        let mut state = domain.generate(&mut rng);
        let mut row = vec![0.0f32; domain.observation_space().flat_dim()];
        let mut flat = vec![0.0f32; domain.observation_space().flat_dim()];
        let mut actions = Actions(13);
        let mut allocated = 0;
        for step in 0..400 {
            let action = actions.next(7);
            let before = allocations();
            let outcome = domain.step_in_place(&mut state, &action, Mode::Training, &mut rng);
            domain
                .observe_flat_into(&state, &mut row)
                .expect("a flat row");
            allocated += allocations() - before;
            if step % 50 == 0 {
                domain
                    .observation_space()
                    .flatten_into(&domain.observe(&state), &mut flat)
                    .expect("flattens");
                assert_eq!(row, flat, "{id}");
            }
            if outcome.terminated || state.is_truncated() {
                state = domain.generate(&mut rng);
            }
        }
        assert_eq!(allocated, 0, "{id}");
    }
}

/// The BabyAI bot's replans allocate nothing (its searches' buffers are made for the grid
/// when the bot is made) on levels where it fetches no key (fetching a key lists the keys of
/// its colour).
#[test]
fn babyai_bot_replans_allocate_nothing() {
    use rl_object_grid::babyai::BabyAi;
    use rl_object_grid::babyai::bot::BabyAiBot;
    for id in [
        "BabyAI-GoToLocal-v0",
        "BabyAI-GoTo-v0",
        "BabyAI-PickupLoc-v0",
        "BabyAI-PutNextLocal-v0",
        "BabyAI-GoToSeq-v0",
    ] {
        let domain = BabyAi::for_id(id).expect("a registered id");
        for seed in 0..3 {
            let mut rng = NumpyGenerator::seed_from_u64(seed);
            let mut state = domain.generate(&mut rng);
            let mut bot = BabyAiBot::new(&domain, &state);
            let mut taken = None;
            let mut replans = 0;
            let mut allocated = 0;
            loop {
                let before = allocations();
                let action = bot.replan(&state, taken).expect("the bot plays");
                allocated += allocations() - before;
                replans += 1;
                let outcome = domain.step_in_place(&mut state, &action, Mode::Training, &mut rng);
                if outcome.terminated || state.is_truncated() {
                    break;
                }
                taken = Some(action);
            }
            assert!(replans > 1, "{id} seed {seed}");
            assert_eq!(allocated, 0, "{id} seed {seed}: {replans} replans");
        }
    }
}
