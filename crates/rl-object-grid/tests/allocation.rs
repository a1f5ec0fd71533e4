//! Stepping a state in place and writing its image allocate nothing, for every id (a counting
//! global allocator proves it); `Domain::step` clones the state and allocates.

use counting_allocator::thread_allocations as allocations;
use rand::SeedableRng;
use rl_core::NumpyGenerator;
use rl_object_grid::{MiniGrid, ids};

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

#[test]
fn stepping_in_place_and_writing_images_allocate_nothing() {
    for id in ids::IDS {
        let domain = MiniGrid::for_id(id).expect("a registered id");
        let mut rng = NumpyGenerator::seed_from_u64(5);
        let mut state = domain.generate(&mut rng);
        let mut image = vec![0; domain.image_len()];
        let (width, height) = domain.grid_size();
        let mut full = vec![0; width * height * 3];
        let mut actions = Actions(11);
        let count = domain.params().env.action_count() as u64;
        let mut ended = 0;
        let mut allocated = 0;
        for _ in 0..domain.max_steps().max(2_000) + 1 {
            let before = allocations();
            let (_, terminated) = domain.step_in_place(&mut state, actions.next(count), &mut rng);
            domain.write_image(&state, &mut image);
            domain.write_full_encoding(&state, &mut full);
            allocated += allocations() - before;
            if terminated || state.step_count() >= domain.max_steps() {
                // Resetting makes a new grid, outside the count.
                ended += 1;
                state = domain.generate(&mut rng);
            }
        }
        assert!(ended > 0, "{id}: the loop must cross episode ends too");
        assert_eq!(allocated, 0, "{id} allocated while stepping");
    }
}
