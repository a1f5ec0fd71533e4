//! [`BabyAiObservationSpace`]: BabyAI's observations, minigrid's dict with a mission of
//! free text (BabyAI's `BabyAIMissionSpace` contains every string), bridged to rl-spaces'
//! `Dict(direction, image, mission: Text)`.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use rl_spaces::{
    AnyArray, AnyElement, AnySpace, BoxSpace, DictSpace, Discrete, DynamicSpace, FlatScalar,
    FlattenSpace, RowLayout, Space, SpaceError, Text,
};

use crate::observation::{MISSION_CHARSET, MiniGridObservation};

/// The observations of a [`BabyAi`](super::BabyAi) level: `Dict(direction: Discrete(4), image:
/// Box(0, 255, (view, view, 3), uint8), mission: Text(1, max, charset))`, the keys in
/// Gymnasium's sorted order, the mission any text of [`MISSION_CHARSET`] up to the level's
/// longest mission (`max`, a bound computed from the level's grammar).
#[derive(Debug, Clone, PartialEq)]
pub struct BabyAiObservationSpace {
    view_size: usize,
    text: Text,
    dynamic: AnySpace,
}

impl BabyAiObservationSpace {
    /// The space of a `view_size` image and missions of at most `max_length` characters.
    pub fn new(view_size: usize, max_length: usize) -> Result<Self, SpaceError> {
        let text = Text::new(1, max_length, MISSION_CHARSET)?;
        let dynamic = AnySpace::Dict(DictSpace::new([
            ("direction", AnySpace::Discrete(Discrete::new(4)?)),
            (
                "image",
                AnySpace::from(BoxSpace::<u8>::uniform(
                    &[view_size, view_size, 3],
                    0,
                    u8::MAX,
                )?),
            ),
            ("mission", AnySpace::Text(text.clone())),
        ])?);
        Ok(BabyAiObservationSpace {
            view_size,
            text,
            dynamic,
        })
    }

    /// The side of the view.
    pub fn view_size(&self) -> usize {
        self.view_size
    }

    /// The longest mission, in characters.
    pub fn max_mission_len(&self) -> usize {
        self.text.max_length()
    }

    /// Writes an observation into a row of `layout` (the direction, the image by
    /// `write_image`, the mission's character indices padded with the charset's length),
    /// allocating nothing. Characters beyond the Text's maximum are left out (the levels'
    /// missions fit by construction).
    pub(crate) fn write_row<F: FlatScalar>(
        &self,
        layout: RowLayout,
        direction: u8,
        mission: &str,
        out: &mut [F],
        write_image: impl FnOnce(&mut [F]),
    ) -> Result<(), SpaceError> {
        let (image, mission_part) = self.row_parts(layout, direction, out)?;
        write_image(image);
        let padding = F::from_f64(self.text.charset().len() as f64);
        mission_part.fill(padding);
        for (slot, character) in mission_part.iter_mut().zip(mission.chars()) {
            let index = self
                .text
                .character_index(character)
                .unwrap_or(self.text.charset().len());
            *slot = F::from_f64(index as f64);
        }
        Ok(())
    }

    fn row_parts<'a, F: FlatScalar>(
        &self,
        layout: RowLayout,
        direction: u8,
        out: &'a mut [F],
    ) -> Result<(&'a mut [F], &'a mut [F]), SpaceError> {
        let row_dim = self.row_dim(layout);
        if out.len() != row_dim {
            return Err(SpaceError::LengthMismatch {
                what: "observation row",
                expected: row_dim,
                found: out.len(),
            });
        }
        let image_len = self.view_size * self.view_size * 3;
        let direction_width = row_dim - image_len - self.text.max_length();
        let (direction_part, rest) = out.split_at_mut(direction_width);
        match direction_part {
            [index] => *index = F::from_u8(direction % 4),
            one_hot => {
                one_hot.fill(F::ZERO);
                one_hot[usize::from(direction % 4)] = F::ONE;
            }
        }
        Ok(rest.split_at_mut(image_len))
    }

    fn write_element<F: FlatScalar>(
        &self,
        layout: RowLayout,
        x: &MiniGridObservation,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        if !self.contains(x) {
            return Err(SpaceError::NotInSpace {
                element: format!("{x:?}"),
                space: self.to_string(),
            });
        }
        self.write_row(layout, x.direction, &x.mission, out, |image| {
            for (slot, &byte) in image.iter_mut().zip(&x.image) {
                *slot = F::from_u8(byte);
            }
        })
    }
}

impl fmt::Display for BabyAiObservationSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Dict('direction': Discrete(4), 'image': Box(0, 255, ({0}, {0}, 3), uint8), \
             'mission': BabyAIMissionSpace(up to {1} characters))",
            self.view_size,
            self.text.max_length()
        )
    }
}

impl Space for BabyAiObservationSpace {
    type Element = MiniGridObservation;

    fn contains(&self, x: &MiniGridObservation) -> bool {
        x.image.len() == self.view_size * self.view_size * 3
            && x.direction < 4
            && self.text.contains(&x.mission.to_string())
    }
}

impl DynamicSpace for BabyAiObservationSpace {
    fn to_any_space(&self) -> AnySpace {
        self.dynamic.clone()
    }

    fn element_to_any(&self, x: &MiniGridObservation) -> AnyElement {
        let image = ndarray::ArrayD::from_shape_vec(
            ndarray::IxDyn(&[self.view_size, self.view_size, 3]),
            x.image.clone(),
        )
        .map_or_else(
            |_| {
                AnyElement::from(
                    ndarray::ArrayD::from_shape_vec(
                        ndarray::IxDyn(&[x.image.len()]),
                        x.image.clone(),
                    )
                    .expect("a flat array of the bytes"),
                )
            },
            AnyElement::from,
        );
        AnyElement::Dict(BTreeMap::from([
            (
                "direction".to_owned(),
                AnyElement::Int(i64::from(x.direction)),
            ),
            ("image".to_owned(), image),
            (
                "mission".to_owned(),
                AnyElement::Text(x.mission.to_string()),
            ),
        ]))
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<MiniGridObservation, SpaceError> {
        let refuse = || SpaceError::NotInSpace {
            element: x.to_string(),
            space: self.to_string(),
        };
        let entries = x.as_dict().ok_or_else(refuse)?;
        if entries.len() != 3 {
            return Err(refuse());
        }
        let direction = entries
            .get("direction")
            .and_then(AnyElement::as_int)
            .and_then(|direction| u8::try_from(direction).ok())
            .ok_or_else(refuse)?;
        let image = entries
            .get("image")
            .and_then(AnyElement::as_array)
            .and_then(AnyArray::as_array::<u8>)
            .filter(|image| image.shape() == [self.view_size, self.view_size, 3])
            .ok_or_else(refuse)?;
        let mission = entries
            .get("mission")
            .and_then(AnyElement::as_text)
            .ok_or_else(refuse)?;
        let observation = MiniGridObservation {
            image: image.iter().copied().collect(),
            direction,
            mission: Arc::from(mission),
        };
        if self.contains(&observation) {
            Ok(observation)
        } else {
            Err(refuse())
        }
    }
}

impl FlattenSpace for BabyAiObservationSpace {
    fn flat_dim(&self) -> usize {
        4 + self.view_size * self.view_size * 3 + self.text.max_length()
    }

    fn flatten_into<F: FlatScalar>(
        &self,
        x: &MiniGridObservation,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        self.write_element(RowLayout::Flat, x, out)
    }

    fn batched_dim(&self) -> usize {
        1 + self.view_size * self.view_size * 3 + self.text.max_length()
    }

    fn batched_into<F: FlatScalar>(
        &self,
        x: &MiniGridObservation,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        self.write_element(RowLayout::Batched, x, out)
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<MiniGridObservation, SpaceError> {
        let any = self.dynamic.unflatten(flat)?;
        self.element_from_any(&any)
    }
}
