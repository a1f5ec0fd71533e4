//! A tour of `rl-spaces`: build a Dict space, write and read its definition, sample a batch and
//! write and read it as JSON. Run it with `cargo run --example spaces_tour`.

use rand::SeedableRng;
use rl_spaces::{
    AnySpace, BoxSpace, DictSpace, Discrete, JsonSpace, MultiBinary, SpaceError, TrySampleSpace,
};

fn main() -> Result<(), SpaceError> {
    println!("1. Build a Dict of a Box, a Discrete and a MultiBinary:");
    let space = AnySpace::from(DictSpace::new([
        (
            "position",
            BoxSpace::from_vecs(vec![-1.0f32, 0.0], vec![1.0, f32::INFINITY])?.into(),
        ),
        ("action", Discrete::new(3)?.into()),
        ("flags", MultiBinary::new(&[4])?.into()),
    ])?);
    println!("   {space}\n");

    println!("2. Write its definition to JSON (infinite bounds are explicit strings):");
    let definition = space.to_definition_string();
    println!("{definition}\n");

    println!("3. Read the definition back:");
    let read_back = AnySpace::from_definition_str(&definition)?;
    println!("   equal to the original: {}\n", read_back == space);

    println!("4. Sample 3 elements with a NumpyGenerator seeded with 2024:");
    let mut rng = rl_core::NumpyGenerator::seed_from_u64(2024);
    let batch: Vec<_> = (0..3)
        .map(|_| space.try_sample(&mut rng).ok_or(SpaceError::EmptySpace))
        .collect::<Result<_, _>>()?;
    for (i, x) in batch.iter().enumerate() {
        println!("   sample {i}: {}", space.element_to_json(x)?);
    }
    println!();

    println!("5. Write the batch as JSON (Gymnasium's column-wise to_jsonable layout):");
    let json = space.batch_to_jsonable(&batch)?;
    println!("   {json}\n");

    println!("6. Read the batch back:");
    let batch_back = space.batch_from_jsonable(&json)?;
    println!("   equal to the samples: {}", batch_back == batch);
    Ok(())
}
