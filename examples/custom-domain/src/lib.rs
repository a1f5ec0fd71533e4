//! A thermostat: the room temperature drifts toward the outside's 10 °C, and each step the agent
//! cools, idles or heats, rewarded for staying near 21 °C.

use rl_core::rand::{Rng, RngExt};
use rl_core::{CoreError, Domain, Mode, TransitionOutcome, Value};
use rl_spaces::{ArrayBox, Discrete};

/// The thermostat's pure model: its parameter and spaces, no episode state.
#[derive(Debug, Clone)]
pub struct Thermostat {
    noise: f64,
    observation_space: ArrayBox<f32, 1>,
    action_space: Discrete,
}

impl Thermostat {
    /// A thermostat whose temperature moves by up to `noise / 2` degrees at random each
    /// step (when training); `noise` must be finite and not negative.
    pub fn new(noise: f64) -> Result<Self, CoreError> {
        if !(noise.is_finite() && noise >= 0.0) {
            return Err(CoreError::invalid_parameter(
                "noise",
                format!("{noise} is not a finite number >= 0"),
            ));
        }
        Ok(Thermostat {
            noise,
            // The observation is the temperature as an f32, in [-50, 50].
            observation_space: ArrayBox::new([-50.0], [50.0])?,
            // 0 = cool, 1 = idle, 2 = heat.
            action_space: Discrete::new(3)?,
        })
    }
}

impl Domain for Thermostat {
    type State = f64;
    type Observation = [f32; 1];
    type Action = i64;
    type ObservationSpace = ArrayBox<f32, 1>;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &ArrayBox<f32, 1> {
        &self.observation_space
    }

    fn action_space(&self) -> &Discrete {
        &self.action_space
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, rng: &mut R) -> f64 {
        rng.random_range(15.0..20.0)
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &f64,
        action: &i64,
        mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<f64> {
        let power = (*action - 1) as f64; // -1, 0 or +1
        // No noise when evaluating: a domain may change its dynamics by mode.
        let noise = if mode.is_training() {
            self.noise * (rng.random::<f64>() - 0.5)
        } else {
            0.0
        };
        let next = (state + 1.5 * power + 0.1 * (10.0 - state) + noise).clamp(-50.0, 50.0);
        TransitionOutcome::new(
            next,
            Value::from_reward(-(next - 21.0).abs()),
            self.is_terminal(&next),
        )
    }

    fn observe(&self, state: &f64) -> [f32; 1] {
        [*state as f32]
    }

    fn is_terminal(&self, state: &f64) -> bool {
        *state < 0.0
    }

    fn discount(&self) -> f64 {
        0.99
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(200)
    }
}

use rl_core::{Frame, Render, RenderFrame};

/// Text and SVG pictures of a state: `rl render`, Python's `render_mode="ansi"`.
impl Render for Thermostat {
    fn render_text(&self, state: &f64) -> String {
        format!("{state:.1} °C (target 21 °C)")
    }

    fn render_svg(&self, state: &f64) -> String {
        let level = column(*state, 200);
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"20\">\
             <rect width=\"{level}\" height=\"20\" fill=\"tomato\"/>\
             <rect x=\"{}\" width=\"2\" height=\"20\" fill=\"green\"/></svg>",
            column(21.0, 200)
        )
    }
}

/// RGB frames: `rl render --episode` (a GIF of an episode), Python's `render_mode="rgb_array"`.
/// A thermometer: red up to the temperature, a green line at the 21 °C target.
impl RenderFrame for Thermostat {
    fn frame_size(&self) -> (u32, u32) {
        (160, 24)
    }

    fn draw_frame(&self, state: &f64, frame: &mut Frame) {
        let width = frame.width() as usize;
        let (level, target) = (column(*state, width), column(21.0, width));
        for (index, pixel) in frame.pixels_mut().chunks_exact_mut(3).enumerate() {
            let x = index % width;
            let colour = if x == target {
                [0, 160, 0]
            } else if x < level {
                [220, 60, 40]
            } else {
                [235, 235, 235]
            };
            pixel.copy_from_slice(&colour);
        }
    }
}

/// The pixel column of a temperature in a picture `width` pixels wide, from -10 °C at the left
/// edge to 40 °C at the right.
fn column(celsius: f64, width: usize) -> usize {
    (((celsius + 10.0) / 50.0).clamp(0.0, 1.0) * (width - 1) as f64).round() as usize
}

use rl_core::registry::Registration;
use serde::Deserialize;

/// The id the thermostat is registered under.
pub const ID: &str = "Thermostat-v0";

/// The parameters of `Thermostat-v0`, read from JSON over the defaults.
#[derive(Debug, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ThermostatParams {
    /// The range of the random drift per step when training, in degrees.
    pub noise: f64,
}

impl Default for ThermostatParams {
    fn default() -> Self {
        ThermostatParams { noise: 0.5 }
    }
}

/// Registers the thermostat under [`ID`], with its pictures and the defaults of `rl run`.
/// Registering an id twice is an error.
pub fn register() -> Result<(), CoreError> {
    Registration::new(
        ID,
        "keep a room near 21 °C by cooling or heating",
        |params: ThermostatParams| Thermostat::new(params.noise),
    )
    .with_render()
    .with_frames()
    .with_settings(serde_json::json!({"agent": "linear-sarsa", "max_steps": 20000}))
    .register()
}
