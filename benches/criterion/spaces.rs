//! Criterion benchmarks of space sampling and membership tests.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use rand::SeedableRng;
use rl_spaces::{ArrayBox, BoxSpace, Discrete, SampleSpace, Space};

fn sampling(c: &mut Criterion) {
    let mut rng = rl_core::NumpyGenerator::seed_from_u64(0);
    let discrete = Discrete::new(4).expect("valid space");
    c.bench_function("discrete/sample", |b| b.iter(|| discrete.sample(&mut rng)));
    let array_box = ArrayBox::new([-1.0f32; 4], [1.0; 4]).expect("valid space");
    c.bench_function("array_box4/sample", |b| {
        b.iter(|| array_box.sample(&mut rng))
    });
    let box_space = BoxSpace::uniform(&[4], -1.0f32, 1.0).expect("valid space");
    c.bench_function("box4/sample", |b| b.iter(|| box_space.sample(&mut rng)));
}

fn containment(c: &mut Criterion) {
    let array_box = ArrayBox::new([-1.0f32; 4], [1.0; 4]).expect("valid space");
    let x = [0.5f32; 4];
    c.bench_function("array_box4/contains", |b| {
        b.iter(|| array_box.contains(black_box(&x)))
    });
    let discrete = Discrete::new(4).expect("valid space");
    c.bench_function("discrete/contains", |b| {
        b.iter(|| discrete.contains(black_box(&2)))
    });
    // A vector environment's action check: a batch of 1024 valid actions, tested at once and
    // one by one.
    let actions: Vec<i64> = (0..1024).map(|i| i % 4).collect();
    c.bench_function("discrete/first_outside/1024", |b| {
        b.iter(|| discrete.first_outside(black_box(&actions)))
    });
    c.bench_function("discrete/position_not_contained/1024", |b| {
        b.iter(|| {
            black_box(&actions)
                .iter()
                .position(|a| !discrete.contains(a))
        })
    });
}

criterion_group!(benches, sampling, containment);
criterion_main!(benches);
