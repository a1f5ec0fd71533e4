//! minigrid 3.2.0's registered ids (every `MiniGrid-*` id but the WFC ones) and their
//! parameters, as `minigrid/__init__.py` registers them.

use crate::domain::MiniGridParams;
use crate::envs::crossing::CrossingParams;
use crate::envs::dist_shift::DistShiftParams;
use crate::envs::door_key::DoorKeyParams;
use crate::envs::dynamic_obstacles::DynamicObstaclesParams;
use crate::envs::empty::EmptyParams;
use crate::envs::fetch::FetchParams;
use crate::envs::four_rooms::FourRoomsParams;
use crate::envs::go_to::{GoToDoorParams, GoToObjectParams};
use crate::envs::key_corridor::KeyCorridorParams;
use crate::envs::lava_gap::LavaGapParams;
use crate::envs::locked_room::LockedRoomParams;
use crate::envs::memory::MemoryParams;
use crate::envs::multi_room::MultiRoomParams;
use crate::envs::obstructed_maze::{ObstructedMaze1Params, ObstructedMazeFullParams};
use crate::envs::put_near::PutNearParams;
use crate::envs::red_blue_doors::RedBlueDoorsParams;
use crate::envs::{EnvParams, Obstacle};
use crate::object::ObjectKind;

/// Every minigrid id this crate implements, in minigrid's order of registration.
pub const IDS: [&str; 76] = [
    "MiniGrid-BlockedUnlockPickup-v0",
    "MiniGrid-LavaCrossingS9N1-v0",
    "MiniGrid-LavaCrossingS9N2-v0",
    "MiniGrid-LavaCrossingS9N3-v0",
    "MiniGrid-LavaCrossingS11N5-v0",
    "MiniGrid-SimpleCrossingS9N1-v0",
    "MiniGrid-SimpleCrossingS9N2-v0",
    "MiniGrid-SimpleCrossingS9N3-v0",
    "MiniGrid-SimpleCrossingS11N5-v0",
    "MiniGrid-DistShift1-v0",
    "MiniGrid-DistShift2-v0",
    "MiniGrid-DoorKey-5x5-v0",
    "MiniGrid-DoorKey-6x6-v0",
    "MiniGrid-DoorKey-8x8-v0",
    "MiniGrid-DoorKey-16x16-v0",
    "MiniGrid-Dynamic-Obstacles-5x5-v0",
    "MiniGrid-Dynamic-Obstacles-Random-5x5-v0",
    "MiniGrid-Dynamic-Obstacles-6x6-v0",
    "MiniGrid-Dynamic-Obstacles-Random-6x6-v0",
    "MiniGrid-Dynamic-Obstacles-8x8-v0",
    "MiniGrid-Dynamic-Obstacles-16x16-v0",
    "MiniGrid-Empty-5x5-v0",
    "MiniGrid-Empty-Random-5x5-v0",
    "MiniGrid-Empty-6x6-v0",
    "MiniGrid-Empty-Random-6x6-v0",
    "MiniGrid-Empty-8x8-v0",
    "MiniGrid-Empty-16x16-v0",
    "MiniGrid-Fetch-5x5-N2-v0",
    "MiniGrid-Fetch-6x6-N2-v0",
    "MiniGrid-Fetch-8x8-N3-v0",
    "MiniGrid-FourRooms-v0",
    "MiniGrid-GoToDoor-5x5-v0",
    "MiniGrid-GoToDoor-6x6-v0",
    "MiniGrid-GoToDoor-8x8-v0",
    "MiniGrid-GoToObject-6x6-N2-v0",
    "MiniGrid-GoToObject-8x8-N2-v0",
    "MiniGrid-KeyCorridorS3R1-v0",
    "MiniGrid-KeyCorridorS3R2-v0",
    "MiniGrid-KeyCorridorS3R3-v0",
    "MiniGrid-KeyCorridorS4R3-v0",
    "MiniGrid-KeyCorridorS5R3-v0",
    "MiniGrid-KeyCorridorS6R3-v0",
    "MiniGrid-LavaGapS5-v0",
    "MiniGrid-LavaGapS6-v0",
    "MiniGrid-LavaGapS7-v0",
    "MiniGrid-LockedRoom-v0",
    "MiniGrid-MemoryS17Random-v0",
    "MiniGrid-MemoryS13Random-v0",
    "MiniGrid-MemoryS13-v0",
    "MiniGrid-MemoryS11-v0",
    "MiniGrid-MemoryS9-v0",
    "MiniGrid-MemoryS7-v0",
    "MiniGrid-MultiRoom-N2-S4-v0",
    "MiniGrid-MultiRoom-N4-S5-v0",
    "MiniGrid-MultiRoom-N4-S5-v1",
    "MiniGrid-MultiRoom-N6-v0",
    "MiniGrid-ObstructedMaze-1Dl-v0",
    "MiniGrid-ObstructedMaze-1Dlh-v0",
    "MiniGrid-ObstructedMaze-1Dlhb-v0",
    "MiniGrid-ObstructedMaze-2Dl-v0",
    "MiniGrid-ObstructedMaze-2Dlh-v0",
    "MiniGrid-ObstructedMaze-2Dlhb-v0",
    "MiniGrid-ObstructedMaze-1Q-v0",
    "MiniGrid-ObstructedMaze-2Q-v0",
    "MiniGrid-ObstructedMaze-Full-v0",
    "MiniGrid-ObstructedMaze-2Dlhb-v1",
    "MiniGrid-ObstructedMaze-1Q-v1",
    "MiniGrid-ObstructedMaze-2Q-v1",
    "MiniGrid-ObstructedMaze-Full-v1",
    "MiniGrid-Playground-v0",
    "MiniGrid-PutNear-6x6-N2-v0",
    "MiniGrid-PutNear-8x8-N3-v0",
    "MiniGrid-RedBlueDoors-6x6-v0",
    "MiniGrid-RedBlueDoors-8x8-v0",
    "MiniGrid-Unlock-v0",
    "MiniGrid-UnlockPickup-v0",
];

/// The parameters of a registered id (`None` for an id this crate does not know): the
/// environment's keyword arguments as minigrid registers them, a view of 7 and minigrid's
/// default time limit.
pub fn params_for(id: &str) -> Option<MiniGridParams> {
    let env = match id {
        "MiniGrid-BlockedUnlockPickup-v0" => EnvParams::BlockedUnlockPickup,
        "MiniGrid-LavaCrossingS9N1-v0" => EnvParams::Crossing(CrossingParams {
            size: 9,
            num_crossings: 1,
            obstacle_type: Obstacle::Lava,
        }),
        "MiniGrid-LavaCrossingS9N2-v0" => EnvParams::Crossing(CrossingParams {
            size: 9,
            num_crossings: 2,
            obstacle_type: Obstacle::Lava,
        }),
        "MiniGrid-LavaCrossingS9N3-v0" => EnvParams::Crossing(CrossingParams {
            size: 9,
            num_crossings: 3,
            obstacle_type: Obstacle::Lava,
        }),
        "MiniGrid-LavaCrossingS11N5-v0" => EnvParams::Crossing(CrossingParams {
            size: 11,
            num_crossings: 5,
            obstacle_type: Obstacle::Lava,
        }),
        "MiniGrid-SimpleCrossingS9N1-v0" => EnvParams::Crossing(CrossingParams {
            size: 9,
            num_crossings: 1,
            obstacle_type: Obstacle::Wall,
        }),
        "MiniGrid-SimpleCrossingS9N2-v0" => EnvParams::Crossing(CrossingParams {
            size: 9,
            num_crossings: 2,
            obstacle_type: Obstacle::Wall,
        }),
        "MiniGrid-SimpleCrossingS9N3-v0" => EnvParams::Crossing(CrossingParams {
            size: 9,
            num_crossings: 3,
            obstacle_type: Obstacle::Wall,
        }),
        "MiniGrid-SimpleCrossingS11N5-v0" => EnvParams::Crossing(CrossingParams {
            size: 11,
            num_crossings: 5,
            obstacle_type: Obstacle::Wall,
        }),
        "MiniGrid-DistShift1-v0" => EnvParams::DistShift(DistShiftParams {
            strip2_row: 2,
            ..DistShiftParams::default()
        }),
        "MiniGrid-DistShift2-v0" => EnvParams::DistShift(DistShiftParams {
            strip2_row: 5,
            ..DistShiftParams::default()
        }),
        "MiniGrid-DoorKey-5x5-v0" => EnvParams::DoorKey(DoorKeyParams { size: 5 }),
        "MiniGrid-DoorKey-6x6-v0" => EnvParams::DoorKey(DoorKeyParams { size: 6 }),
        "MiniGrid-DoorKey-8x8-v0" => EnvParams::DoorKey(DoorKeyParams { size: 8 }),
        "MiniGrid-DoorKey-16x16-v0" => EnvParams::DoorKey(DoorKeyParams { size: 16 }),
        "MiniGrid-Dynamic-Obstacles-5x5-v0" => {
            EnvParams::DynamicObstacles(DynamicObstaclesParams {
                size: 5,
                agent_start_pos: Some([1, 1]),
                agent_start_dir: 0,
                n_obstacles: 2,
            })
        }
        "MiniGrid-Dynamic-Obstacles-Random-5x5-v0" => {
            EnvParams::DynamicObstacles(DynamicObstaclesParams {
                size: 5,
                agent_start_pos: None,
                agent_start_dir: 0,
                n_obstacles: 2,
            })
        }
        "MiniGrid-Dynamic-Obstacles-6x6-v0" => {
            EnvParams::DynamicObstacles(DynamicObstaclesParams {
                size: 6,
                agent_start_pos: Some([1, 1]),
                agent_start_dir: 0,
                n_obstacles: 3,
            })
        }
        "MiniGrid-Dynamic-Obstacles-Random-6x6-v0" => {
            EnvParams::DynamicObstacles(DynamicObstaclesParams {
                size: 6,
                agent_start_pos: None,
                agent_start_dir: 0,
                n_obstacles: 3,
            })
        }
        "MiniGrid-Dynamic-Obstacles-8x8-v0" => {
            EnvParams::DynamicObstacles(DynamicObstaclesParams {
                size: 8,
                agent_start_pos: Some([1, 1]),
                agent_start_dir: 0,
                n_obstacles: 4,
            })
        }
        "MiniGrid-Dynamic-Obstacles-16x16-v0" => {
            EnvParams::DynamicObstacles(DynamicObstaclesParams {
                size: 16,
                agent_start_pos: Some([1, 1]),
                agent_start_dir: 0,
                n_obstacles: 8,
            })
        }
        "MiniGrid-Empty-5x5-v0" => EnvParams::Empty(EmptyParams {
            size: 5,
            agent_start_pos: Some([1, 1]),
            agent_start_dir: 0,
        }),
        "MiniGrid-Empty-Random-5x5-v0" => EnvParams::Empty(EmptyParams {
            size: 5,
            agent_start_pos: None,
            agent_start_dir: 0,
        }),
        "MiniGrid-Empty-6x6-v0" => EnvParams::Empty(EmptyParams {
            size: 6,
            agent_start_pos: Some([1, 1]),
            agent_start_dir: 0,
        }),
        "MiniGrid-Empty-Random-6x6-v0" => EnvParams::Empty(EmptyParams {
            size: 6,
            agent_start_pos: None,
            agent_start_dir: 0,
        }),
        "MiniGrid-Empty-8x8-v0" => EnvParams::Empty(EmptyParams {
            size: 8,
            agent_start_pos: Some([1, 1]),
            agent_start_dir: 0,
        }),
        "MiniGrid-Empty-16x16-v0" => EnvParams::Empty(EmptyParams {
            size: 16,
            agent_start_pos: Some([1, 1]),
            agent_start_dir: 0,
        }),
        "MiniGrid-Fetch-5x5-N2-v0" => EnvParams::Fetch(FetchParams {
            size: 5,
            num_objs: 2,
        }),
        "MiniGrid-Fetch-6x6-N2-v0" => EnvParams::Fetch(FetchParams {
            size: 6,
            num_objs: 2,
        }),
        "MiniGrid-Fetch-8x8-N3-v0" => EnvParams::Fetch(FetchParams {
            size: 8,
            num_objs: 3,
        }),
        "MiniGrid-FourRooms-v0" => EnvParams::FourRooms(FourRoomsParams::default()),
        "MiniGrid-GoToDoor-5x5-v0" => EnvParams::GoToDoor(GoToDoorParams { size: 5 }),
        "MiniGrid-GoToDoor-6x6-v0" => EnvParams::GoToDoor(GoToDoorParams { size: 6 }),
        "MiniGrid-GoToDoor-8x8-v0" => EnvParams::GoToDoor(GoToDoorParams { size: 8 }),
        "MiniGrid-GoToObject-6x6-N2-v0" => EnvParams::GoToObject(GoToObjectParams {
            size: 6,
            num_objs: 2,
        }),
        "MiniGrid-GoToObject-8x8-N2-v0" => EnvParams::GoToObject(GoToObjectParams {
            size: 8,
            num_objs: 2,
        }),
        "MiniGrid-KeyCorridorS3R1-v0" => EnvParams::KeyCorridor(KeyCorridorParams {
            room_size: 3,
            num_rows: 1,
            obj_type: ObjectKind::Ball,
        }),
        "MiniGrid-KeyCorridorS3R2-v0" => EnvParams::KeyCorridor(KeyCorridorParams {
            room_size: 3,
            num_rows: 2,
            obj_type: ObjectKind::Ball,
        }),
        "MiniGrid-KeyCorridorS3R3-v0" => EnvParams::KeyCorridor(KeyCorridorParams {
            room_size: 3,
            num_rows: 3,
            obj_type: ObjectKind::Ball,
        }),
        "MiniGrid-KeyCorridorS4R3-v0" => EnvParams::KeyCorridor(KeyCorridorParams {
            room_size: 4,
            num_rows: 3,
            obj_type: ObjectKind::Ball,
        }),
        "MiniGrid-KeyCorridorS5R3-v0" => EnvParams::KeyCorridor(KeyCorridorParams {
            room_size: 5,
            num_rows: 3,
            obj_type: ObjectKind::Ball,
        }),
        "MiniGrid-KeyCorridorS6R3-v0" => EnvParams::KeyCorridor(KeyCorridorParams {
            room_size: 6,
            num_rows: 3,
            obj_type: ObjectKind::Ball,
        }),
        "MiniGrid-LavaGapS5-v0" => EnvParams::LavaGap(LavaGapParams {
            size: 5,
            obstacle_type: Obstacle::Lava,
        }),
        "MiniGrid-LavaGapS6-v0" => EnvParams::LavaGap(LavaGapParams {
            size: 6,
            obstacle_type: Obstacle::Lava,
        }),
        "MiniGrid-LavaGapS7-v0" => EnvParams::LavaGap(LavaGapParams {
            size: 7,
            obstacle_type: Obstacle::Lava,
        }),
        "MiniGrid-LockedRoom-v0" => EnvParams::LockedRoom(LockedRoomParams::default()),
        "MiniGrid-MemoryS17Random-v0" => EnvParams::Memory(MemoryParams {
            size: 17,
            random_length: true,
        }),
        "MiniGrid-MemoryS13Random-v0" => EnvParams::Memory(MemoryParams {
            size: 13,
            random_length: true,
        }),
        "MiniGrid-MemoryS13-v0" => EnvParams::Memory(MemoryParams {
            size: 13,
            random_length: false,
        }),
        "MiniGrid-MemoryS11-v0" => EnvParams::Memory(MemoryParams {
            size: 11,
            random_length: false,
        }),
        "MiniGrid-MemoryS9-v0" => EnvParams::Memory(MemoryParams {
            size: 9,
            random_length: false,
        }),
        "MiniGrid-MemoryS7-v0" => EnvParams::Memory(MemoryParams {
            size: 7,
            random_length: false,
        }),
        "MiniGrid-MultiRoom-N2-S4-v0" => EnvParams::MultiRoom(MultiRoomParams {
            min_num_rooms: 2,
            max_num_rooms: 2,
            max_room_size: 4,
            ..MultiRoomParams::default()
        }),
        "MiniGrid-MultiRoom-N4-S5-v0" => EnvParams::MultiRoom(MultiRoomParams {
            min_num_rooms: 6,
            max_num_rooms: 6,
            max_room_size: 5,
            ..MultiRoomParams::default()
        }),
        "MiniGrid-MultiRoom-N4-S5-v1" => EnvParams::MultiRoom(MultiRoomParams {
            min_num_rooms: 4,
            max_num_rooms: 4,
            max_room_size: 5,
            ..MultiRoomParams::default()
        }),
        "MiniGrid-MultiRoom-N6-v0" => EnvParams::MultiRoom(MultiRoomParams {
            min_num_rooms: 6,
            max_num_rooms: 6,
            max_room_size: 10,
            ..MultiRoomParams::default()
        }),
        "MiniGrid-ObstructedMaze-1Dl-v0" => EnvParams::ObstructedMaze1(ObstructedMaze1Params {
            key_in_box: false,
            blocked: false,
        }),
        "MiniGrid-ObstructedMaze-1Dlh-v0" => EnvParams::ObstructedMaze1(ObstructedMaze1Params {
            key_in_box: true,
            blocked: false,
        }),
        "MiniGrid-ObstructedMaze-1Dlhb-v0" => EnvParams::ObstructedMaze1(ObstructedMaze1Params {
            key_in_box: true,
            blocked: true,
        }),
        "MiniGrid-ObstructedMaze-2Dl-v0" => {
            EnvParams::ObstructedMazeFull(ObstructedMazeFullParams {
                agent_room: [2, 1],
                key_in_box: false,
                blocked: false,
                num_quarters: 1,
                num_rooms_visited: 4,
                version: 0,
            })
        }
        "MiniGrid-ObstructedMaze-2Dlh-v0" => {
            EnvParams::ObstructedMazeFull(ObstructedMazeFullParams {
                agent_room: [2, 1],
                key_in_box: true,
                blocked: false,
                num_quarters: 1,
                num_rooms_visited: 4,
                version: 0,
            })
        }
        "MiniGrid-ObstructedMaze-2Dlhb-v0" => {
            EnvParams::ObstructedMazeFull(ObstructedMazeFullParams {
                agent_room: [2, 1],
                key_in_box: true,
                blocked: true,
                num_quarters: 1,
                num_rooms_visited: 4,
                version: 0,
            })
        }
        "MiniGrid-ObstructedMaze-1Q-v0" => {
            EnvParams::ObstructedMazeFull(ObstructedMazeFullParams {
                agent_room: [1, 1],
                key_in_box: true,
                blocked: true,
                num_quarters: 1,
                num_rooms_visited: 5,
                version: 0,
            })
        }
        "MiniGrid-ObstructedMaze-2Q-v0" => {
            EnvParams::ObstructedMazeFull(ObstructedMazeFullParams {
                agent_room: [2, 1],
                key_in_box: true,
                blocked: true,
                num_quarters: 2,
                num_rooms_visited: 11,
                version: 0,
            })
        }
        "MiniGrid-ObstructedMaze-Full-v0" => {
            EnvParams::ObstructedMazeFull(ObstructedMazeFullParams {
                version: 0,
                ..ObstructedMazeFullParams::default()
            })
        }
        "MiniGrid-ObstructedMaze-2Dlhb-v1" => {
            EnvParams::ObstructedMazeFull(ObstructedMazeFullParams {
                agent_room: [2, 1],
                key_in_box: true,
                blocked: true,
                num_quarters: 1,
                num_rooms_visited: 4,
                version: 1,
            })
        }
        "MiniGrid-ObstructedMaze-1Q-v1" => {
            EnvParams::ObstructedMazeFull(ObstructedMazeFullParams {
                agent_room: [1, 1],
                key_in_box: true,
                blocked: true,
                num_quarters: 1,
                num_rooms_visited: 5,
                version: 1,
            })
        }
        "MiniGrid-ObstructedMaze-2Q-v1" => {
            EnvParams::ObstructedMazeFull(ObstructedMazeFullParams {
                agent_room: [2, 1],
                key_in_box: true,
                blocked: true,
                num_quarters: 2,
                num_rooms_visited: 11,
                version: 1,
            })
        }
        "MiniGrid-ObstructedMaze-Full-v1" => {
            EnvParams::ObstructedMazeFull(ObstructedMazeFullParams {
                version: 1,
                ..ObstructedMazeFullParams::default()
            })
        }
        "MiniGrid-Playground-v0" => EnvParams::Playground,
        "MiniGrid-PutNear-6x6-N2-v0" => EnvParams::PutNear(PutNearParams {
            size: 6,
            num_objs: 2,
        }),
        "MiniGrid-PutNear-8x8-N3-v0" => EnvParams::PutNear(PutNearParams {
            size: 8,
            num_objs: 3,
        }),
        "MiniGrid-RedBlueDoors-6x6-v0" => EnvParams::RedBlueDoors(RedBlueDoorsParams { size: 6 }),
        "MiniGrid-RedBlueDoors-8x8-v0" => EnvParams::RedBlueDoors(RedBlueDoorsParams { size: 8 }),
        "MiniGrid-Unlock-v0" => EnvParams::Unlock,
        "MiniGrid-UnlockPickup-v0" => EnvParams::UnlockPickup,
        _ => return None,
    };
    Some(MiniGridParams::new(env))
}
