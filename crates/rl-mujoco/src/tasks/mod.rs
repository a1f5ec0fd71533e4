//! The environments' tasks, one file each, and what several share.

pub mod ant;
pub mod half_cheetah;
pub mod hopper;
pub mod humanoid;
pub mod humanoid_standup;
pub mod inverted_double_pendulum;
pub mod inverted_pendulum;
pub mod locomotion;
pub mod pusher;
pub mod reacher;
pub mod swimmer;
pub mod walker2d;

use rl_core::Info;

/// Python's `bool * float`: the float times 1 or 0 (so `False * -1.0` is `-0.0`, and
/// `False * inf` NaN, as in Python).
#[inline]
pub(crate) fn bool_times(flag: bool, value: f64) -> f64 {
    f64::from(u8::from(flag)) * value
}

/// `low < value < high`, false for NaN.
#[inline]
pub(crate) fn in_open_range(value: f64, [low, high]: [f64; 2]) -> bool {
    low < value && value < high
}

/// An info of float entries.
pub(crate) fn info(entries: &[(&'static str, f64)]) -> Info {
    let mut info = Info::new();
    for &(key, value) in entries {
        info.insert(key, value);
    }
    info
}
