//! The conformance checker passes a correct domain and fails deliberately broken ones, each
//! with a readable report naming the broken check.

use std::sync::atomic::{AtomicU64, Ordering};

use rand::Rng;
use rl_core::corridor::{Corridor, RIGHT};
use rl_core::{
    CheckConfig, CheckReport, CoreError, Domain, EnumerableTransitions, Environment, Mode,
    Simulator, StepOutcome, Transition, TransitionOutcome, Value, check_constraints, check_domain,
    check_environment, check_transitions,
};
use rl_spaces::Discrete;

fn corridor(slip: f64) -> Corridor {
    Corridor::new(5, slip).expect("valid corridor")
}

fn failed_checks(report: &CheckReport) -> Vec<&'static str> {
    let mut checks: Vec<&'static str> = report.failures().map(|f| f.check).collect();
    checks.dedup();
    checks
}

#[test]
fn the_corridor_passes_every_check() {
    let config = CheckConfig::default();
    for slip in [0.0, 0.25] {
        let domain = corridor(slip);
        for report in [
            check_domain(&domain, &config),
            check_transitions(&domain, &config),
            check_constraints(&domain, &config),
        ] {
            assert!(report.is_ok(), "{report}");
            assert!(!report.passed.is_empty(), "{report}");
        }
    }
    let report = check_domain(&corridor(0.25), &config);
    assert!(report.passed.len() >= 12, "{report}");
}

#[test]
fn a_deterministic_domain_gets_an_advisory_or_a_failure_as_configured() {
    let report = check_domain(&corridor(0.0), &CheckConfig::default());
    assert!(report.is_ok());
    assert!(
        report
            .advisories()
            .any(|f| f.check == "different seeds give different trajectories"),
        "{report}"
    );
    let strict = CheckConfig {
        expect_stochastic: Some(true),
        ..CheckConfig::default()
    };
    let report = check_domain(&corridor(0.0), &strict);
    assert_eq!(
        failed_checks(&report),
        ["different seeds give different trajectories"],
        "{report}"
    );
    let deterministic = CheckConfig {
        expect_stochastic: Some(false),
        ..CheckConfig::default()
    };
    assert!(check_domain(&corridor(0.0), &deterministic).is_ok());
    assert!(!check_domain(&corridor(0.3), &deterministic).is_ok());
}

/// How a [`Flawed`] corridor is broken.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Flaw {
    ObservesOutsideItsSpace,
    NanReward,
    HiddenGlobalState,
    PanicsInCellThree,
    ProbabilitiesSumBelowOne,
    UnlistedOutcome,
}

static HIDDEN: AtomicU64 = AtomicU64::new(0);

#[derive(Debug, Clone)]
struct Flawed {
    inner: Corridor,
    flaw: Flaw,
}

impl Domain for Flawed {
    type State = i64;
    type Observation = i64;
    type Action = i64;
    type ObservationSpace = Discrete;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &Discrete {
        self.inner.observation_space()
    }

    fn action_space(&self) -> &Discrete {
        self.inner.action_space()
    }

    fn initial_state<R: Rng + ?Sized>(&self, mode: Mode, rng: &mut R) -> i64 {
        self.inner.initial_state(mode, rng)
    }

    fn step<R: Rng + ?Sized>(
        &self,
        state: &i64,
        action: &i64,
        mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<i64> {
        let mut outcome = self.inner.step(state, action, mode, rng);
        match self.flaw {
            Flaw::NanReward => outcome.value = Value::from_reward(f64::NAN),
            // Slips every seventh call, counted across all instances: not reproducible.
            Flaw::HiddenGlobalState if HIDDEN.fetch_add(1, Ordering::SeqCst) % 7 == 0 => {
                outcome.next_state = (state - 1).max(0);
                outcome.terminated = self.is_terminal(&outcome.next_state);
            }
            Flaw::PanicsInCellThree => assert!(outcome.next_state != 3, "cell three is cursed"),
            _ => {}
        }
        outcome
    }

    fn observe(&self, state: &i64) -> i64 {
        match self.flaw {
            Flaw::ObservesOutsideItsSpace => state + 100,
            _ => *state,
        }
    }

    fn is_terminal(&self, state: &i64) -> bool {
        self.inner.is_terminal(state)
    }
}

impl EnumerableTransitions for Flawed {
    fn transitions(&self, state: &i64, action: &i64, mode: Mode) -> Vec<Transition<i64>> {
        let mut transitions = self.inner.transitions(state, action, mode);
        match self.flaw {
            Flaw::ProbabilitiesSumBelowOne => transitions[0].probability *= 0.9,
            Flaw::UnlistedOutcome => {
                // Claims the intended move always happens, though the corridor slips.
                transitions.truncate(1);
                transitions[0].probability = 1.0;
            }
            _ => {}
        }
        transitions
    }
}

fn flawed(flaw: Flaw) -> Flawed {
    Flawed {
        inner: corridor(0.3),
        flaw,
    }
}

#[test]
fn broken_domains_fail_the_check_they_break() {
    let config = CheckConfig::default();
    let cases = [
        (
            Flaw::ObservesOutsideItsSpace,
            "observations are in the observation space",
        ),
        (Flaw::NanReward, "rewards are finite"),
        (
            Flaw::HiddenGlobalState,
            "the same seed gives bit-identical trajectories",
        ),
        (
            Flaw::PanicsInCellThree,
            "the same seed gives bit-identical trajectories",
        ),
    ];
    for (flaw, check) in cases {
        let report = check_domain(&flawed(flaw), &config);
        assert!(!report.is_ok(), "{flaw:?} passed:\n{report}");
        assert!(
            failed_checks(&report).contains(&check),
            "{flaw:?} should fail {check:?}:\n{report}"
        );
        assert!(
            report.to_string().contains(&format!("FAIL  {check}")),
            "{report}"
        );
    }
    let report = check_domain(&flawed(Flaw::PanicsInCellThree), &config);
    assert!(
        report
            .to_string()
            .contains("panicked: cell three is cursed"),
        "{report}"
    );
}

#[test]
fn broken_transition_tables_fail() {
    let config = CheckConfig::default();
    let report = check_transitions(&flawed(Flaw::ProbabilitiesSumBelowOne), &config);
    assert_eq!(
        failed_checks(&report),
        ["enumerated probabilities are in [0, 1] and sum to one"],
        "{report}"
    );
    let report = check_transitions(&flawed(Flaw::UnlistedOutcome), &config);
    assert_eq!(
        failed_checks(&report),
        ["enumerated outcomes agree with step (flags and frequencies)"],
        "{report}"
    );
    assert!(
        report.to_string().contains("which is not listed"),
        "{report}"
    );
}

/// A black-box environment that breaks the contract: it accepts any action, and steps on after
/// the end of an episode.
#[derive(Debug)]
struct Lenient {
    space: Discrete,
    observation_space: Discrete,
    position: i64,
}

impl Environment for Lenient {
    type Observation = i64;
    type Action = i64;
    type ObservationSpace = Discrete;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &Discrete {
        &self.observation_space
    }
    fn action_space(&self) -> &Discrete {
        &self.space
    }
    fn reset(&mut self, _mode: Mode) -> Result<i64, CoreError> {
        self.position = 0;
        Ok(0)
    }
    fn step(&mut self, action: &i64) -> Result<StepOutcome<i64>, CoreError> {
        self.position = (self.position + action.signum()).clamp(0, 3);
        Ok(StepOutcome {
            observation: self.position,
            value: Value::from_reward(-1.0),
            terminated: self.position == 3,
            truncated: false,
            info: rl_core::Info::new(),
            violations: rl_core::Violations::NONE,
        })
    }
    fn seed(&mut self, _seed: u64) {}
    fn mode(&self) -> Mode {
        Mode::Training
    }
}

#[test]
fn a_lenient_black_box_environment_fails() {
    let make = || Lenient {
        space: Discrete::new(2).expect("valid"),
        observation_space: Discrete::new(4).expect("valid"),
        position: 0,
    };
    let report = check_environment(make, &CheckConfig::default());
    let failed = failed_checks(&report);
    for check in [
        "step before the first reset is an error",
        "step after the episode ended is an error",
        "actions outside the action space are errors that change nothing",
    ] {
        assert!(failed.contains(&check), "{check:?} should fail:\n{report}");
    }
    assert!(
        report
            .advisories()
            .any(|f| f.check == "saving and restoring the random state replays the episode"),
        "{report}"
    );
}

#[test]
fn the_report_lists_failures_before_passes() {
    let report = check_domain(&flawed(Flaw::NanReward), &CheckConfig::default());
    let text = report.to_string();
    let first_line = text.lines().next().unwrap_or_default();
    assert!(first_line.contains("failed"), "{first_line}");
    let fail = text.find("FAIL").expect("a failure line");
    let ok = text.find("  ok ").expect("a pass line");
    assert!(fail < ok, "{text}");
}

#[test]
fn checking_a_simulator_directly_works() {
    let report = check_environment(|| Simulator::new(corridor(0.2), 0), &CheckConfig::default());
    assert!(report.is_ok(), "{report}");
    let _ = RIGHT;
}

/// A drift on a line, with a structure-of-arrays kernel that agrees with its step bit for bit;
/// its step reports an info when `with_info` is set, and its kernel has `kernel_bug`.
#[derive(Debug, Clone)]
struct Drift {
    actions: Discrete,
    observations: rl_spaces::ArrayBox<f64, 1>,
    with_info: bool,
    kernel_bug: KernelBug,
}

/// What is wrong with [`Drift`]'s kernel.
#[derive(Debug, Clone, Copy, PartialEq)]
enum KernelBug {
    /// Nothing.
    None,
    /// The fourth state moves one step's drift too far.
    Offset,
    /// The fourth state's generator draws a number the step does not draw (the results of
    /// the step itself are right; the next ones would not be in a stochastic domain).
    ExtraDraw,
    /// The kernel writes no infos (`writes_infos` false) though the step reports some.
    NoInfos,
    /// The fourth state's info is off by one.
    WrongInfo,
    /// Not the kernel's: the domain's resets report an info, which the kernel (writing none)
    /// would have vectors drop.
    ResetInfos,
}

impl Drift {
    fn new(with_info: bool, kernel_bug: KernelBug) -> Self {
        Drift {
            actions: Discrete::new(2).expect("valid"),
            observations: rl_spaces::ArrayBox::new([-10.0], [10.0]).expect("valid"),
            with_info,
            kernel_bug,
        }
    }

    fn next(position: f64, action: i64) -> (f64, bool) {
        let next = position + 0.25 * (2.0 * action as f64 - 1.0);
        (next, next.abs() >= 1.0)
    }
}

impl Domain for Drift {
    type State = f64;
    type Observation = [f64; 1];
    type Action = i64;
    type ObservationSpace = rl_spaces::ArrayBox<f64, 1>;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &Self::ObservationSpace {
        &self.observations
    }

    fn action_space(&self) -> &Discrete {
        &self.actions
    }

    fn initial_state<R: Rng + ?Sized>(&self, _: Mode, _: &mut R) -> f64 {
        0.0
    }

    fn step<R: Rng + ?Sized>(
        &self,
        s: &f64,
        a: &i64,
        _: Mode,
        _: &mut R,
    ) -> TransitionOutcome<f64> {
        let (next, terminated) = Drift::next(*s, *a);
        let mut outcome = TransitionOutcome::new(next, Value::from_reward(-next.abs()), terminated);
        if self.with_info {
            outcome.info.insert("distance", next.abs());
        }
        outcome
    }

    fn observe(&self, s: &f64) -> [f64; 1] {
        [*s]
    }

    fn is_terminal(&self, s: &f64) -> bool {
        s.abs() >= 1.0
    }

    fn reset_info(&self, state: &f64) -> rl_core::Info {
        let mut info = rl_core::Info::new();
        if self.kernel_bug == KernelBug::ResetInfos {
            info.insert("start", *state);
        }
        info
    }
}

impl rl_core::BatchStep for Drift {
    fn step_batch<T: rl_spaces::FlatScalar>(
        &self,
        states: &mut [f64],
        actions: &[i64],
        _: Mode,
        rngs: &mut [rl_core::NumpyGenerator],
        rewards: &mut [f64],
        terminated: &mut [bool],
        observations: &mut [T],
    ) {
        for i in 0..states.len() {
            let (mut next, ended) = Drift::next(states[i], actions[i]);
            if self.kernel_bug == KernelBug::Offset && i == 3 {
                next += 0.25;
            }
            if self.kernel_bug == KernelBug::ExtraDraw && i == 3 {
                let _: u64 = rand::RngExt::random(&mut rngs[i]);
            }
            states[i] = next;
            (rewards[i], terminated[i]) = (-next.abs(), ended);
            observations[i] = T::from_f64(next);
        }
    }

    fn writes_infos(&self) -> bool {
        self.with_info && self.kernel_bug != KernelBug::NoInfos
    }

    fn write_infos(&self, states: &[f64], _: &[i64], infos: &mut [rl_core::Info]) {
        for (i, (state, info)) in states.iter().zip(infos).enumerate() {
            let wrong = if self.kernel_bug == KernelBug::WrongInfo && i == 3 {
                1.0
            } else {
                0.0
            };
            *info = rl_core::Info::new();
            info.insert("distance", state.abs() + wrong);
        }
    }
}

#[test]
fn a_kernel_is_checked_against_the_step_infos_included() {
    let config = CheckConfig::default();
    let good = rl_core::check_batch_step(&Drift::new(false, KernelBug::None), &config);
    assert!(good.is_ok(), "{good}");
    assert_eq!(good.passed, ["the batch kernel steps as the domain's step"]);

    let wrong = rl_core::check_batch_step(&Drift::new(false, KernelBug::Offset), &config);
    assert_eq!(
        failed_checks(&wrong),
        ["the batch kernel steps as the domain's step"]
    );
    let message = wrong.to_string();
    assert!(message.contains("state 3 of the batch"), "{message}");
    assert!(message.contains("against the step's"), "{message}");

    let drawing = rl_core::check_batch_step(&Drift::new(false, KernelBug::ExtraDraw), &config);
    let message = drawing.to_string();
    assert!(!drawing.is_ok(), "{message}");
    assert!(message.contains("state 3 of the batch"), "{message}");
    assert!(
        message.contains("generator drew other numbers"),
        "{message}"
    );

    // Nothing run, nothing passed: an advisory says why.
    let none = rl_core::check_batch_step(
        &Drift::new(false, KernelBug::Offset),
        &CheckConfig {
            episodes: 0,
            ..config.clone()
        },
    );
    assert!(none.is_ok() && none.passed.is_empty(), "{none}");
    assert_eq!(none.advisories().count(), 1, "{none}");

    // A kernel that writes the step's infos passes; one that writes none, or other ones, fails.
    let infos = rl_core::check_batch_step(&Drift::new(true, KernelBug::None), &config);
    assert!(infos.is_ok(), "{infos}");
    let dropped = rl_core::check_batch_step(&Drift::new(true, KernelBug::NoInfos), &config);
    assert_eq!(
        failed_checks(&dropped),
        ["the batch kernel steps as the domain's step"]
    );
    let message = dropped.to_string();
    assert!(message.contains("reports infos (distance)"), "{message}");
    assert!(message.contains("BatchStep::write_infos"), "{message}");
    assert!(message.contains("without with_kernel"), "{message}");
    let wrong = rl_core::check_batch_step(&Drift::new(true, KernelBug::WrongInfo), &config);
    let message = wrong.to_string();
    assert!(!wrong.is_ok(), "{message}");
    assert!(message.contains("state 3 of the batch: info"), "{message}");
    assert!(message.contains("against the step's"), "{message}");
    let resets = rl_core::check_batch_step(&Drift::new(false, KernelBug::ResetInfos), &config);
    let message = resets.to_string();
    assert!(!resets.is_ok(), "{message}");
    assert!(message.contains("resets report infos (start)"), "{message}");
}
