//! What the agent observes ([`MiniGridObservation`], minigrid's observation dict) and the set
//! of observations ([`MiniGridObservationSpace`]), with its bridge to rl-spaces' dynamic
//! `Dict(direction, image, mission: Text)`.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use rl_spaces::{
    AnyArray, AnyElement, AnySpace, BoxSpace, DictSpace, Discrete, DynamicSpace, FlatScalar,
    FlattenSpace, RowLayout, Space, SpaceError, Text,
};

/// The characters of every mission of every minigrid id, in the order that numbers them for
/// flattening (sorted, as Gymnasium sorts a set): the space, the comma (LockedRoom's
/// missions) and the lower-case letters. The `mission` of the dynamic observation space is a
/// [`Text`] over this charset.
pub const MISSION_CHARSET: &str = " ,abcdefghijklmnopqrstuvwxyz";

/// What the agent observes (minigrid's observation dict): the egocentric `image`
/// (`view x view x 3` bytes, numpy's C order), the `direction` it faces (0 to 3) and the
/// `mission` text, shared with the domain's table of missions (observing allocates the image
/// only; [`MiniGrid::write_image`](crate::MiniGrid::write_image) allocates nothing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MiniGridObservation {
    /// minigrid's `image`: `(object, colour, state)` per view cell, column first.
    pub image: Vec<u8>,
    /// minigrid's `direction`.
    pub direction: u8,
    /// minigrid's `mission`.
    pub mission: Arc<str>,
}

/// The observations of a [`MiniGrid`](crate::MiniGrid) domain, minigrid's
/// `Dict(direction: Discrete(4), image: Box(0, 255, (view, view, 3), uint8), mission:
/// MissionSpace)`: an image of the view's size (or of the shape of what the domain's
/// [`ImageKind`](crate::ImageKind) puts there), a direction below 4 and one of the domain's
/// missions.
///
/// # As a dynamic space
///
/// Through [`DynamicSpace`] (what an id registered in rl-core's table shows, the `rl` command
/// line and Python), the space is `Dict(direction: Discrete(4), image: Box(0, 255, (view,
/// view, 3), uint8), mission: Text(min, max, charset))`, the keys in Gymnasium's sorted
/// order. minigrid's own `MissionSpace` is a set of strings Gymnasium has no portable form
/// for; the `Text` contains every mission of the domain: its lengths run from the shortest
/// mission's to the longest's (in characters; Playground's only mission is the empty string)
/// over [`MISSION_CHARSET`]. The Text holds more strings than the missions; converting an
/// element back ([`DynamicSpace::element_from_any`]) accepts the domain's missions only.
#[derive(Debug, Clone, PartialEq)]
pub struct MiniGridObservationSpace {
    image_shape: [usize; 3],
    missions: Arc<[Arc<str>]>,
    /// Each mission's flattened characters (their charset indices, padded to the Text's
    /// `max_length` with the charset's length), mission after mission: what a flat row's
    /// mission part holds, looked up once here rather than character by character per step.
    mission_codes: Arc<[u8]>,
    text: Text,
    dynamic: AnySpace,
}

impl MiniGridObservationSpace {
    /// The space of an image of `image_shape` (`(view, view, 3)` for minigrid's partial view)
    /// and these missions. Fails when the image is empty or a mission has a character outside
    /// [`MISSION_CHARSET`].
    pub fn new(
        image_shape: [usize; 3],
        missions: Arc<[Arc<str>]>,
    ) -> Result<MiniGridObservationSpace, SpaceError> {
        let lengths = missions.iter().map(|mission| mission.chars().count());
        let min_length = lengths.clone().min().unwrap_or(0);
        let max_length = lengths.max().unwrap_or(0);
        let text = Text::new(min_length, max_length, MISSION_CHARSET)?;
        if let Some(mission) = missions
            .iter()
            .find(|mission| !text.contains(&mission.to_string()))
        {
            return Err(SpaceError::InvalidSpace {
                space: "Text",
                reason: format!(
                    "the mission {mission:?} has a character outside {MISSION_CHARSET:?}"
                ),
            });
        }
        let dynamic = AnySpace::Dict(DictSpace::new([
            ("direction", AnySpace::Discrete(Discrete::new(4)?)),
            (
                "image",
                AnySpace::from(BoxSpace::<u8>::uniform(&image_shape, 0, u8::MAX)?),
            ),
            ("mission", AnySpace::Text(text.clone())),
        ])?);
        let padding = u8::try_from(text.charset().len()).map_err(|_| SpaceError::InvalidSpace {
            space: "Text",
            reason: "a mission charset of more than 255 characters".to_owned(),
        })?;
        let mut mission_codes = Vec::with_capacity(missions.len() * max_length);
        for mission in missions.iter() {
            let start = mission_codes.len();
            for character in mission.chars() {
                // Every character was found in the charset above, whose length fits a byte.
                let index = text
                    .character_index(character)
                    .unwrap_or(usize::from(padding));
                mission_codes.push(index as u8);
            }
            mission_codes.resize(start + max_length, padding);
        }
        Ok(MiniGridObservationSpace {
            image_shape,
            missions,
            mission_codes: mission_codes.into(),
            text,
            dynamic,
        })
    }

    /// Writes an observation of direction `direction` (below 4) and the mission of index
    /// `mission` (below the number of missions) into `out` in `layout` (as
    /// [`FlattenSpace::write_row`] writes it: the direction one-hot, or one entry, in the
    /// batched layout), its image part written by `write_image` (given the `view * view * 3`
    /// entries of the image): what a vector's row gets straight from a state, allocating
    /// nothing.
    pub(crate) fn write_row<F: FlatScalar>(
        &self,
        layout: RowLayout,
        direction: u8,
        mission: usize,
        out: &mut [F],
        write_image: impl FnOnce(&mut [F]),
    ) -> Result<(), SpaceError> {
        let (image, mission_part) = self.row_parts(layout, direction, out)?;
        write_image(image);
        let max_length = self.text.max_length();
        let codes = &self.mission_codes[mission * max_length..(mission + 1) * max_length];
        for (slot, &code) in mission_part.iter_mut().zip(codes) {
            *slot = F::from_u8(code);
        }
        Ok(())
    }

    /// The shape of the image (`(view, view, 3)` for minigrid's partial view).
    pub fn image_shape(&self) -> [usize; 3] {
        self.image_shape
    }

    /// The number of entries of the image.
    fn image_len(&self) -> usize {
        self.image_shape.iter().product()
    }

    /// The missions an observation may carry.
    pub fn missions(&self) -> &[Arc<str>] {
        &self.missions
    }

    /// The mission `text` as the domain's shared string, if it is one of its missions.
    fn mission(&self, text: &str) -> Option<&Arc<str>> {
        self.missions.iter().find(|mission| ***mission == *text)
    }
}

impl fmt::Display for MiniGridObservationSpace {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c] = self.image_shape;
        write!(
            f,
            "Dict('direction': Discrete(4), 'image': Box(0, 255, ({a}, {b}, {c}), uint8), \
             'mission': MissionSpace({} missions))",
            self.missions.len()
        )
    }
}

impl Space for MiniGridObservationSpace {
    type Element = MiniGridObservation;

    fn contains(&self, x: &MiniGridObservation) -> bool {
        x.image.len() == self.image_len() && x.direction < 4 && self.mission(&x.mission).is_some()
    }
}

impl DynamicSpace for MiniGridObservationSpace {
    fn to_any_space(&self) -> AnySpace {
        self.dynamic.clone()
    }

    fn element_to_any(&self, x: &MiniGridObservation) -> AnyElement {
        let image = ndarray_image(self.image_shape, &x.image);
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
            .filter(|image| image.shape() == self.image_shape)
            .ok_or_else(refuse)?;
        let mission = entries
            .get("mission")
            .and_then(AnyElement::as_text)
            .and_then(|text| self.mission(text))
            .ok_or_else(refuse)?;
        let observation = MiniGridObservation {
            image: image.iter().copied().collect(),
            direction,
            mission: Arc::clone(mission),
        };
        if self.contains(&observation) {
            Ok(observation)
        } else {
            Err(refuse())
        }
    }
}

/// Gymnasium's `flatten` of the dynamic `Dict` (keys in order: the direction one-hot, the
/// image's bytes, the mission's character indices padded with the charset's length), written
/// without building the dynamic element, so that flattening allocates nothing (what a vector
/// of the domain's states writes into its rows).
impl FlattenSpace for MiniGridObservationSpace {
    fn flat_dim(&self) -> usize {
        4 + self.image_len() + self.text.max_length()
    }

    fn flatten_into<F: FlatScalar>(
        &self,
        x: &MiniGridObservation,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        self.write_element(RowLayout::Flat, x, out)
    }

    fn batched_dim(&self) -> usize {
        1 + self.image_len() + self.text.max_length()
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

impl MiniGridObservationSpace {
    /// Checks that `out` is a row of `layout`, writes the direction `direction` into it (a
    /// one-hot block, or one entry in the batched layout) and returns its image and mission
    /// parts.
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
        let image_len = self.image_len();
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

    /// Writes `x` into `out` in `layout`, checking it as flattening does.
    fn write_element<F: FlatScalar>(
        &self,
        layout: RowLayout,
        x: &MiniGridObservation,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        let image_len = self.image_len();
        if x.direction >= 4 || x.image.len() != image_len {
            return Err(SpaceError::NotInSpace {
                element: format!("{x:?}"),
                space: self.to_string(),
            });
        }
        let not_in_text = || SpaceError::NotInSpace {
            element: format!("{:?}", x.mission),
            space: self.text.to_string(),
        };
        if x.mission.chars().count() > self.text.max_length() {
            return Err(not_in_text());
        }
        let (image, mission) = self.row_parts(layout, x.direction, out)?;
        for (slot, &byte) in image.iter_mut().zip(&x.image) {
            *slot = F::from_u8(byte);
        }
        mission.fill(F::from_f64(self.text.charset().len() as f64));
        let mut failure = None;
        for (slot, character) in mission.iter_mut().zip(x.mission.chars()) {
            match self.text.character_index(character) {
                Some(index) => *slot = F::from_f64(index as f64),
                None => failure = Some(not_in_text()),
            }
        }
        failure.map_or(Ok(()), Err)
    }
}

/// The image bytes as a `u8` array element of `shape`.
fn ndarray_image(shape: [usize; 3], image: &[u8]) -> AnyElement {
    let array = ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&shape), image.to_vec());
    match array {
        Ok(array) => AnyElement::from(array),
        // An image of another length (built by hand) keeps its bytes, flat.
        Err(_) => AnyElement::from(
            ndarray::ArrayD::from_shape_vec(ndarray::IxDyn(&[image.len()]), image.to_vec())
                .expect("a flat array of the bytes"),
        ),
    }
}
