//! GridWorld transitions: actions, possible actions, deterministic and noisy steps, and
//! RLPy's `expectedStep` with its corrected and exact counterparts.

use std::fmt;
use std::ops::Deref;

use super::map::{CellKind, GridCell, GridMap};

/// The reward for a step that does not end in a goal or a pit.
pub const STEP_REWARD: f64 = -0.001;
/// The reward for a step into a goal cell.
pub const GOAL_REWARD: f64 = 1.0;
/// The reward for a step into a pit cell.
pub const PIT_REWARD: f64 = -1.0;

/// A GridWorld action, with RLPy's indices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GridAction {
    /// Move one row up (index 0).
    Up,
    /// Move one row down (index 1).
    Down,
    /// Move one column left (index 2).
    Left,
    /// Move one column right (index 3).
    Right,
}

impl GridAction {
    /// Every action, in index order.
    pub const ALL: [GridAction; 4] = [
        GridAction::Up,
        GridAction::Down,
        GridAction::Left,
        GridAction::Right,
    ];

    /// RLPy's index of this action (0 up, 1 down, 2 left, 3 right).
    pub fn index(self) -> usize {
        match self {
            GridAction::Up => 0,
            GridAction::Down => 1,
            GridAction::Left => 2,
            GridAction::Right => 3,
        }
    }

    /// The action with RLPy index `index`, or `None` when `index > 3`.
    pub fn from_index(index: usize) -> Option<GridAction> {
        GridAction::ALL.get(index).copied()
    }

    /// The action of a [`GridWorld`](super::GridWorld) action value (an `i64` of
    /// `Discrete(4)`), or `None` outside 0..=3.
    pub fn from_i64(value: i64) -> Option<GridAction> {
        usize::try_from(value).ok().and_then(GridAction::from_index)
    }

    /// An arrow pointing the way the action moves: `^`, `v`, `<` or `>`.
    pub fn arrow(self) -> char {
        match self {
            GridAction::Up => '^',
            GridAction::Down => 'v',
            GridAction::Left => '<',
            GridAction::Right => '>',
        }
    }

    /// The lower-case name of the action: `up`, `down`, `left` or `right`.
    pub fn name(self) -> &'static str {
        match self {
            GridAction::Up => "up",
            GridAction::Down => "down",
            GridAction::Left => "left",
            GridAction::Right => "right",
        }
    }

    /// The cell this action leads to from `cell`, or `None` when that would leave the
    /// grid through its top or left side (the bottom and right sides are checked
    /// against the map by the caller).
    fn shift(self, cell: GridCell) -> Option<GridCell> {
        let GridCell { row, col } = cell;
        match self {
            GridAction::Up => row.checked_sub(1).map(|row| GridCell { row, col }),
            GridAction::Down => row.checked_add(1).map(|row| GridCell { row, col }),
            GridAction::Left => col.checked_sub(1).map(|col| GridCell { row, col }),
            GridAction::Right => col.checked_add(1).map(|col| GridCell { row, col }),
        }
    }
}

impl From<GridAction> for i64 {
    /// RLPy's index, the action value of a [`GridWorld`](super::GridWorld).
    fn from(action: GridAction) -> i64 {
        match action {
            GridAction::Up => 0,
            GridAction::Down => 1,
            GridAction::Left => 2,
            GridAction::Right => 3,
        }
    }
}

/// A set of GridWorld actions, stored as a 4-bit mask; iteration is in ascending index order.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ActionSet {
    bits: u8,
}

impl ActionSet {
    /// The empty set.
    pub const EMPTY: ActionSet = ActionSet { bits: 0 };
    /// The set of all four actions.
    pub const ALL: ActionSet = ActionSet { bits: 0b1111 };

    /// The set whose bit `i` (for `i` in 0..4) says whether action `i` is in it; higher bits are ignored.
    pub fn from_bits(bits: u8) -> ActionSet {
        ActionSet {
            bits: bits & 0b1111,
        }
    }

    /// The set as a mask: bit `i` is set when action `i` is in it.
    pub fn bits(self) -> u8 {
        self.bits
    }

    /// Whether `action` is in the set.
    pub fn contains(self, action: GridAction) -> bool {
        self.bits & (1 << action.index()) != 0
    }

    /// Adds `action` to the set.
    pub fn insert(&mut self, action: GridAction) {
        self.bits |= 1 << action.index();
    }

    /// The number of actions in the set.
    pub fn len(self) -> usize {
        self.bits.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.bits == 0
    }

    /// The `index`-th action of the set in ascending order, or `None` when `index >= len()`.
    pub fn nth(self, index: usize) -> Option<GridAction> {
        self.iter().nth(index)
    }

    /// The actions of the set in ascending index order.
    pub fn iter(self) -> ActionSetIter {
        ActionSetIter {
            remaining: self.bits,
        }
    }
}

impl fmt::Debug for ActionSet {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<GridAction> for ActionSet {
    fn from_iter<I: IntoIterator<Item = GridAction>>(actions: I) -> ActionSet {
        let mut set = ActionSet::EMPTY;
        for action in actions {
            set.insert(action);
        }
        set
    }
}

impl IntoIterator for ActionSet {
    type Item = GridAction;
    type IntoIter = ActionSetIter;

    fn into_iter(self) -> ActionSetIter {
        self.iter()
    }
}

/// The iterator over an [`ActionSet`], in ascending index order.
#[derive(Debug, Clone)]
pub struct ActionSetIter {
    remaining: u8,
}

impl Iterator for ActionSetIter {
    type Item = GridAction;

    fn next(&mut self) -> Option<GridAction> {
        if self.remaining == 0 {
            return None;
        }
        let index = self.remaining.trailing_zeros() as usize;
        self.remaining &= self.remaining - 1;
        GridAction::from_index(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let count = self.remaining.count_ones() as usize;
        (count, Some(count))
    }
}

impl ExactSizeIterator for ActionSetIter {}

/// The destination of `action` from `cell` when the move is possible: inside the grid
/// and not into a blocked cell.
fn open_destination(map: &GridMap, cell: GridCell, action: GridAction) -> Option<GridCell> {
    action.shift(cell).filter(
        |destination| matches!(map.kind(*destination), Some(kind) if kind != CellKind::Blocked),
    )
}

/// RLPy's `possibleActions(s)`: the actions whose destination from `cell` is inside the
/// grid and not blocked (moves into goals and pits are possible).
pub fn possible_actions(map: &GridMap, cell: GridCell) -> ActionSet {
    GridAction::ALL
        .into_iter()
        .filter(|action| open_destination(map, cell, *action).is_some())
        .collect()
}

/// The result of one GridWorld step.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridStep {
    /// The cell after the step (the same cell when the move was impossible).
    pub next_cell: GridCell,
    /// The reward: [`GOAL_REWARD`] or [`PIT_REWARD`] when `next_cell` is a goal or pit, else [`STEP_REWARD`].
    pub reward: f64,
    /// Whether `next_cell` is a goal or a pit.
    pub terminal: bool,
}

impl GridStep {
    /// The step that ends in `next_cell`, with its reward and terminal flag.
    fn arriving_at(map: &GridMap, next_cell: GridCell) -> GridStep {
        let kind = map.kind(next_cell);
        let reward = match kind {
            Some(CellKind::Goal) => GOAL_REWARD,
            Some(CellKind::Pit) => PIT_REWARD,
            _ => STEP_REWARD,
        };
        GridStep {
            next_cell,
            reward,
            terminal: kind.is_some_and(CellKind::is_terminal),
        }
    }
}

/// The step that stays in `cell`, with the reward and terminal flag of arriving there.
pub(crate) fn stay(map: &GridMap, cell: GridCell) -> GridStep {
    GridStep::arriving_at(map, cell)
}

/// Moves from `cell` with `action`, as RLPy's `step` once noise has been decided: a move
/// off the grid or into a blocked cell stays in place; the reward and terminal flag come
/// from the cell the agent ends in. `action` need not be possible.
///
/// ```
/// use rl_domains::gridworld::{step_with_action, GridAction, GridCell, GridMap, GOAL_REWARD};
///
/// let map = GridMap::builtin("2x3")?; // 0 0 0 / 2 1 3
/// let blocked = step_with_action(&map, map.start(), GridAction::Right);
/// assert_eq!(blocked.next_cell, map.start());
/// let goal = step_with_action(&map, GridCell::new(0, 2), GridAction::Down);
/// assert_eq!((goal.reward, goal.terminal), (GOAL_REWARD, true));
/// # Ok::<(), rl_domains::Error>(())
/// ```
pub fn step_with_action(map: &GridMap, cell: GridCell, action: GridAction) -> GridStep {
    let next_cell = open_destination(map, cell, action).unwrap_or(cell);
    GridStep::arriving_at(map, next_cell)
}

/// The action RLPy's `step` carries out, given its two random decisions.
///
/// RLPy draws `u = random_sample()`; when `u < noise` it replaces the intended action by
/// `choice(possibleActions(s))`, a uniform choice among the possible actions of the
/// **current** cell. Here `replace_draw` is `u`, and `choice_draw`, uniform in `[0, 1)`,
/// picks the replacement: index `floor(choice_draw * k)` (clamped to `k - 1`) among the
/// `k` possible actions in ascending order. When no action is possible RLPy would fail;
/// this function keeps the intended action, which then stays in place.
pub fn noisy_action(
    possible: ActionSet,
    intended: GridAction,
    noise: f64,
    replace_draw: f64,
    choice_draw: f64,
) -> GridAction {
    if replace_draw < noise && !possible.is_empty() {
        let count = possible.len();
        // The float-to-integer cast saturates, so NaN and negative draws pick index 0.
        let index = ((choice_draw * count as f64) as usize).min(count - 1);
        possible.nth(index).unwrap_or(intended)
    } else {
        intended
    }
}

/// RLPy's noisy `step(a)` from `cell`, given its two random decisions (see [`noisy_action`]).
pub fn noisy_step(
    map: &GridMap,
    cell: GridCell,
    intended: GridAction,
    noise: f64,
    replace_draw: f64,
    choice_draw: f64,
) -> GridStep {
    let possible = possible_actions(map, cell);
    let action = noisy_action(possible, intended, noise, replace_draw, choice_draw);
    step_with_action(map, cell, action)
}

/// A short list of outcomes stored inline, without allocation (at most 5: one per action
/// and one for staying in place).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OutcomeList<T> {
    items: [T; OUTCOME_CAPACITY],
    len: usize,
}

/// The most outcomes a GridWorld transition can have.
const OUTCOME_CAPACITY: usize = 5;

impl<T: Copy> OutcomeList<T> {
    /// An empty list whose unused slots hold `filler`.
    fn with_filler(filler: T) -> Self {
        OutcomeList {
            items: [filler; OUTCOME_CAPACITY],
            len: 0,
        }
    }

    /// Appends `item`; the capacity covers every GridWorld transition, so nothing is dropped.
    fn push(&mut self, item: T) {
        if let Some(slot) = self.items.get_mut(self.len) {
            *slot = item;
            self.len += 1;
        }
    }
}

impl<T> OutcomeList<T> {
    /// The outcomes as a slice.
    pub fn as_slice(&self) -> &[T] {
        self.items.get(..self.len).unwrap_or(&[])
    }
}

impl<T> Deref for OutcomeList<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<'list, T> IntoIterator for &'list OutcomeList<T> {
    type Item = &'list T;
    type IntoIter = std::slice::Iter<'list, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

/// One outcome of [`expected_step`]: RLPy's `p`, `r`, `ns`, `t` and `pa` rows, plus the
/// action that leads to it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ExpectedOutcome {
    /// The probability RLPy assigns to the outcome.
    pub probability: f64,
    /// The cell after the step.
    pub next_cell: GridCell,
    /// The reward of the step.
    pub reward: f64,
    /// Whether `next_cell` is a goal or a pit.
    pub terminal: bool,
    /// The possible actions of `next_cell`.
    pub possible_actions_next: ActionSet,
    /// The action carried out (for the stay-in-place outcome of
    /// [`expected_step_corrected`], the intended, impossible action).
    pub via_action: GridAction,
}

/// One outcome of [`step_distribution`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Outcome {
    /// The probability of the outcome.
    pub probability: f64,
    /// The cell after the step.
    pub next_cell: GridCell,
    /// The reward of the step.
    pub reward: f64,
    /// Whether `next_cell` is a goal or a pit.
    pub terminal: bool,
}

const EXPECTED_FILLER: ExpectedOutcome = ExpectedOutcome {
    probability: 0.0,
    next_cell: GridCell { row: 0, col: 0 },
    reward: 0.0,
    terminal: false,
    possible_actions_next: ActionSet::EMPTY,
    via_action: GridAction::Up,
};

const OUTCOME_FILLER: Outcome = Outcome {
    probability: 0.0,
    next_cell: GridCell { row: 0, col: 0 },
    reward: 0.0,
    terminal: false,
};

/// Exactly RLPy 1.3.6's `GridWorld.expectedStep(s, a)`, quirk included.
///
/// One outcome per possible action of `cell`, in ascending action order, each with
/// probability `noise / k` (`k` possible actions), to which `1 - noise` is added for the
/// intended action. When the intended action is not possible, RLPy adds the `1 - noise`
/// nowhere, so the probabilities sum to `noise` instead of 1 (the mass of staying in
/// place is missing). [`expected_step_corrected`] fixes that. Outcomes with probability 0
/// are kept, as in RLPy.
pub fn expected_step(
    map: &GridMap,
    cell: GridCell,
    intended: GridAction,
    noise: f64,
) -> OutcomeList<ExpectedOutcome> {
    let possible = possible_actions(map, cell);
    let count = possible.len() as f64;
    let mut outcomes = OutcomeList::with_filler(EXPECTED_FILLER);
    for action in possible {
        let step = step_with_action(map, cell, action);
        let mut probability = noise / count;
        if action == intended {
            probability += 1.0 - noise;
        }
        outcomes.push(ExpectedOutcome {
            probability,
            next_cell: step.next_cell,
            reward: step.reward,
            terminal: step.terminal,
            possible_actions_next: possible_actions(map, step.next_cell),
            via_action: action,
        });
    }
    outcomes
}

/// [`expected_step`] made a probability distribution.
///
/// When the intended action is possible this equals [`expected_step`]. When it is not, a
/// last outcome for staying in place, with probability `1 - noise` and `via_action` the
/// intended action, is appended. When no action at all is possible, the only outcome is
/// staying in place with probability 1.
pub fn expected_step_corrected(
    map: &GridMap,
    cell: GridCell,
    intended: GridAction,
    noise: f64,
) -> OutcomeList<ExpectedOutcome> {
    let possible = possible_actions(map, cell);
    let mut outcomes = if possible.is_empty() {
        OutcomeList::with_filler(EXPECTED_FILLER)
    } else {
        expected_step(map, cell, intended, noise)
    };
    if !possible.contains(intended) {
        let stay = step_with_action(map, cell, intended);
        outcomes.push(ExpectedOutcome {
            probability: if possible.is_empty() {
                1.0
            } else {
                1.0 - noise
            },
            next_cell: stay.next_cell,
            reward: stay.reward,
            terminal: stay.terminal,
            possible_actions_next: possible,
            via_action: intended,
        });
    }
    outcomes
}

/// The exact distribution of RLPy's noisy `step(a)` from `cell`, outcomes merged by next
/// cell: the noisy moves in ascending action order (the intended action's `1 - noise`
/// added to its own move), then staying in place when the intended action is not
/// possible. Outcomes with probability 0 are left out, so the list is the support and
/// sums to 1 (up to rounding) for any `noise` in `[0, 1]`.
pub fn step_distribution(
    map: &GridMap,
    cell: GridCell,
    intended: GridAction,
    noise: f64,
) -> OutcomeList<Outcome> {
    let mut outcomes = OutcomeList::with_filler(OUTCOME_FILLER);
    for outcome in &expected_step_corrected(map, cell, intended, noise) {
        if outcome.probability > 0.0 {
            outcomes.push(Outcome {
                probability: outcome.probability,
                next_cell: outcome.next_cell,
                reward: outcome.reward,
                terminal: outcome.terminal,
            });
        }
    }
    outcomes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map_2x3() -> GridMap {
        // 0 0 0
        // 2 1 3
        GridMap::parse("0 0 0\n2 1 3\n").expect("valid map")
    }

    #[test]
    fn action_indices_round_trip() {
        for action in GridAction::ALL {
            assert_eq!(GridAction::from_index(action.index()), Some(action));
        }
        assert_eq!(GridAction::from_index(4), None);
    }

    #[test]
    fn action_set_iterates_in_order() {
        let set: ActionSet = [GridAction::Right, GridAction::Up].into_iter().collect();
        assert_eq!(set.len(), 2);
        assert_eq!(
            set.iter().collect::<Vec<_>>(),
            vec![GridAction::Up, GridAction::Right]
        );
        assert_eq!(set.nth(1), Some(GridAction::Right));
        assert_eq!(set.nth(2), None);
        assert_eq!(format!("{set:?}"), "{Up, Right}");
        assert_eq!(ActionSet::from_bits(0xff), ActionSet::ALL);
    }

    #[test]
    fn possible_actions_respect_walls_and_edges() {
        let map = map_2x3();
        let up_only: ActionSet = [GridAction::Up].into_iter().collect();
        assert_eq!(possible_actions(&map, GridCell::new(1, 0)), up_only);
        let corner: ActionSet = [GridAction::Down, GridAction::Right].into_iter().collect();
        assert_eq!(possible_actions(&map, GridCell::new(0, 0)), corner);
        // The move from [0, 2] down into the goal is possible.
        assert!(possible_actions(&map, GridCell::new(0, 2)).contains(GridAction::Down));
    }

    #[test]
    fn steps_stay_in_place_when_blocked() {
        let map = map_2x3();
        let step = step_with_action(&map, GridCell::new(1, 0), GridAction::Left);
        assert_eq!(step.next_cell, GridCell::new(1, 0));
        assert_eq!(step.reward, STEP_REWARD);
        assert!(!step.terminal);
        let step = step_with_action(&map, GridCell::new(0, 2), GridAction::Down);
        assert_eq!(step.next_cell, GridCell::new(1, 2));
        assert_eq!(step.reward, GOAL_REWARD);
        assert!(step.terminal);
    }

    #[test]
    fn noisy_action_follows_the_draws() {
        let possible: ActionSet = [GridAction::Down, GridAction::Right].into_iter().collect();
        let intended = GridAction::Up;
        assert_eq!(noisy_action(possible, intended, 0.1, 0.5, 0.9), intended);
        assert_eq!(
            noisy_action(possible, intended, 0.1, 0.05, 0.2),
            GridAction::Down
        );
        assert_eq!(
            noisy_action(possible, intended, 0.1, 0.05, 0.7),
            GridAction::Right
        );
        assert_eq!(
            noisy_action(possible, intended, 0.1, 0.05, 1.0),
            GridAction::Right
        );
        assert_eq!(
            noisy_action(possible, intended, 0.1, 0.05, f64::NAN),
            GridAction::Down
        );
        assert_eq!(
            noisy_action(ActionSet::EMPTY, intended, 1.0, 0.0, 0.0),
            intended
        );
        // With noise 0 the action is never replaced.
        assert_eq!(noisy_action(possible, intended, 0.0, 0.0, 0.0), intended);
    }

    #[test]
    fn expected_step_has_rlpy_quirk() {
        let map = map_2x3();
        let quirky = expected_step(&map, GridCell::new(0, 0), GridAction::Up, 0.1);
        assert_eq!(quirky.len(), 2);
        let sum: f64 = quirky.iter().map(|outcome| outcome.probability).sum();
        assert!((sum - 0.1).abs() < 1e-12);

        let corrected = expected_step_corrected(&map, GridCell::new(0, 0), GridAction::Up, 0.1);
        assert_eq!(corrected.len(), 3);
        let stay = corrected[2];
        assert_eq!(stay.next_cell, GridCell::new(0, 0));
        assert_eq!(stay.via_action, GridAction::Up);
        let sum: f64 = corrected.iter().map(|outcome| outcome.probability).sum();
        assert!((sum - 1.0).abs() < 1e-12);

        let possible = expected_step(&map, GridCell::new(0, 0), GridAction::Down, 0.1);
        assert_eq!(possible[0].probability, 0.1 / 2.0 + (1.0 - 0.1));
        assert_eq!(possible[0].next_cell, GridCell::new(1, 0));
        assert_eq!(possible[1].probability, 0.05);
    }

    #[test]
    fn step_distribution_merges_and_drops_zero_mass() {
        let map = map_2x3();
        let deterministic = step_distribution(&map, GridCell::new(0, 0), GridAction::Up, 0.0);
        assert_eq!(deterministic.len(), 1);
        assert_eq!(deterministic[0].next_cell, GridCell::new(0, 0));
        assert_eq!(deterministic[0].probability, 1.0);

        let noisy = step_distribution(&map, GridCell::new(0, 0), GridAction::Right, 0.3);
        assert_eq!(noisy.len(), 2);
        assert_eq!(noisy[1].next_cell, GridCell::new(0, 1));
        assert!((noisy[1].probability - 0.85).abs() < 1e-12);
    }

    #[test]
    fn isolated_cell_stays_with_certainty() {
        let map = GridMap::parse("1 1 1\n1 2 1\n1 1 1").expect("valid map");
        let cell = map.start();
        assert!(possible_actions(&map, cell).is_empty());
        assert!(expected_step(&map, cell, GridAction::Up, 0.1).is_empty());
        let corrected = expected_step_corrected(&map, cell, GridAction::Up, 0.1);
        assert_eq!(corrected.len(), 1);
        assert_eq!(corrected[0].probability, 1.0);
        let distribution = step_distribution(&map, cell, GridAction::Up, 0.1);
        assert_eq!(distribution.len(), 1);
        assert_eq!(
            noisy_step(&map, cell, GridAction::Up, 0.1, 0.0, 0.0).next_cell,
            cell
        );
    }
}
