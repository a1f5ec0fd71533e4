//! The thermostat carried through: episodes, the checker, by id, in a vector, on the command
//! line, in pictures.

use std::num::NonZeroUsize;
use std::process::Command;
use std::sync::Once;

use rl_core::registry::{self, PictureFormat};
use rl_core::{CheckConfig, CoreError, Environment, Frame, Mode, Simulator, check_domain};
use rl_spaces::AnyElement;
use rl_wrappers::vector::{VectorOptions, make_vector};
use thermostat::{ID, Thermostat};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Registers the thermostat once for the whole test binary.
fn register() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| thermostat::register().expect("Thermostat-v0 registers once"));
}

#[test]
fn an_episode_truncates_at_the_cap_and_bad_steps_are_errors() -> TestResult {
    // The Simulator owns the state, a generator seeded from one u64, the step count and the cap.
    let mut env = Simulator::new(Thermostat::new(0.5)?, 7);
    let first = env.reset(Mode::Training)?;
    assert!((15.0..20.0).contains(&first[0]));

    // Heating, the room never freezes, so the episode cap truncates the episode at 200 steps.
    let mut steps = 0;
    loop {
        let outcome = env.step(&2)?;
        steps += 1;
        if outcome.is_done() {
            assert!(outcome.truncated && !outcome.terminated);
            break;
        }
    }
    assert_eq!(steps, 200);

    // Stepping again is an error until the next reset, and so is an action outside the space.
    assert!(matches!(env.step(&2), Err(CoreError::NeedsReset(_))));
    env.reset(Mode::Training)?;
    assert!(matches!(env.step(&3), Err(CoreError::InvalidAction { .. })));
    Ok(())
}

#[test]
fn the_checker_passes() -> TestResult {
    let report = check_domain(&Thermostat::new(0.5)?, &CheckConfig::default());
    assert!(report.is_ok(), "{report}");
    Ok(())
}

/// The thermostat with a bug: `step` says that cooling ends the episode, `is_terminal` does not.
#[derive(Debug, Clone)]
struct Broken(Thermostat);

impl rl_core::Domain for Broken {
    type State = f64;
    type Observation = [f32; 1];
    type Action = i64;
    type ObservationSpace = rl_spaces::ArrayBox<f32, 1>;
    type ActionSpace = rl_spaces::Discrete;
    fn observation_space(&self) -> &Self::ObservationSpace {
        self.0.observation_space()
    }
    fn action_space(&self) -> &Self::ActionSpace {
        self.0.action_space()
    }
    fn initial_state<R: rl_core::rand::Rng + ?Sized>(&self, mode: Mode, rng: &mut R) -> f64 {
        self.0.initial_state(mode, rng)
    }
    fn step<R: rl_core::rand::Rng + ?Sized>(
        &self,
        state: &f64,
        action: &i64,
        mode: Mode,
        rng: &mut R,
    ) -> rl_core::TransitionOutcome<f64> {
        let mut outcome = self.0.step(state, action, mode, rng);
        outcome.terminated = *action == 0; // wrong: cooling does not end the episode
        outcome
    }
    fn observe(&self, state: &f64) -> [f32; 1] {
        self.0.observe(state)
    }
    fn is_terminal(&self, state: &f64) -> bool {
        self.0.is_terminal(state)
    }
}

#[test]
fn the_checker_reports_a_broken_domain() -> TestResult {
    let report = check_domain(&Broken(Thermostat::new(0.5)?), &CheckConfig::default());
    assert!(!report.is_ok());
    assert!(
        report
            .to_string()
            .contains("FAIL  step reports terminated exactly when the state reached is terminal")
    );
    println!("{report}");
    Ok(())
}

#[test]
fn the_id_builds_with_json_parameters_and_reports_bad_ones() -> TestResult {
    register();
    let mut env = registry::make(ID, Some(&serde_json::json!({"noise": 0.0})))?;
    env.seed(1);
    env.reset(Mode::EVALUATION)?;
    let outcome = env.step(&AnyElement::Int(2))?;
    assert!(outcome.value.reward() < 0.0);

    // The checker by id (what `rl check` runs).
    assert!(
        registry::build(ID, None)?
            .check(&CheckConfig::default())
            .is_ok()
    );

    // A parameter of the wrong type names its JSON path; a value the constructor refuses says why.
    let wrong_type = registry::make(ID, Some(&serde_json::json!({"noise": "high"})));
    assert!(
        matches!(wrong_type, Err(CoreError::InvalidParameters { ref path, .. }) if path == "noise")
    );
    let refused = registry::make(ID, Some(&serde_json::json!({"noise": -1.0})));
    assert!(
        matches!(refused, Err(CoreError::InvalidDomain { ref reason, .. }) if reason.contains("noise"))
    );
    // Registering the id again is an error.
    assert!(matches!(
        thermostat::register(),
        Err(CoreError::DuplicateId { .. })
    ));
    Ok(())
}

#[test]
fn a_vector_by_id_steps_as_environments_by_id_do() -> TestResult {
    register();
    // Environment i of the vector is seeded with seed + i, as Gymnasium's vectors do.
    let count = NonZeroUsize::new(4).ok_or("zero")?;
    let mut vector = make_vector::<i64, f32>(ID, None, count, 3, VectorOptions::new())?;
    vector.reset(Mode::Training)?;
    let mut singles = Vec::new();
    for index in 0..4 {
        let mut env = registry::make(ID, None)?;
        env.seed(3 + index);
        env.reset(Mode::Training)?;
        singles.push(env);
    }
    for _ in 0..10 {
        vector.step(&[0, 1, 2, 2])?;
        for (index, (env, action)) in singles.iter_mut().zip([0, 1, 2, 2]).enumerate() {
            let outcome = env.step(&AnyElement::Int(action))?;
            assert_eq!(
                vector.rewards()[index].to_bits(),
                outcome.value.reward().to_bits()
            );
        }
    }
    Ok(())
}

#[test]
fn pictures_by_id() -> TestResult {
    register();
    let thermostat = registry::build(ID, None)?;
    let text = thermostat
        .picture(0, PictureFormat::Text)
        .ok_or("no text picture")?;
    assert!(text.ends_with("°C (target 21 °C)"), "{text}");
    let mut frame = Frame::new(160, 24)?;
    thermostat.draw_frame(0, &mut frame)?;
    // Column 0 is -10 °C, below every starting temperature: drawn red.
    assert_eq!(frame.pixel(0, 12), Some([220, 60, 40]));
    Ok(())
}

/// Runs this crate's binary, the `rl` command line with the thermostat, and returns its
/// standard output; fails unless it succeeds.
fn rl(args: &[&str]) -> Result<String, Box<dyn std::error::Error>> {
    let output = Command::new(env!("CARGO_BIN_EXE_thermostat"))
        .args(args)
        .output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "rl {args:?} failed: {stderr}");
    Ok(String::from_utf8(output.stdout)?)
}

#[test]
fn the_command_line_knows_the_thermostat() -> TestResult {
    assert!(rl(&["list"])?.contains(ID));
    let report = rl(&["check", "--domain", ID])?;
    assert!(!report.contains("FAIL"), "{report}");

    // A GIF of a 30-step episode of seeded random actions.
    let directory = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("thermostat");
    let gif = directory.join("episode.gif");
    let gif_path = gif.to_str().ok_or("not UTF-8")?;
    rl(&[
        "render",
        "--domain",
        ID,
        "--episode",
        "--max-steps",
        "30",
        "--out",
        gif_path,
    ])?;
    assert!(std::fs::read(&gif)?.starts_with(b"GIF89a"));

    // A short learning run with the registration's default agent, results in a directory.
    let results = directory.join("results");
    let results_path = results.to_str().ok_or("not UTF-8")?;
    let _ = std::fs::remove_dir_all(&results);
    rl(&[
        "run",
        "--domain",
        ID,
        "--max-steps",
        "2000",
        "--checks",
        "2",
        "--runs",
        "1",
        "--out",
        results_path,
    ])?;
    assert!(results.join("summary.csv").exists());
    Ok(())
}
