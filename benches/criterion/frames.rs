//! Criterion benchmarks of RGB frames: CartPole drawn at Gymnasium's 600 by 400 (compare with
//! Gymnasium's `render_mode="rgb_array"` in `benches/compare/frames_bench.py`), at 84 by 84
//! for pixel-based agents, and through `PixelObservation`'s grey 84 by 84 step.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rl_core::{Environment, Frame, Mode, RenderFrame, Simulator};
use rl_domains::cartpole::{CartPole, CartPoleParams, CartPoleState};
use rl_wrappers::pictures::PixelObservation;

/// Distinct states drawn in turn, so that no frame repeats the last.
fn states() -> Vec<CartPoleState> {
    (0..16)
        .map(|index| {
            let step = f64::from(index) / 16.0;
            CartPoleState::from_array([2.0 * step - 1.0, 0.0, 0.2 * step - 0.1, 0.0])
        })
        .collect()
}

fn cartpole_frames(c: &mut Criterion) {
    let Ok(domain) = CartPole::new(CartPoleParams::default()) else {
        return;
    };
    let states = states();
    let mut group = c.benchmark_group("frames");
    group.throughput(Throughput::Elements(states.len() as u64));
    for (name, width, height) in [
        ("CartPole-v1 600x400", 600, 400),
        ("CartPole-v1 84x84", 84, 84),
    ] {
        let Ok(mut frame) = Frame::new(width, height) else {
            continue;
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                for state in &states {
                    domain.draw_frame(black_box(state), &mut frame);
                }
                frame.pixels()[0]
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("pixel_observation_step");
    group.throughput(Throughput::Elements(1));
    if let Ok(mut env) = PixelObservation::new(Simulator::new(domain, 1), Some((84, 84)), true) {
        let mut action = 0;
        if env.reset(Mode::Training).is_ok() {
            group.bench_function("CartPole-v1 grey 84x84", |b| {
                b.iter(|| {
                    action = 1 - action;
                    match env.step(&action) {
                        Ok(outcome) if !outcome.is_done() => outcome.observation[[0, 0, 0]],
                        _ => env.reset(Mode::Training).map_or(0, |o| o[[0, 0, 0]]),
                    }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, cartpole_frames);
criterion_main!(benches);
