//! [`GridWorld`]: RLPy's GridWorld on a [`GridMap`], as a [`Domain`] with enumerable
//! transitions.

use rand::Rng;
use rl_core::numpy_random::random;
use rl_core::{Domain, EnumerableTransitions, Mode, Transition, TransitionOutcome, Value};
use rl_spaces::Discrete;

use super::map::{CellKind, GridCell, GridMap};
use super::model::{
    ActionSet, ExpectedOutcome, GridAction, GridStep, Outcome, OutcomeList, expected_step,
    expected_step_corrected, noisy_step, possible_actions, stay, step_distribution,
};
use super::space::GridCellSpace;
use super::{ExpectedStepVariant, GridWorldParams};
use crate::error::Error;

/// GridWorld: RLPy 1.3.6's grid navigation domain as a [`Domain`].
///
#[doc = include_str!("gridworld.md")]
///
/// ```
/// use rl_core::{Environment, EnumerableTransitions, Mode, Simulator};
/// use rl_domains::gridworld::{GridAction, GridCell, GridWorld, GridWorldParams};
///
/// let domain = GridWorld::builtin("4x5", GridWorldParams::default())?;
/// // The exact distribution of a step: 0.9 for the intended move, 0.1 spread over the
/// // possible moves.
/// let start = domain.map().start();
/// let outcomes = domain.transitions(&start, &i64::from(GridAction::Right), Mode::Training);
/// let total: f64 = outcomes.iter().map(|outcome| outcome.probability).sum();
/// assert!((total - 1.0).abs() < 1e-12);
///
/// let mut env = Simulator::new(domain, 11);
/// let first: GridCell = env.reset(Mode::Training)?;
/// assert_eq!(first, start);
/// let outcome = env.step(&i64::from(GridAction::Up))?;
/// assert!(outcome.reward() == -0.001 || outcome.terminated);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct GridWorld {
    map: GridMap,
    params: GridWorldParams,
    observation_space: GridCellSpace,
    action_space: Discrete,
}

impl GridWorld {
    /// The domain on `map` with `params`, after [`GridWorldParams::validate`].
    pub fn new(map: GridMap, params: GridWorldParams) -> Result<GridWorld, Error> {
        params.validate()?;
        let observation_space = GridCellSpace::new(map.rows(), map.cols())?;
        Ok(GridWorld {
            map,
            params,
            observation_space,
            action_space: Discrete::new(4)?,
        })
    }

    /// The domain on one of the 14 maps shipped with RLPy (see [`GridMap::builtin`]).
    pub fn builtin(name: &str, params: GridWorldParams) -> Result<GridWorld, Error> {
        GridWorld::new(GridMap::builtin(name)?, params)
    }

    /// The map.
    pub fn map(&self) -> &GridMap {
        &self.map
    }

    /// The parameters.
    pub fn params(&self) -> &GridWorldParams {
        &self.params
    }

    /// The noise of an episode in `mode`.
    pub fn noise(&self, mode: Mode) -> f64 {
        self.params.noise_in(mode)
    }

    /// RLPy's `possibleActions` of `cell`.
    pub fn possible_actions(&self, cell: GridCell) -> ActionSet {
        possible_actions(&self.map, cell)
    }

    /// RLPy's state index of `cell`, `row * cols + col`, or `None` outside the grid.
    pub fn state_index(&self, cell: GridCell) -> Option<usize> {
        self.map
            .contains(cell)
            .then(|| cell.row * self.map.cols() + cell.col)
    }

    /// The cell of RLPy's state index `index`, or `None` when `index >= rows * cols`.
    pub fn cell_of_index(&self, index: usize) -> Option<GridCell> {
        (index < self.map.cell_count())
            .then(|| GridCell::new(index / self.map.cols(), index % self.map.cols()))
    }

    /// RLPy's `expectedStep(s, a)` from `cell` at the noise of `mode`: one outcome per
    /// possible action with its probability, reward, next cell, terminal flag and the
    /// possible actions there. With [`ExpectedStepVariant::Rlpy`] (the default) this is
    /// RLPy's distribution, quirk included ([`expected_step`]); with
    /// [`ExpectedStepVariant::Corrected`] it sums to 1 ([`expected_step_corrected`]).
    pub fn expected_step(
        &self,
        cell: GridCell,
        action: GridAction,
        mode: Mode,
    ) -> OutcomeList<ExpectedOutcome> {
        let noise = self.noise(mode);
        match self.params.expected_step {
            ExpectedStepVariant::Rlpy => expected_step(&self.map, cell, action, noise),
            ExpectedStepVariant::Corrected => {
                expected_step_corrected(&self.map, cell, action, noise)
            }
        }
    }

    /// The exact distribution of a step from `cell` with `action` at the noise of `mode`,
    /// without allocation (the support, outcomes merged by next cell).
    pub fn step_distribution(
        &self,
        cell: GridCell,
        action: GridAction,
        mode: Mode,
    ) -> OutcomeList<Outcome> {
        step_distribution(&self.map, cell, action, self.noise(mode))
    }

    fn outcome(step: GridStep) -> TransitionOutcome<GridCell> {
        TransitionOutcome::new(
            step.next_cell,
            Value::from_reward(step.reward),
            step.terminal,
        )
    }
}

impl Domain for GridWorld {
    type State = GridCell;
    type Observation = GridCell;
    type Action = i64;
    type ObservationSpace = GridCellSpace;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &GridCellSpace {
        &self.observation_space
    }

    fn action_space(&self) -> &Discrete {
        &self.action_space
    }

    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, _rng: &mut R) -> GridCell {
        self.map.start()
    }

    /// RLPy's noisy step. An action outside `Discrete(4)` (which the simulator never
    /// passes) leaves the agent in place and draws nothing.
    #[inline]
    fn step<R: Rng + ?Sized>(
        &self,
        state: &GridCell,
        action: &i64,
        mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<GridCell> {
        let Some(intended) = GridAction::from_i64(*action) else {
            return GridWorld::outcome(stay(&self.map, *state));
        };
        let noise = self.noise(mode);
        let replace_draw = random(rng);
        let choice_draw = if replace_draw < noise {
            random(rng)
        } else {
            0.0
        };
        GridWorld::outcome(noisy_step(
            &self.map,
            *state,
            intended,
            noise,
            replace_draw,
            choice_draw,
        ))
    }

    #[inline]
    fn observe(&self, state: &GridCell) -> GridCell {
        *state
    }

    fn is_terminal(&self, state: &GridCell) -> bool {
        self.map.kind(*state).is_some_and(CellKind::is_terminal)
    }

    fn discount(&self) -> f64 {
        self.params.discount_factor
    }

    fn episode_cap(&self) -> Option<u64> {
        Some(self.params.episode_cap)
    }

    /// A cell of the map that is not blocked.
    fn check_state(&self, state: &GridCell) -> Result<(), String> {
        match self.map.kind(*state) {
            None => Err(format!(
                "row {}, column {} lies outside the {} by {} map",
                state.row,
                state.col,
                self.map.rows(),
                self.map.cols()
            )),
            Some(CellKind::Blocked) => Err(format!(
                "row {}, column {} is a blocked cell",
                state.row, state.col
            )),
            Some(_) => Ok(()),
        }
    }

    /// RLPy's `possibleActions`.
    fn is_applicable(&self, state: &GridCell, action: &i64) -> bool {
        GridAction::from_i64(*action)
            .is_some_and(|action| possible_actions(&self.map, *state).contains(action))
    }

    /// RLPy's `statespace_limits`: `[0, rows - 1]` and `[0, cols - 1]`.
    fn state_space_limits(&self) -> Option<Vec<[f64; 2]>> {
        Some(vec![
            [0.0, (self.map.rows() - 1) as f64],
            [0.0, (self.map.cols() - 1) as f64],
        ])
    }

    /// RLPy's `states_num`: `rows * cols`, blocked cells included.
    fn state_count(&self) -> Option<usize> {
        Some(self.map.cell_count())
    }
}

impl EnumerableTransitions for GridWorld {
    /// The exact distribution of [`Domain::step`]: the support of
    /// [`GridWorld::step_distribution`], summing to 1.
    fn transitions(&self, state: &GridCell, action: &i64, mode: Mode) -> Vec<Transition<GridCell>> {
        let Some(intended) = GridAction::from_i64(*action) else {
            let step = stay(&self.map, *state);
            return vec![Transition {
                probability: 1.0,
                next_state: step.next_cell,
                value: Value::from_reward(step.reward),
                terminated: step.terminal,
            }];
        };
        self.step_distribution(*state, intended, mode)
            .iter()
            .map(|outcome| Transition {
                probability: outcome.probability,
                next_state: outcome.next_cell,
                value: Value::from_reward(outcome.reward),
                terminated: outcome.terminal,
            })
            .collect()
    }
}
