//! What the planar and 3D walkers share: healthy rewards as Python computes them, the
//! observation of `qpos` (without the first positions) and `qvel`, and body references.

use serde::Deserialize;

use crate::error::MujocoError;
use crate::simulation::Model;

/// A body named by index or by name (Ant's `main_body`, Gymnasium's `data.body(x)`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum BodyRef {
    /// The body of this index.
    Index(usize),
    /// The body of this name.
    Name(String),
}

impl BodyRef {
    /// The body's index in `model`, or an error naming the parameter.
    pub(crate) fn resolve(
        &self,
        model: &Model,
        parameter: &'static str,
    ) -> Result<usize, MujocoError> {
        let nbody = model.sizes().nbody;
        match self {
            BodyRef::Index(index) if *index < nbody => Ok(*index),
            BodyRef::Index(index) => Err(MujocoError::Parameter {
                name: parameter,
                reason: format!("body {index} is not one of the model's {nbody} bodies"),
            }),
            BodyRef::Name(name) => model.body_id(name).ok_or_else(|| MujocoError::Parameter {
                name: parameter,
                reason: format!("the model has no body named {name:?}"),
            }),
        }
    }
}

/// Writes `positions[skip..]` then `velocities` into `out`, returning the rest of `out`.
pub(crate) fn write_positions_velocities<'a>(
    positions: &[f64],
    skip: usize,
    velocities: &[f64],
    out: &'a mut [f64],
) -> &'a mut [f64] {
    let positions = &positions[skip..];
    let (head, rest) = out.split_at_mut(positions.len());
    head.copy_from_slice(positions);
    let (middle, rest) = rest.split_at_mut(velocities.len());
    middle.copy_from_slice(velocities);
    rest
}

/// A body index from the model, or an error naming the parameter.
pub(crate) fn body(model: &Model, name: &str) -> Result<usize, MujocoError> {
    model.body_id(name).ok_or_else(|| MujocoError::Parameter {
        name: "xml_file",
        reason: format!("the model has no body named {name:?}"),
    })
}
