//! Environments built by id with what their registration declared
//! (`RegisteredDomain::registered_environment`): state access, text pictures and frames where
//! declared, a clear refusal where not, and steps equal to the plain environment's; the
//! documentation a registration carries, and the family it names.

use rl_core::corridor::Corridor;
use rl_core::registry::{self, Documentation, Registration};
use rl_core::{CoreError, Environment, Frame, Mode};
use rl_spaces::AnyElement;
use serde::Deserialize;
use serde_json::json;

#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct Params {
    length: u32,
    slip: f64,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            length: 5,
            slip: 0.2,
        }
    }
}

fn corridor(params: Params) -> Result<Corridor, CoreError> {
    Corridor::new(params.length, params.slip)
}

/// The documentation of the registered corridor.
const DOCUMENTATION: Documentation = Documentation::new(
    "Corridors",
    &["# Description\n\nA corridor walked left or right.\n"],
);

/// Registers the two ids once: one with every capability, one with none.
fn register() {
    let _ = Registration::new("Corridor-registered-all-v0", "all", corridor)
        .with_render()
        .with_frames()
        .with_state()
        .with_documentation(DOCUMENTATION)
        .register();
    let _ = Registration::new("Corridor-registered-bare-v0", "none", corridor).register();
}

#[test]
fn a_registered_environment_offers_what_its_registration_declared() {
    register();
    let domain = registry::build("Corridor-registered-all-v0", None).expect("registered");
    let mut env = domain.registered_environment(3);
    assert_eq!(env.state(), None, "no state before the first reset");
    assert_eq!(env.render_text(), None);
    let mut frame = Frame::new(40, 8).expect("a frame");
    assert!(matches!(
        env.render_frame(&mut frame),
        Err(CoreError::NeedsReset(_))
    ));
    env.reset(Mode::Training).expect("reset");
    // Set and read back.
    let observation = env
        .reset_to_state(&json!(2), Mode::Training)
        .expect("a cell");
    assert_eq!(observation, AnyElement::Int(2));
    assert_eq!(env.state(), Some(json!(2)));
    assert_eq!(env.render_text().as_deref(), Some("..A.G"));
    assert_eq!(env.frame_size(), Some((40, 8)));
    env.render_frame(&mut frame).expect("frames declared");
    // The agent's cell (2 of 5, 8 pixels each) is black.
    assert_eq!(frame.pixel(20, 4), Some([0, 0, 0]));
    // A JSON value that is not a state names the state and leaves the episode as it was.
    let error = env
        .reset_to_state(&json!("the end"), Mode::Training)
        .expect_err("not a state");
    assert!(
        matches!(error, CoreError::InvalidParameter { name: "state", .. }),
        "{error}"
    );
    assert!(error.to_string().contains("the end"), "{error}");
    assert_eq!(env.state(), Some(json!(2)));
}

#[test]
fn an_id_without_capabilities_says_so() {
    register();
    let domain = registry::build("Corridor-registered-bare-v0", None).expect("registered");
    let mut env = domain.registered_environment(0);
    env.reset(Mode::Training).expect("reset");
    assert_eq!(env.state(), None);
    assert_eq!(env.render_text(), None);
    assert_eq!(env.frame_size(), None);
    assert!(matches!(
        env.reset_to_state(&json!(1), Mode::Training),
        Err(CoreError::Unsupported { .. })
    ));
    let mut frame = Frame::new(8, 8).expect("a frame");
    assert!(matches!(
        env.render_frame(&mut frame),
        Err(CoreError::Unsupported { .. })
    ));
    assert!(domain.frame_environment(0).is_err());
}

#[test]
fn a_registered_environment_steps_as_the_plain_one() {
    register();
    let domain = registry::build("Corridor-registered-all-v0", Some(&json!({"slip": 0.4})))
        .expect("registered");
    let mut plain = domain.environment(11);
    let mut registered = domain.registered_environment(11);
    for episode in 0..5 {
        assert_eq!(
            plain.reset(Mode::Training).expect("reset"),
            registered.reset(Mode::Training).expect("reset"),
            "episode {episode}"
        );
        for t in 0..50 {
            let action = AnyElement::Int(i64::from(t % 3 != 0));
            let a = plain.step(&action).expect("a step");
            let b = registered.step(&action).expect("a step");
            assert_eq!(a.observation, b.observation, "episode {episode} step {t}");
            assert_eq!(a.reward().to_bits(), b.reward().to_bits());
            assert_eq!((a.terminated, a.truncated), (b.terminated, b.truncated));
            if a.is_done() {
                break;
            }
        }
    }
}

/// The outcomes of `steps` steps of `env` (resetting after an episode ends), as text.
fn trajectory(env: &mut rl_core::registry::BoxedRegisteredEnvironment, steps: u32) -> Vec<String> {
    (0..steps)
        .map(|t| {
            let outcome = env
                .step(&AnyElement::Int(i64::from(t % 4 != 0)))
                .expect("a step");
            if outcome.is_done() {
                env.reset(Mode::Training).expect("reset");
            }
            format!(
                "{:?} {} {} {}",
                outcome.observation,
                outcome.reward().to_bits(),
                outcome.terminated,
                outcome.truncated
            )
        })
        .collect()
}

#[test]
fn copies_and_snapshots_continue_exactly_as_the_original() {
    register();
    let domain = registry::build("Corridor-registered-all-v0", Some(&json!({"slip": 0.4})))
        .expect("registered");
    let mut env = domain.registered_environment(5);
    env.reset(Mode::Training).expect("reset");
    trajectory(&mut env, 3);
    let mut copy = env.try_clone().expect("a corridor copies");
    let snapshot = env.snapshot().expect("state access declared");
    let mut restored = domain.registered_environment(99);
    restored
        .restore(&snapshot)
        .expect("a snapshot of the same id");
    assert_eq!(restored.state(), env.state());
    let original = trajectory(&mut env, 60);
    assert_eq!(trajectory(&mut copy, 60), original);
    assert_eq!(trajectory(&mut restored, 60), original);
    // A snapshot before the first reset restores the generator alone.
    let fresh = domain.registered_environment(7);
    let mut from_fresh = domain.registered_environment(8);
    from_fresh
        .restore(&fresh.snapshot().expect("a snapshot"))
        .expect("restored");
    let mut fresh = fresh;
    fresh.reset(Mode::Training).expect("reset");
    from_fresh.reset(Mode::Training).expect("reset");
    assert_eq!(trajectory(&mut from_fresh, 30), trajectory(&mut fresh, 30));
    // What is not a snapshot is refused by name, the environment left as it was.
    for bad in [
        json!({}),
        json!({"generator": {"state": "1", "inc": "x"}}),
        json!({"generator": {"state": "1", "inc": "3"}, "episode": {"state": "far", "steps": 1, "ended": false}}),
    ] {
        let before = restored.state();
        let error = restored.restore(&bad).expect_err("not a snapshot");
        assert!(
            matches!(
                error,
                CoreError::InvalidParameter {
                    name: "snapshot",
                    ..
                }
            ),
            "{error}"
        );
        assert_eq!(restored.state(), before);
    }
    // Without state access: no snapshot, no restore, said plainly; copies still work.
    let bare = registry::build("Corridor-registered-bare-v0", None).expect("registered");
    let mut bare_env = bare.registered_environment(0);
    assert!(matches!(
        bare_env.snapshot(),
        Err(CoreError::Unsupported { .. })
    ));
    assert!(matches!(
        bare_env.restore(&snapshot),
        Err(CoreError::Unsupported { .. })
    ));
    assert!(bare_env.try_clone().is_some());
}

#[test]
fn the_registry_gives_the_documentation_and_family_a_registration_declared() {
    register();
    let documented = registry::describe("Corridor-registered-all-v0").expect("registered");
    assert_eq!(documented.documentation, Some(DOCUMENTATION));
    assert_eq!(documented.family(), "Corridors");
    let sections = DOCUMENTATION.sections();
    assert_eq!(sections.len(), 1);
    assert_eq!(sections[0].heading, "Description");
    assert_eq!(sections[0].body, "A corridor walked left or right.");
    // Without documentation, the family is the id's prefix.
    let bare = registry::describe("Corridor-registered-bare-v0").expect("registered");
    assert_eq!(bare.documentation, None);
    assert_eq!(bare.family(), "Corridor");
    assert!(
        registry::list()
            .iter()
            .any(|entry| entry.id == "Corridor-registered-all-v0"
                && entry.documentation == Some(DOCUMENTATION))
    );
}
