//! Environments built by id with everything the id's registration declared beyond stepping:
//! the state read and set as JSON, text pictures and RGB frames of the current state
//! ([`RegisteredEnvironment`], built by
//! [`RegisteredDomain::registered_environment`](crate::registry::RegisteredDomain::registered_environment)).
//! This is what code keyed by id that shows or restores episodes needs (the Python package's
//! single environment, `rl render`), so that none of it keeps a table of domain types.

use std::any::Any;

use rl_spaces::{AnyElement, AnySpace, DynamicSpace, Space};
use serde_json::Value;

use crate::registry::PictureFormat;
use crate::{
    ConstraintSet, CoreError, Domain, DynamicEnvironment, Environment, Frame, FrameEnvironment,
    Mode, RandomState, ResetReason, Simulator, StepOutcome,
};

/// An environment built by id, driven through [`AnyElement`]s, with what its registration
/// declared beyond stepping. Each capability says when it is missing: `None` (or
/// [`CoreError::Unsupported`]) where the registration did not declare it.
pub trait RegisteredEnvironment:
    Environment<
        Observation = AnyElement,
        Action = AnyElement,
        ObservationSpace = AnySpace,
        ActionSpace = AnySpace,
    > + Send
{
    /// The current state in the domain's serde form (the last one after an episode ended);
    /// `None` before the first reset, or when the registration declared no state access
    /// ([`Registration::with_state`](crate::registry::Registration::with_state)).
    fn state(&self) -> Option<Value>;

    /// Starts an episode in `mode` in `state` (the domain's serde form) and returns its first
    /// observation; nothing is drawn from the generator.
    ///
    /// # Errors
    ///
    /// [`CoreError::Unsupported`] when the registration declared no state access, and
    /// [`CoreError::InvalidParameter`] naming `state` when `state` is not one of the domain's
    /// or fails the domain's [`check_state`](crate::Domain::check_state) (the environment is
    /// then left as it was). A terminal state is taken, as Gymnasium steps from any state it
    /// is given (the reference traces step from such states).
    fn reset_to_state(&mut self, state: &Value, mode: Mode) -> Result<AnyElement, CoreError>;

    /// A text picture of the current state ([`Render::render_text`](crate::Render::render_text)),
    /// or `None` before the first reset or when the registration declared no pictures.
    fn render_text(&self) -> Option<String>;

    /// The natural size `(width, height)` of the RGB frames, or `None` when the registration
    /// declared no frames.
    fn frame_size(&self) -> Option<(u32, u32)>;

    /// Draws the current state over `frame`, as the episode shows it after its last action
    /// ([`RenderFrame::draw_frame_after`](crate::RenderFrame::draw_frame_after)).
    ///
    /// # Errors
    ///
    /// [`CoreError::Unsupported`] when the registration declared no frames,
    /// [`CoreError::NeedsReset`] before the first reset.
    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError>;

    /// An independent copy that continues exactly as this one would (its state, step count
    /// and generator), or `None` when the environment cannot be copied (the default).
    fn try_clone(&self) -> Option<BoxedRegisteredEnvironment> {
        None
    }

    /// The episode as JSON data from which [`restore`](Self::restore) continues it exactly:
    /// the state (the domain's serde form), the step count, whether it ended, the mode and the
    /// generator's state. Not kept: the last action (the next frame of a domain that draws it
    /// is drawn as after a reset) and the states a constraint with a history remembers.
    ///
    /// # Errors
    ///
    /// [`CoreError::Unsupported`] when the registration declared no state access (the
    /// default).
    fn snapshot(&self) -> Result<Value, CoreError> {
        Err(CoreError::Unsupported {
            operation: "a snapshot (the registration declared no with_state)",
        })
    }

    /// Continues the episode of a [`snapshot`](Self::snapshot) of an environment of the same
    /// id and parameters.
    ///
    /// # Errors
    ///
    /// [`CoreError::Unsupported`] when the registration declared no state access (the
    /// default), [`CoreError::InvalidParameter`] naming `snapshot` when it is not one (the
    /// environment is then left as it was).
    fn restore(&mut self, snapshot: &Value) -> Result<(), CoreError> {
        let _ = snapshot;
        Err(CoreError::Unsupported {
            operation: "restoring a snapshot (the registration declared no with_state)",
        })
    }
}

/// A [`RegisteredEnvironment`], boxed.
pub type BoxedRegisteredEnvironment = Box<dyn RegisteredEnvironment>;

/// Reads and writes a domain's state as JSON.
pub(crate) struct StateFns<D: Domain> {
    pub(crate) to_json: fn(&D, &D::State) -> Option<Value>,
    pub(crate) from_json: fn(&D, &Value) -> Result<D::State, String>,
}

impl<D: Domain> Clone for StateFns<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Domain> Copy for StateFns<D> {}

/// Draws a domain's frames: their size, and a state after an action.
pub(crate) struct DrawFns<D: Domain> {
    pub(crate) size: fn(&D) -> (u32, u32),
    pub(crate) draw_after: fn(&D, &D::State, Option<&D::Action>, &mut Frame),
}

impl<D: Domain> Clone for DrawFns<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Domain> Copy for DrawFns<D> {}

/// Draws a state as a picture of one format.
pub(crate) type PictureFn<D> = fn(&D, &<D as Domain>::State, PictureFormat) -> String;

/// What an [`Episode`] can do beyond stepping, as the registration declared it.
pub(crate) struct EpisodeFns<D: Domain> {
    pub(crate) state: Option<StateFns<D>>,
    pub(crate) picture: Option<PictureFn<D>>,
    pub(crate) frames: Option<DrawFns<D>>,
}

impl<D: Domain> Clone for EpisodeFns<D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Domain> Copy for EpisodeFns<D> {}

/// A [`Simulator`] that also keeps the last action of its episode when it draws frames (for
/// [`RenderFrame::draw_frame_after`](crate::RenderFrame::draw_frame_after)) and, with declared
/// constraints, lists the violated ones in the step's info under
/// [`VIOLATIONS_INFO_KEY`](crate::VIOLATIONS_INFO_KEY); its steps, observations and random
/// state are exactly the simulator's.
pub(crate) struct Episode<D: Domain> {
    simulator: Simulator<D>,
    last_action: Option<D::Action>,
    fns: EpisodeFns<D>,
}

impl<D: Domain> Episode<D> {
    /// The episode of `domain` seeded with `seed`, not yet reset, evaluating `constraints`
    /// when given.
    pub(crate) fn new(
        domain: D,
        seed: u64,
        fns: EpisodeFns<D>,
        constraints: Option<ConstraintSet<D::State, D::Action>>,
    ) -> Self {
        let simulator = match constraints {
            Some(constraints) => Simulator::with_constraint_set(domain, seed, constraints),
            None => Simulator::new(domain, seed),
        };
        Episode {
            simulator,
            last_action: None,
            fns,
        }
    }
}

impl<D: Domain + Clone> Clone for Episode<D> {
    fn clone(&self) -> Self {
        Episode {
            simulator: self.simulator.clone(),
            last_action: self.last_action.clone(),
            fns: self.fns,
        }
    }
}

impl<D: Domain + 'static> Environment for Episode<D> {
    type Observation = D::Observation;
    type Action = D::Action;
    type ObservationSpace = D::ObservationSpace;
    type ActionSpace = D::ActionSpace;

    fn observation_space(&self) -> &D::ObservationSpace {
        self.simulator.observation_space()
    }

    fn action_space(&self) -> &D::ActionSpace {
        self.simulator.action_space()
    }

    fn reset(&mut self, mode: Mode) -> Result<D::Observation, CoreError> {
        let observation = self.simulator.reset(mode)?;
        self.last_action = None;
        Ok(observation)
    }

    fn step(&mut self, action: &D::Action) -> Result<StepOutcome<D::Observation>, CoreError> {
        let mut outcome = self.simulator.step(action)?;
        if let Some(constraints) = self.simulator.constraint_set() {
            constraints.write_info(outcome.violations, &mut outcome.info);
        }
        if self.fns.frames.is_some() {
            // Kept only for frames; a rejected action leaves the last one as it was.
            self.last_action = Some(action.clone());
        }
        Ok(outcome)
    }

    fn seed(&mut self, seed: u64) {
        self.simulator.seed(seed);
    }

    fn reset_info(&self) -> crate::Info {
        self.simulator.reset_info()
    }

    fn mode(&self) -> Mode {
        self.simulator.mode()
    }

    fn discount(&self) -> f64 {
        self.simulator.discount()
    }

    fn accepts_action(&self, action: &D::Action) -> bool {
        self.simulator.accepts_action(action)
    }

    fn is_applicable(&self, action: &D::Action) -> bool {
        self.simulator.is_applicable(action)
    }

    fn random_state(&self) -> Result<RandomState, CoreError> {
        self.simulator.random_state()
    }

    fn set_random_state(&mut self, state: RandomState) -> Result<(), CoreError> {
        self.simulator.set_random_state(state)
    }

    fn close(&mut self) {
        self.simulator.close();
    }

    fn constraint_name(&self, index: usize) -> Option<&str> {
        self.simulator.constraint_name(index)
    }

    fn state_any(&self) -> Option<&dyn Any> {
        self.simulator.state().map(|state| state as &dyn Any)
    }

    fn domain_any(&self) -> Option<&dyn Any> {
        Some(self.simulator.domain() as &dyn Any)
    }
}

impl<D: Domain + 'static> FrameEnvironment for Episode<D> {
    /// The frames' size; `(0, 0)` when the registration declared no frames (such an episode
    /// is never handed out as a frame environment).
    fn frame_size(&self) -> (u32, u32) {
        self.fns
            .frames
            .map_or((0, 0), |frames| (frames.size)(self.simulator.domain()))
    }

    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError> {
        let frames = self.fns.frames.ok_or(CoreError::Unsupported {
            operation: "frames",
        })?;
        let state = self
            .simulator
            .state()
            .ok_or(CoreError::NeedsReset(ResetReason::NotStarted))?;
        (frames.draw_after)(
            self.simulator.domain(),
            state,
            self.last_action.as_ref(),
            frame,
        );
        Ok(())
    }
}

impl<D> RegisteredEnvironment for DynamicEnvironment<Episode<D>>
where
    D: Domain + Clone + Send + 'static,
    D::State: Send,
    D::Action: Send,
    D::ObservationSpace: DynamicSpace,
    D::ActionSpace: DynamicSpace,
{
    fn state(&self) -> Option<Value> {
        let episode = self.inner();
        let state = episode.simulator.state()?;
        (episode.fns.state?.to_json)(episode.simulator.domain(), state)
    }

    fn reset_to_state(&mut self, state: &Value, mode: Mode) -> Result<AnyElement, CoreError> {
        let fns = self.inner().fns.state.ok_or(CoreError::Unsupported {
            operation: "setting the state (the registration declared no with_state)",
        })?;
        let refuse = |reason: String| {
            CoreError::invalid_parameter(
                "state",
                format!(
                    "{} is not a state of this domain: {reason}",
                    abbreviated(&state.to_string())
                ),
            )
        };
        let typed = (fns.from_json)(self.inner().simulator.domain(), state).map_err(refuse)?;
        let domain = self.inner().simulator.domain();
        domain.check_state(&typed).map_err(refuse)?;
        let observation = domain.observe(&typed);
        let space = domain.observation_space();
        if !space.contains(&observation) {
            return Err(refuse(format!(
                "its observation {} lies outside the observation space {}",
                abbreviated(&space.element_to_any(&observation).to_string()),
                abbreviated(&space.to_string())
            )));
        }
        let episode = self.inner_mut();
        let observation = episode.simulator.reset_to(typed, mode);
        episode.last_action = None;
        Ok(episode
            .simulator
            .observation_space()
            .element_to_any(&observation))
    }

    fn try_clone(&self) -> Option<BoxedRegisteredEnvironment> {
        Some(Box::new(self.clone()))
    }

    fn snapshot(&self) -> Result<Value, CoreError> {
        let episode = self.inner();
        let fns = episode.fns.state.ok_or(CoreError::Unsupported {
            operation: "a snapshot (the registration declared no with_state)",
        })?;
        let simulator = &episode.simulator;
        let rng = simulator.random_state()?.into_generator();
        let generator = serde_json::json!({
            "state": rng.state().to_string(),
            "inc": rng.inc().to_string(),
            "buffered": rng.buffered_u32(),
        });
        let episode_json = match (simulator.progress(), simulator.state()) {
            (Some((ended, steps)), Some(state)) => {
                let state =
                    (fns.to_json)(simulator.domain(), state).ok_or(CoreError::Unsupported {
                        operation: "a snapshot of a state with no JSON form",
                    })?;
                serde_json::json!({"state": state, "steps": steps, "ended": ended})
            }
            _ => Value::Null,
        };
        Ok(serde_json::json!({
            "episode": episode_json,
            "mode": serde_json::to_value(simulator.mode()).unwrap_or(Value::Null),
            "generator": generator,
        }))
    }

    fn restore(&mut self, snapshot: &Value) -> Result<(), CoreError> {
        let fns = self.inner().fns.state.ok_or(CoreError::Unsupported {
            operation: "restoring a snapshot (the registration declared no with_state)",
        })?;
        let refuse = |reason: String| {
            CoreError::invalid_parameter(
                "snapshot",
                format!("not a snapshot of this environment: {reason}"),
            )
        };
        let number = |value: &Value, name: &str| -> Result<u128, CoreError> {
            value
                .get(name)
                .and_then(Value::as_str)
                .and_then(|text| text.parse::<u128>().ok())
                .ok_or_else(|| refuse(format!("`generator.{name}` is not a 128-bit integer")))
        };
        let generator = snapshot
            .get("generator")
            .ok_or_else(|| refuse("no `generator`".to_owned()))?;
        let buffered = match generator.get("buffered") {
            None | Some(Value::Null) => None,
            Some(value) => Some(
                value
                    .as_u64()
                    .and_then(|word| u32::try_from(word).ok())
                    .ok_or_else(|| {
                        refuse("`generator.buffered` is not a 32-bit word".to_owned())
                    })?,
            ),
        };
        let rng = crate::NumpyGenerator::from_state(
            number(generator, "state")?,
            number(generator, "inc")?,
            buffered,
        );
        let mode: Mode = snapshot
            .get("mode")
            .map(|mode| serde_json::from_value(mode.clone()))
            .transpose()
            .map_err(|error| refuse(format!("`mode`: {error}")))?
            .unwrap_or_default();
        let resumed = match snapshot.get("episode") {
            None | Some(Value::Null) => None,
            Some(episode) => {
                let state = episode
                    .get("state")
                    .ok_or_else(|| refuse("no `episode.state`".to_owned()))?;
                let typed = (fns.from_json)(self.inner().simulator.domain(), state)
                    .map_err(|reason| refuse(format!("`episode.state`: {reason}")))?;
                self.inner()
                    .simulator
                    .domain()
                    .check_state(&typed)
                    .map_err(|reason| refuse(format!("`episode.state`: {reason}")))?;
                let steps = episode
                    .get("steps")
                    .and_then(Value::as_u64)
                    .ok_or_else(|| refuse("`episode.steps` is not a step count".to_owned()))?;
                let ended = episode
                    .get("ended")
                    .and_then(Value::as_bool)
                    .ok_or_else(|| refuse("`episode.ended` is not true or false".to_owned()))?;
                Some((typed, steps, ended))
            }
        };
        let episode = self.inner_mut();
        match resumed {
            Some((state, steps, ended)) => episode.simulator.resume(state, mode, steps, ended),
            None => episode.simulator.unstart(mode),
        }
        episode.last_action = None;
        episode.simulator.set_random_state(RandomState::new(rng))
    }

    fn render_text(&self) -> Option<String> {
        let episode = self.inner();
        let picture = episode.fns.picture?;
        let state = episode.simulator.state()?;
        Some(picture(
            episode.simulator.domain(),
            state,
            PictureFormat::Text,
        ))
    }

    fn frame_size(&self) -> Option<(u32, u32)> {
        let episode = self.inner();
        episode
            .fns
            .frames
            .map(|frames| (frames.size)(episode.simulator.domain()))
    }

    fn render_frame(&self, frame: &mut Frame) -> Result<(), CoreError> {
        FrameEnvironment::render_frame(self.inner(), frame)
    }
}

/// `text` as an error message quotes outside input: whole when short, else its first 80
/// characters and its length (a state of a 200k-cell grid is two million characters).
fn abbreviated(text: &str) -> String {
    const SHOWN: usize = 80;
    match text.char_indices().nth(SHOWN) {
        None => text.to_owned(),
        Some((end, _)) => format!(
            "{}... ({} characters in all)",
            &text[..end],
            text.chars().count()
        ),
    }
}
