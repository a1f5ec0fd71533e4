//! Blackjack: Gymnasium 1.4.0's `Blackjack-v1` (with its `natural` and `sab` rules), as the
//! domain [`Blackjack`], its hands ([`BlackjackHand`]), its state ([`BlackjackState`]) and
//! its tuple observation ([`BlackjackObservation`] in [`BlackjackObservationSpace`]).
//!
//! [`Blackjack`] is documented in the crate's domain template. This page adds how the draws
//! reproduce Gymnasium.
//!
//! # Exactness
//!
//! Gymnasium draws a card as `np_random.choice(deck)` over its 13-card list
//! `[1, 2, ..., 9, 10, 10, 10, 10]` ([`DECK`]): one `integers(0, 13)` indexing the list. A
//! reset draws the dealer's two cards, then the player's two, then the suit of the dealer's
//! face-up card (`choice(["C", "D", "H", "S"])`, one `integers(0, 4)`) and, only when that
//! card is worth 10, its face (`choice(["J", "Q", "K"])`, one `integers(0, 3)`): the suit and
//! face are only drawn on screen, but they are draws of the stream, so they are drawn here
//! too and kept in the state. A hit draws one card; a stick draws the dealer's cards while
//! the dealer's sum is below 17. Hands, sums, usable aces, naturals and rewards follow
//! Gymnasium's functions (`sum_hand`, `usable_ace`, `is_bust`, `score`, `is_natural`, `cmp`)
//! exactly. The seeded traces of `testdata/reference/seeded_toy_text.json` replay bit for bit.
//!
//! # Reference
//!
//! Gymnasium 1.4.0, `gymnasium/envs/toy_text/blackjack.py`; `Blackjack-v1` is registered
//! in `gymnasium/envs/__init__.py` with `sab=True, natural=False` and no time limit.

use std::fmt;

use rand::Rng;
use rl_core::numpy_random::choice;
use rl_core::{Domain, Mode, Render, TransitionOutcome, Value};
use rl_spaces::{
    AnyElement, AnySpace, Discrete, DynamicSpace, FiniteSpace, FlatScalar, FlattenSpace, JsonSpace,
    SampleSpace, Space, SpaceError, TupleSpace,
};
use serde::{Deserialize, Serialize};
use serde_json::Value as JsonValue;

use crate::error::Error;
use crate::svg::{Svg, number};

/// Gymnasium's action 0: stick (stop drawing; the dealer plays and the game is scored).
pub const STICK: i64 = 0;
/// Gymnasium's action 1: hit (draw a card).
pub const HIT: i64 = 1;

/// Gymnasium's `deck`: an ace (1), the number cards 2 to 10 and the three faces worth 10.
/// Cards are drawn with replacement, uniformly over these 13 entries.
pub const DECK: [u8; 13] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10];

/// The most cards a hand can hold: a hand takes cards only while its sum is at most 21, so
/// at most 21 cards (all aces) and the one that busts it.
pub const MAX_HAND_CARDS: usize = 22;

/// The sizes of the three parts of the observation: Gymnasium's
/// `Tuple(Discrete(32), Discrete(11), Discrete(2))`.
pub const BLACKJACK_OBSERVATION_SIZES: [u64; 3] = [32, 11, 2];

/// Draws a card as Gymnasium's `draw_card`: `DECK[integers(0, 13)]`.
fn draw_card<R: Rng + ?Sized>(rng: &mut R) -> u8 {
    DECK[choice(rng, DECK.len()).unwrap_or(0)]
}

/// Gymnasium's `cmp(a, b)`: `float(a > b) - float(a < b)`.
fn compare(a: i64, b: i64) -> f64 {
    f64::from(u8::from(a > b)) - f64::from(u8::from(a < b))
}

/// The parameters of Blackjack; [`Default`] gives Gymnasium 1.4.0's `Blackjack-v1`
/// (`sab = true`, `natural = false`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct BlackjackParams {
    /// Whether a win with a natural (an ace and a ten-card as the first two cards) pays 1.5
    /// instead of 1; ignored when `sab` is true (false).
    pub natural: bool,
    /// Sutton and Barto's rules: a natural wins (+1) unless the dealer also has one (a draw),
    /// and `natural` is ignored (true, as `Blackjack-v1` registers it).
    pub sab: bool,
}

impl Default for BlackjackParams {
    fn default() -> Self {
        BlackjackParams {
            natural: false,
            sab: true,
        }
    }
}

impl BlackjackParams {
    /// Every combination is valid: with both flags set, `sab` wins and `natural` is ignored,
    /// as in Gymnasium. Kept so that every domain's parameters validate alike.
    pub fn validate(&self) -> Result<(), Error> {
        Ok(())
    }
}

/// A hand of cards, in the order drawn, each worth 1 (an ace) to 10.
///
/// It holds at most [`MAX_HAND_CARDS`] cards in a fixed array (no allocation) and is every
/// hand Gymnasium can deal: every card was added while the hand's sum was at most 21. It
/// reads and writes as JSON as the list of its cards, `[1, 10]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Vec<u8>", into = "Vec<u8>")]
pub struct BlackjackHand {
    /// The cards, then zeros.
    cards: [u8; MAX_HAND_CARDS],
    len: u8,
}

impl BlackjackHand {
    /// The hand of `cards`, in the order drawn. Fails unless there are 1 to
    /// [`MAX_HAND_CARDS`] cards, each worth 1 to 10, and the hand without its last card has
    /// a sum of at most 21 (a hand Gymnasium can deal).
    pub fn new(cards: &[u8]) -> Result<BlackjackHand, Error> {
        let invalid = |reason: String| Error::InvalidParameter {
            parameter: "hand",
            reason,
        };
        let Some((_, dealt_before)) = cards.split_last() else {
            return Err(invalid("a hand holds at least one card".to_owned()));
        };
        if cards.len() > MAX_HAND_CARDS {
            return Err(invalid(format!(
                "a hand holds at most {MAX_HAND_CARDS} cards, got {}",
                cards.len()
            )));
        }
        if let Some(card) = cards.iter().find(|card| !(1..=10).contains(*card)) {
            return Err(invalid(format!("a card is worth 1 to 10, got {card}")));
        }
        let mut hand = BlackjackHand {
            cards: [0; MAX_HAND_CARDS],
            len: 0,
        };
        for &card in dealt_before {
            hand.cards[usize::from(hand.len)] = card;
            hand.len += 1;
        }
        if hand.len > 0 && hand.is_bust() {
            return Err(invalid(format!(
                "{cards:?} was dealt after the hand was bust (its sum without the last card \
                 is {})",
                hand.value()
            )));
        }
        hand.cards[usize::from(hand.len)] = cards[cards.len() - 1];
        hand.len += 1;
        Ok(hand)
    }

    /// The hand of two cards, as dealt at a reset.
    fn pair(first: u8, second: u8) -> BlackjackHand {
        let mut cards = [0; MAX_HAND_CARDS];
        cards[0] = first;
        cards[1] = second;
        BlackjackHand { cards, len: 2 }
    }

    /// The cards, in the order drawn.
    #[inline]
    pub fn cards(&self) -> &[u8] {
        &self.cards[..usize::from(self.len)]
    }

    /// The first card (the dealer's face-up card), 0 for an empty hand (never built).
    #[inline]
    pub fn first(&self) -> u8 {
        self.cards[0]
    }

    /// Gymnasium's `sum(hand)`: every ace counted as 1.
    #[inline]
    pub fn raw_sum(&self) -> i64 {
        self.cards().iter().map(|&card| i64::from(card)).sum()
    }

    /// Gymnasium's `usable_ace(hand)`: the hand holds an ace and counting one as 11 does
    /// not exceed 21.
    #[inline]
    pub fn usable_ace(&self) -> bool {
        self.cards().contains(&1) && self.raw_sum() + 10 <= 21
    }

    /// Gymnasium's `sum_hand(hand)`: the sum with a usable ace counted as 11.
    #[inline]
    pub fn value(&self) -> i64 {
        self.raw_sum() + if self.usable_ace() { 10 } else { 0 }
    }

    /// Gymnasium's `is_bust(hand)`: the sum exceeds 21.
    #[inline]
    pub fn is_bust(&self) -> bool {
        self.value() > 21
    }

    /// Gymnasium's `score(hand)`: the sum, or 0 when bust.
    #[inline]
    pub fn score(&self) -> i64 {
        if self.is_bust() { 0 } else { self.value() }
    }

    /// Gymnasium's `is_natural(hand)`: exactly an ace and a ten-card.
    #[inline]
    pub fn is_natural(&self) -> bool {
        matches!(self.cards(), [1, 10] | [10, 1])
    }

    /// Adds `card` and returns true, unless the hand is bust or full (it then takes no more
    /// cards and this returns false). Neither happens to the player's hand of a state that
    /// is not terminal, nor to the dealer's while its sum is below 17.
    fn push(&mut self, card: u8) -> bool {
        if usize::from(self.len) >= MAX_HAND_CARDS || self.is_bust() {
            return false;
        }
        self.cards[usize::from(self.len)] = card;
        self.len += 1;
        true
    }
}

impl fmt::Debug for BlackjackHand {
    /// `BlackjackHand([1, 10])`.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter
            .debug_tuple("BlackjackHand")
            .field(&self.cards())
            .finish()
    }
}

impl TryFrom<Vec<u8>> for BlackjackHand {
    type Error = Error;

    fn try_from(cards: Vec<u8>) -> Result<BlackjackHand, Error> {
        BlackjackHand::new(&cards)
    }
}

impl From<BlackjackHand> for Vec<u8> {
    fn from(hand: BlackjackHand) -> Vec<u8> {
        hand.cards().to_vec()
    }
}

/// The suit of the dealer's face-up card (Gymnasium's `dealer_top_card_suit`), drawn at
/// reset for the picture only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum CardSuit {
    /// Clubs, `"C"`.
    #[serde(rename = "C")]
    Clubs,
    /// Diamonds, `"D"`.
    #[serde(rename = "D")]
    Diamonds,
    /// Hearts, `"H"`.
    #[serde(rename = "H")]
    Hearts,
    /// Spades, `"S"`.
    #[serde(rename = "S")]
    Spades,
}

impl CardSuit {
    /// The suits in Gymnasium's order `["C", "D", "H", "S"]`, which the draw indexes.
    pub const ALL: [CardSuit; 4] = [
        CardSuit::Clubs,
        CardSuit::Diamonds,
        CardSuit::Hearts,
        CardSuit::Spades,
    ];

    /// Gymnasium's letter of the suit.
    pub fn letter(self) -> char {
        match self {
            CardSuit::Clubs => 'C',
            CardSuit::Diamonds => 'D',
            CardSuit::Hearts => 'H',
            CardSuit::Spades => 'S',
        }
    }
}

/// The face of the dealer's face-up card when it is worth 10 (Gymnasium's
/// `dealer_top_card_value_str` `"J"`, `"Q"` or `"K"`), drawn at reset for the picture only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FaceCard {
    /// A jack, `"J"`.
    #[serde(rename = "J")]
    Jack,
    /// A queen, `"Q"`.
    #[serde(rename = "Q")]
    Queen,
    /// A king, `"K"`.
    #[serde(rename = "K")]
    King,
}

impl FaceCard {
    /// The faces in Gymnasium's order `["J", "Q", "K"]`, which the draw indexes.
    pub const ALL: [FaceCard; 3] = [FaceCard::Jack, FaceCard::Queen, FaceCard::King];

    /// Gymnasium's letter of the face.
    pub fn letter(self) -> char {
        match self {
            FaceCard::Jack => 'J',
            FaceCard::Queen => 'Q',
            FaceCard::King => 'K',
        }
    }
}

/// The state of Blackjack: Gymnasium's `player` and `dealer` hands and the dealer's face-up
/// card as drawn on screen, and whether the player has stuck (which ends the game).
///
/// It reads and writes as JSON as
/// `{"player": [10, 7], "dealer": [9, 4], "dealer_top_card_suit": "H",
/// "dealer_top_card_face": null, "stuck": false}` (`dealer_top_card_face` and `stuck` may be
/// left out).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlackjackState {
    /// The player's cards.
    pub player: BlackjackHand,
    /// The dealer's cards: the face-up card first, then the face-down one, then those drawn
    /// after the player stuck.
    pub dealer: BlackjackHand,
    /// The suit of the dealer's face-up card.
    pub dealer_top_card_suit: CardSuit,
    /// The face of the dealer's face-up card when it is worth 10, else `None`.
    #[serde(default)]
    pub dealer_top_card_face: Option<FaceCard>,
    /// Whether the player has stuck: the dealer has played and the game is over.
    #[serde(default)]
    pub stuck: bool,
}

impl BlackjackState {
    /// The observation of this state (Gymnasium's `_get_obs`).
    #[inline]
    pub fn to_observation(&self) -> BlackjackObservation {
        BlackjackObservation {
            player_sum: self.player.value(),
            dealer_card: i64::from(self.dealer.first()),
            usable_ace: i64::from(self.player.usable_ace()),
        }
    }

    /// The name of the dealer's face-up card as Gymnasium draws it: its value (`A` for an
    /// ace, `J`, `Q` or `K` for a face, `10` without one) then its suit, `KS` or `7H`.
    pub fn dealer_card_name(&self) -> String {
        let suit = self.dealer_top_card_suit.letter();
        match (self.dealer.first(), self.dealer_top_card_face) {
            (1, _) => format!("A{suit}"),
            (10, Some(face)) => format!("{}{suit}", face.letter()),
            (value, _) => format!("{value}{suit}"),
        }
    }
}

/// What the agent observes in Blackjack: Gymnasium's tuple
/// `(player_sum, dealer_card, usable_ace)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct BlackjackObservation {
    /// The player's sum, a usable ace counted as 11 (4 to 21 at a reset, up to 31 once bust).
    pub player_sum: i64,
    /// The value of the dealer's face-up card, 1 (an ace) to 10.
    pub dealer_card: i64,
    /// 1 when the player holds a usable ace, else 0.
    pub usable_ace: i64,
}

impl BlackjackObservation {
    /// The three parts in Gymnasium's order.
    pub fn to_array(&self) -> [i64; 3] {
        [self.player_sum, self.dealer_card, self.usable_ace]
    }

    /// The observation of three integers in Gymnasium's order (not checked against the
    /// space).
    pub fn from_array([player_sum, dealer_card, usable_ace]: [i64; 3]) -> BlackjackObservation {
        BlackjackObservation {
            player_sum,
            dealer_card,
            usable_ace,
        }
    }

    /// The observation of a tuple element of three integers, or `None`.
    fn from_elements(elements: &[AnyElement]) -> Option<BlackjackObservation> {
        match elements {
            [player_sum, dealer_card, usable_ace] => Some(BlackjackObservation {
                player_sum: player_sum.as_int()?,
                dealer_card: dealer_card.as_int()?,
                usable_ace: usable_ace.as_int()?,
            }),
            _ => None,
        }
    }

    /// The tuple element of the observation: three `AnyElement::Int`.
    fn to_elements(self) -> Vec<AnyElement> {
        self.to_array().into_iter().map(AnyElement::Int).collect()
    }
}

/// Gymnasium's Blackjack observation space, `Tuple(Discrete(32), Discrete(11), Discrete(2))`,
/// with plain [`BlackjackObservation`] elements that never allocate.
///
/// Behind [`DynamicSpace`] it is that [`TupleSpace`] ([`AnySpace::Tuple`]), elements
/// `AnyElement::Tuple` of three `AnyElement::Int`; every capability agrees with it:
///
/// | capability | behaviour |
/// |---|---|
/// | [`FiniteSpace`] | 704 elements, `(player_sum, dealer_card, usable_ace)` numbered `(player_sum * 11 + dealer_card) * 2 + usable_ace` (the last part varying fastest) |
/// | [`SampleSpace`] | the three parts drawn in order, as the tuple draws them |
/// | [`FlattenSpace`] | one-hot blocks of 32, 11 and 2 (45 numbers) |
/// | [`JsonSpace`] | `[player_sum, dealer_card, usable_ace]`; batches column-wise, as Gymnasium's `to_jsonable` |
///
/// ```
/// use rl_domains::toy_text::blackjack::{BlackjackObservation, BlackjackObservationSpace};
/// use rl_spaces::{DynamicSpace, FiniteSpace, Space};
///
/// let space = BlackjackObservationSpace::new()?;
/// let observation = BlackjackObservation { player_sum: 20, dealer_card: 10, usable_ace: 0 };
/// assert!(space.contains(&observation));
/// assert_eq!(space.to_string(), "Tuple(Discrete(32), Discrete(11), Discrete(2))");
/// let any = space.to_any_space();
/// assert_eq!(any.index_of(&space.element_to_any(&observation)), space.index_of(&observation));
/// # Ok::<(), rl_spaces::SpaceError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct BlackjackObservationSpace {
    tuple: TupleSpace,
}

impl BlackjackObservationSpace {
    /// Gymnasium's `Tuple(Discrete(32), Discrete(11), Discrete(2))`.
    pub fn new() -> Result<BlackjackObservationSpace, SpaceError> {
        let spaces = BLACKJACK_OBSERVATION_SIZES
            .iter()
            .map(|&n| Discrete::new(n).map(AnySpace::from))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(BlackjackObservationSpace {
            tuple: TupleSpace::new(spaces)?,
        })
    }

    /// The same set as a [`TupleSpace`].
    pub fn tuple(&self) -> &TupleSpace {
        &self.tuple
    }

    fn not_in_space(&self, element: &impl fmt::Debug) -> SpaceError {
        SpaceError::NotInSpace {
            element: format!("{element:?}"),
            space: self.to_string(),
        }
    }

    /// Converts a tuple element, checking that it belongs.
    fn checked(&self, elements: &[AnyElement]) -> Result<BlackjackObservation, SpaceError> {
        BlackjackObservation::from_elements(elements)
            .filter(|observation| self.contains(observation))
            .ok_or_else(|| self.not_in_space(&elements))
    }
}

impl fmt::Display for BlackjackObservationSpace {
    /// `Tuple(Discrete(32), Discrete(11), Discrete(2))`.
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.tuple, formatter)
    }
}

impl Space for BlackjackObservationSpace {
    type Element = BlackjackObservation;

    #[inline]
    fn contains(&self, x: &BlackjackObservation) -> bool {
        x.to_array()
            .iter()
            .zip(BLACKJACK_OBSERVATION_SIZES)
            .all(|(&value, size)| u64::try_from(value).is_ok_and(|value| value < size))
    }
}

impl SampleSpace for BlackjackObservationSpace {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> BlackjackObservation {
        BlackjackObservation::from_elements(&self.tuple.sample(rng)).unwrap_or_default()
    }
}

impl FiniteSpace for BlackjackObservationSpace {
    fn cardinality(&self) -> Option<usize> {
        self.tuple.cardinality()
    }

    fn element_at(&self, index: usize) -> Option<BlackjackObservation> {
        BlackjackObservation::from_elements(&self.tuple.element_at(index)?)
    }

    fn index_of(&self, x: &BlackjackObservation) -> Option<usize> {
        self.contains(x).then(|| {
            let [player_sum, dealer_card, usable_ace] = x.to_array().map(|v| v as usize);
            (player_sum * 11 + dealer_card) * 2 + usable_ace
        })
    }
}

impl FlattenSpace for BlackjackObservationSpace {
    fn flat_dim(&self) -> usize {
        BLACKJACK_OBSERVATION_SIZES.iter().sum::<u64>() as usize
    }

    fn flatten_into<F: FlatScalar>(
        &self,
        x: &BlackjackObservation,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        if out.len() != self.flat_dim() {
            return Err(SpaceError::LengthMismatch {
                what: "flat buffer",
                expected: self.flat_dim(),
                found: out.len(),
            });
        }
        if !self.contains(x) {
            return Err(self.not_in_space(x));
        }
        out.fill(F::ZERO);
        let mut offset = 0;
        for (value, size) in x.to_array().into_iter().zip(BLACKJACK_OBSERVATION_SIZES) {
            out[offset + value as usize] = F::ONE;
            offset += size as usize;
        }
        Ok(())
    }

    /// The three values, as its dynamic `Tuple` of `Discrete`s batches them.
    fn batched_dim(&self) -> usize {
        BLACKJACK_OBSERVATION_SIZES.len()
    }

    fn batched_into<F: FlatScalar>(
        &self,
        x: &BlackjackObservation,
        out: &mut [F],
    ) -> Result<(), SpaceError> {
        if out.len() != self.batched_dim() {
            return Err(SpaceError::LengthMismatch {
                what: "batched row",
                expected: self.batched_dim(),
                found: out.len(),
            });
        }
        if !self.contains(x) {
            return Err(self.not_in_space(x));
        }
        for (slot, value) in out.iter_mut().zip(x.to_array()) {
            *slot = F::from_f64(value as f64);
        }
        Ok(())
    }

    fn unflatten<F: FlatScalar>(&self, flat: &[F]) -> Result<BlackjackObservation, SpaceError> {
        self.checked(&self.tuple.unflatten(flat)?)
    }
}

impl JsonSpace for BlackjackObservationSpace {
    fn element_to_json(&self, x: &BlackjackObservation) -> Result<JsonValue, SpaceError> {
        if !self.contains(x) {
            return Err(self.not_in_space(x));
        }
        Ok(JsonValue::from(x.to_array().to_vec()))
    }

    fn element_from_json(&self, value: &JsonValue) -> Result<BlackjackObservation, SpaceError> {
        self.checked(&self.tuple.element_from_json(value)?)
    }

    /// Column-wise, as Gymnasium's `Tuple.to_jsonable`: `[player sums, dealer cards, usable
    /// aces]`.
    fn batch_to_jsonable(&self, batch: &[BlackjackObservation]) -> Result<JsonValue, SpaceError> {
        if let Some(bad) = batch.iter().find(|x| !self.contains(x)) {
            return Err(self.not_in_space(bad));
        }
        let columns: Vec<JsonValue> = (0..3)
            .map(|part| {
                JsonValue::from(batch.iter().map(|x| x.to_array()[part]).collect::<Vec<_>>())
            })
            .collect();
        Ok(JsonValue::Array(columns))
    }

    fn batch_from_jsonable(
        &self,
        value: &JsonValue,
    ) -> Result<Vec<BlackjackObservation>, SpaceError> {
        self.tuple
            .batch_from_jsonable(value)?
            .iter()
            .map(|elements| self.checked(elements))
            .collect()
    }
}

impl DynamicSpace for BlackjackObservationSpace {
    fn to_any_space(&self) -> AnySpace {
        AnySpace::Tuple(self.tuple.clone())
    }

    fn element_to_any(&self, x: &BlackjackObservation) -> AnyElement {
        AnyElement::Tuple(x.to_elements())
    }

    fn element_from_any(&self, x: &AnyElement) -> Result<BlackjackObservation, SpaceError> {
        match x.as_tuple() {
            Some(elements) => self.checked(elements),
            None => Err(self.not_in_space(x)),
        }
    }
}

/// Blackjack: Gymnasium 1.4.0's `Blackjack-v1` as a [`Domain`].
///
#[doc = include_str!("blackjack.md")]
///
/// ```
/// use rl_core::{Environment, Mode, Simulator};
/// use rl_domains::toy_text::blackjack::{Blackjack, BlackjackParams, STICK};
///
/// let mut env = Simulator::new(Blackjack::new(BlackjackParams::default())?, 5);
/// let first = env.reset(Mode::Training)?;
/// assert!((4..=21).contains(&first.player_sum) && (1..=10).contains(&first.dealer_card));
/// let outcome = env.step(&STICK)?;
/// assert!(outcome.terminated && [-1.0, 0.0, 1.0].contains(&outcome.reward()));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Blackjack {
    params: BlackjackParams,
    observation_space: BlackjackObservationSpace,
    action_space: Discrete,
}

impl Blackjack {
    /// The domain with `params` (every combination is valid, see
    /// [`BlackjackParams::validate`]).
    pub fn new(params: BlackjackParams) -> Result<Blackjack, Error> {
        params.validate()?;
        Ok(Blackjack {
            params,
            observation_space: BlackjackObservationSpace::new()?,
            action_space: Discrete::new(2)?,
        })
    }

    /// The parameters.
    pub fn params(&self) -> &BlackjackParams {
        &self.params
    }

    /// The reward of sticking with `player` against `dealer` once the dealer has played:
    /// Gymnasium's `cmp(score(player), score(dealer))` with its `sab` and `natural` rules.
    pub fn stick_reward(&self, player: &BlackjackHand, dealer: &BlackjackHand) -> f64 {
        let reward = compare(player.score(), dealer.score());
        if self.params.sab && player.is_natural() && !dealer.is_natural() {
            1.0
        } else if !self.params.sab && self.params.natural && player.is_natural() && reward == 1.0 {
            1.5
        } else {
            reward
        }
    }
}

impl Domain for Blackjack {
    type State = BlackjackState;
    type Observation = BlackjackObservation;
    type Action = i64;
    type ObservationSpace = BlackjackObservationSpace;
    type ActionSpace = Discrete;

    fn observation_space(&self) -> &BlackjackObservationSpace {
        &self.observation_space
    }

    fn action_space(&self) -> &Discrete {
        &self.action_space
    }

    /// Gymnasium's `reset`: the dealer's two cards, the player's two, the suit of the
    /// dealer's face-up card (`integers(0, 4)`) and, when it is worth 10, its face
    /// (`integers(0, 3)`).
    fn initial_state<R: Rng + ?Sized>(&self, _mode: Mode, rng: &mut R) -> BlackjackState {
        let dealer = BlackjackHand::pair(draw_card(rng), draw_card(rng));
        let player = BlackjackHand::pair(draw_card(rng), draw_card(rng));
        let suit = CardSuit::ALL[choice(rng, CardSuit::ALL.len()).unwrap_or(0)];
        let face = match dealer.first() {
            10 => Some(FaceCard::ALL[choice(rng, FaceCard::ALL.len()).unwrap_or(0)]),
            _ => None,
        };
        BlackjackState {
            player,
            dealer,
            dealer_top_card_suit: suit,
            dealer_top_card_face: face,
            stuck: false,
        }
    }

    /// Gymnasium's `step`: a hit (any action but 0, as Python's `if action:`) draws a card
    /// for the player; a stick plays the dealer's hand out and scores the game.
    #[inline]
    fn step<R: Rng + ?Sized>(
        &self,
        state: &BlackjackState,
        action: &i64,
        _mode: Mode,
        rng: &mut R,
    ) -> TransitionOutcome<BlackjackState> {
        let mut next = *state;
        let (reward, terminated) = if *action != STICK {
            next.player.push(draw_card(rng));
            if next.player.is_bust() {
                (-1.0, true)
            } else {
                (0.0, false)
            }
        } else {
            next.stuck = true;
            while next.dealer.value() < 17 {
                if !next.dealer.push(draw_card(rng)) {
                    break;
                }
            }
            (self.stick_reward(&next.player, &next.dealer), true)
        };
        TransitionOutcome::new(next, Value::from_reward(reward), terminated)
    }

    #[inline]
    fn observe(&self, state: &BlackjackState) -> BlackjackObservation {
        state.to_observation()
    }

    /// The player has stuck or is bust.
    fn is_terminal(&self, state: &BlackjackState) -> bool {
        state.stuck || state.player.is_bust()
    }

    /// A state given from outside has not stuck: `stuck` marks a game whose dealer has played
    /// out, which Gymnasium's state (the hands alone) cannot express, and stepping from it
    /// would play the dealer's hand a second time.
    fn check_state(&self, state: &BlackjackState) -> Result<(), String> {
        if state.stuck {
            return Err(
                "stuck is true: the player has stuck and the dealer has played, so the game is \
                 over; give a state with stuck false (or without it)"
                    .to_owned(),
            );
        }
        Ok(())
    }
}

/// The cards of a hand as text, `1 10`.
fn cards_text(hand: &BlackjackHand) -> String {
    hand.cards()
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// What a hand's sum means, for the pictures: `, usable ace`, `, bust` or nothing.
fn hand_note(hand: &BlackjackHand) -> &'static str {
    if hand.is_bust() {
        ", bust"
    } else if hand.usable_ace() {
        ", usable ace"
    } else {
        ""
    }
}

impl Render for Blackjack {
    /// Two lines: the dealer's face-up card (and, once the player has stuck, the dealer's
    /// whole hand and sum), then the player's cards, sum and usable ace.
    ///
    /// ```text
    /// dealer: KS showing (10), one card face down
    /// player: 1 6 = 17, usable ace
    /// ```
    fn render_text(&self, state: &BlackjackState) -> String {
        let dealer = if state.stuck {
            format!(
                "hand {} = {}{}",
                cards_text(&state.dealer),
                state.dealer.value(),
                hand_note(&state.dealer)
            )
        } else {
            "one card face down".to_owned()
        };
        format!(
            "dealer: {} showing ({}), {dealer}\nplayer: {} = {}{}\n",
            state.dealer_card_name(),
            state.dealer.first(),
            cards_text(&state.player),
            state.player.value(),
            hand_note(&state.player)
        )
    }

    /// Gymnasium's table on its felt (384 by 376): the dealer's face-up card named as
    /// Gymnasium draws it (`dealer-card`) beside the face-down one (`hidden-card`, replaced
    /// by the dealer's other cards once the player has stuck), the player's cards
    /// (`player-card`), the player's sum (`player-sum`) and `usable ace` (`usable-ace`).
    fn render_svg(&self, state: &BlackjackState) -> String {
        const WIDTH: f64 = 384.0;
        const HEIGHT: f64 = 376.0;
        const CARD_WIDTH: f64 = 48.0;
        const CARD_HEIGHT: f64 = 68.0;
        let mut svg = Svg::new(WIDTH, HEIGHT, "Blackjack");
        svg.element(
            "rect",
            "felt",
            &[
                ("x", "0".to_owned()),
                ("y", "0".to_owned()),
                ("width", number(WIDTH)),
                ("height", number(HEIGHT)),
                ("fill", "#c4d89e".to_owned()),
            ],
        );
        let card = |svg: &mut Svg, class: &str, x: f64, y: f64, label: &str, hidden: bool| {
            svg.element(
                "rect",
                class,
                &[
                    ("x", number(x)),
                    ("y", number(y)),
                    ("width", number(CARD_WIDTH)),
                    ("height", number(CARD_HEIGHT)),
                    ("rx", "4".to_owned()),
                    (
                        "fill",
                        if hidden { "#3050a0" } else { "#ffffff" }.to_owned(),
                    ),
                    ("stroke", "#000000".to_owned()),
                ],
            );
            if !hidden {
                svg.text(
                    class,
                    &[
                        ("x", number(x + 6.0)),
                        ("y", number(y + 22.0)),
                        ("font-size", "16".to_owned()),
                    ],
                    label,
                );
            }
        };
        svg.text(
            "dealer-label",
            &[
                ("x", "40".to_owned()),
                ("y", "50".to_owned()),
                ("font-size", "18".to_owned()),
            ],
            &format!("Dealer: {}", state.dealer.first()),
        );
        card(
            &mut svg,
            "dealer-card",
            96.0,
            72.0,
            &state.dealer_card_name(),
            false,
        );
        if state.stuck {
            for (index, value) in state.dealer.cards().iter().enumerate().skip(1) {
                let x = 96.0 + (CARD_WIDTH + 8.0) * index as f64;
                card(&mut svg, "dealer-card", x, 72.0, &value.to_string(), false);
            }
            svg.text(
                "dealer-sum",
                &[
                    ("x", "40".to_owned()),
                    ("y", "172".to_owned()),
                    ("font-size", "14".to_owned()),
                ],
                &format!(
                    "dealer's sum {}{}",
                    state.dealer.value(),
                    hand_note(&state.dealer)
                ),
            );
        } else {
            card(&mut svg, "hidden-card", 208.0, 72.0, "", true);
        }
        svg.text(
            "player-label",
            &[
                ("x", "40".to_owned()),
                ("y", "226".to_owned()),
                ("font-size", "18".to_owned()),
            ],
            "Player",
        );
        let per_row = 6;
        for (index, value) in state.player.cards().iter().enumerate() {
            let x = 110.0 + (CARD_WIDTH * 0.6) * (index % per_row) as f64;
            let y = 200.0 + 8.0 * (index / per_row) as f64;
            card(&mut svg, "player-card", x, y, &value.to_string(), false);
        }
        svg.text(
            "player-sum",
            &[
                ("x", number(WIDTH / 2.0)),
                ("y", "316".to_owned()),
                ("font-size", "40".to_owned()),
                ("text-anchor", "middle".to_owned()),
            ],
            &state.player.value().to_string(),
        );
        if state.player.usable_ace() {
            svg.text(
                "usable-ace",
                &[
                    ("x", number(WIDTH / 2.0)),
                    ("y", "352".to_owned()),
                    ("font-size", "18".to_owned()),
                    ("text-anchor", "middle".to_owned()),
                ],
                "usable ace",
            );
        }
        svg.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rl_core::{CheckConfig, Environment, NumpyGenerator, Simulator, check_domain};
    use serde_json::json;

    fn reference(name: &str) -> JsonValue {
        let path = format!(
            "{}/../../testdata/reference/{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The parameters of Gymnasium's `make_kwargs` (an object, or a JSON string of one).
    fn params_of(make_kwargs: &JsonValue) -> BlackjackParams {
        let kwargs = match make_kwargs {
            JsonValue::String(text) => serde_json::from_str(text).expect("make_kwargs as JSON"),
            other => other.clone(),
        };
        serde_json::from_value(kwargs).expect("Blackjack parameters")
    }

    fn hand(cards: &[u8]) -> BlackjackHand {
        BlackjackHand::new(cards).expect("a dealable hand")
    }

    fn state(player: &[u8], dealer: &[u8]) -> BlackjackState {
        BlackjackState {
            player: hand(player),
            dealer: hand(dealer),
            dealer_top_card_suit: CardSuit::Spades,
            dealer_top_card_face: (dealer[0] == 10).then_some(FaceCard::King),
            stuck: false,
        }
    }

    #[test]
    fn seeded_traces_replay_bit_for_bit() {
        let file = reference("seeded_toy_text.json");
        let mut steps_checked = 0;
        let mut mismatches = Vec::new();
        let mut variants = Vec::new();
        for trace in file["traces"].as_array().expect("traces") {
            if trace["env_id"] != "Blackjack-v1" {
                continue;
            }
            let params = params_of(&trace["make_kwargs"]);
            if !variants.contains(&params) {
                variants.push(params.clone());
            }
            let mut env = Simulator::new(Blackjack::new(params).expect("valid"), 0);
            let id = trace["id"].as_str().unwrap_or("?");
            for (s, segment) in trace["segments"]
                .as_array()
                .expect("segments")
                .iter()
                .enumerate()
            {
                if let Some(seed) = segment["reset_seed"].as_u64() {
                    env.seed(seed);
                }
                let first = env.reset(Mode::Training).expect("reset");
                if segment["initial_obs"] != json!(first.to_array()) {
                    mismatches.push(format!("{id} segment {s}: initial {first:?}"));
                }
                let actions = segment["actions"].as_array().expect("actions");
                let expected = segment["steps"].as_array().expect("steps");
                for (j, (action, step)) in actions.iter().zip(expected).enumerate() {
                    let outcome = env.step(&action.as_i64().expect("action")).expect("step");
                    let same = step["obs"] == json!(outcome.observation.to_array())
                        && step["reward"].as_f64().map(f64::to_bits)
                            == Some(outcome.reward().to_bits())
                        && step["terminated"] == outcome.terminated
                        && step["truncated"] == outcome.truncated;
                    if !same {
                        mismatches.push(format!(
                            "{id} segment {s} step {j}: expected {step}, got {outcome:?}"
                        ));
                    }
                    steps_checked += 1;
                }
            }
        }
        assert!(
            mismatches.is_empty(),
            "{} mismatches: {mismatches:#?}",
            mismatches.len()
        );
        assert_eq!(variants.len(), 3, "{variants:?}");
        assert!(steps_checked >= 40, "{steps_checked} steps");
        eprintln!("Blackjack-v1: {steps_checked} seeded steps replayed bit for bit");
    }

    #[test]
    fn reset_draws_in_gymnasiums_order() {
        // numpy: rng = default_rng(12); deck[rng.integers(0, 13)] four times, then the suit
        // and, for a ten, the face. Equivalently: the same draws through numpy_random.
        let blackjack = Blackjack::new(BlackjackParams::default()).expect("valid");
        for seed in 0..50 {
            let mut ours = NumpyGenerator::seed_from_u64(seed);
            let state = blackjack.initial_state(Mode::Training, &mut ours);
            let mut theirs = NumpyGenerator::seed_from_u64(seed);
            let cards: Vec<u8> = (0..4)
                .map(|_| DECK[choice(&mut theirs, 13).unwrap_or(0)])
                .collect();
            assert_eq!(state.dealer.cards(), &cards[..2]);
            assert_eq!(state.player.cards(), &cards[2..]);
            assert_eq!(
                state.dealer_top_card_suit,
                CardSuit::ALL[choice(&mut theirs, 4).unwrap_or(0)]
            );
            if cards[0] == 10 {
                let face = FaceCard::ALL[choice(&mut theirs, 3).unwrap_or(0)];
                assert_eq!(state.dealer_top_card_face, Some(face));
            } else {
                assert_eq!(state.dealer_top_card_face, None);
            }
            // The streams are in the same place.
            assert_eq!(ours.state(), theirs.state());
            assert_eq!(ours.buffered_u32(), theirs.buffered_u32());
        }
    }

    #[test]
    fn rewards_follow_the_natural_and_sab_rules() {
        let sab = Blackjack::new(BlackjackParams::default()).expect("valid");
        let natural = Blackjack::new(BlackjackParams {
            natural: true,
            sab: false,
        })
        .expect("valid");
        let plain = Blackjack::new(BlackjackParams {
            natural: false,
            sab: false,
        })
        .expect("valid");
        let both = Blackjack::new(BlackjackParams {
            natural: true,
            sab: true,
        })
        .expect("valid");
        let cases: [(&[u8], &[u8], [f64; 4]); 6] = [
            // Natural against 17: sab +1, natural 1.5, plain +1; sab overrides natural.
            (&[1, 10], &[10, 7], [1.0, 1.5, 1.0, 1.0]),
            // Natural against a natural: a draw everywhere.
            (&[10, 1], &[1, 10], [0.0, 0.0, 0.0, 0.0]),
            // Natural against a 21 of three cards: sab wins, the others draw.
            (&[1, 10], &[10, 5, 6], [1.0, 0.0, 0.0, 1.0]),
            // 20 against 21 of three cards: a loss.
            (&[10, 10], &[10, 5, 6], [-1.0, -1.0, -1.0, -1.0]),
            // 20 against 20: a draw.
            (&[10, 10], &[9, 1], [0.0, 0.0, 0.0, 0.0]),
            // 12 against a bust dealer (score 0): a win.
            (&[10, 2], &[10, 6, 9], [1.0, 1.0, 1.0, 1.0]),
        ];
        let mut rng = NumpyGenerator::seed_from_u64(0);
        for (player, dealer, rewards) in cases {
            for (domain, reward) in [&sab, &natural, &plain, &both].into_iter().zip(rewards) {
                // The dealer's sum is 17 or more: sticking draws nothing.
                let outcome = domain.step(&state(player, dealer), &STICK, Mode::Training, &mut rng);
                assert_eq!(
                    outcome.value.reward().to_bits(),
                    reward.to_bits(),
                    "{player:?} against {dealer:?} with {:?}",
                    domain.params()
                );
                assert!(outcome.terminated && outcome.next_state.stuck);
                assert!(domain.is_terminal(&outcome.next_state));
            }
        }
    }

    #[test]
    fn hits_and_dealer_play() {
        let blackjack = Blackjack::new(BlackjackParams::default()).expect("valid");
        let mut rng = NumpyGenerator::seed_from_u64(4);
        let start = state(&[10, 10], &[2, 3]);
        // Sticking: the dealer draws until 17 or more.
        let stuck = blackjack
            .step(&start, &STICK, Mode::Training, &mut rng)
            .next_state;
        assert!(stuck.dealer.value() >= 17 && stuck.dealer.cards().len() > 2);
        assert_eq!(stuck.player, start.player);
        // Hitting 20 busts unless the card is an ace.
        let mut rng = NumpyGenerator::seed_from_u64(4);
        let outcome = blackjack.step(&start, &HIT, Mode::Training, &mut rng);
        let card = outcome.next_state.player.cards()[2];
        assert_eq!(outcome.terminated, card != 1);
        assert_eq!(outcome.value.reward(), if card == 1 { 0.0 } else { -1.0 });
        assert_eq!(
            blackjack.is_terminal(&outcome.next_state),
            outcome.terminated
        );
        // A usable ace: 1 + 6 is 17 with the ace counted as 11.
        let soft = state(&[1, 6], &[5, 5]).to_observation();
        assert_eq!(
            soft,
            BlackjackObservation {
                player_sum: 17,
                dealer_card: 5,
                usable_ace: 1
            }
        );
        let hard = state(&[1, 6, 10], &[5, 5]).to_observation();
        assert_eq!(
            hard,
            BlackjackObservation {
                player_sum: 17,
                dealer_card: 5,
                usable_ace: 0
            }
        );
    }

    #[test]
    fn hands_are_checked_and_read_from_json() {
        assert!(BlackjackHand::new(&[]).is_err());
        assert!(BlackjackHand::new(&[0, 5]).is_err());
        assert!(BlackjackHand::new(&[11, 5]).is_err());
        // 10 + 10 + 5 was bust before the last card.
        assert!(BlackjackHand::new(&[10, 10, 5, 2]).is_err());
        // The most cards: 21 aces, then one more.
        assert_eq!(BlackjackHand::new(&[1; 22]).expect("dealable").value(), 22);
        assert!(BlackjackHand::new(&[1; 23]).is_err());
        let highest = hand(&[10, 10, 1, 10]);
        assert_eq!((highest.value(), highest.is_bust()), (31, true));
        let state = state(&[1, 10], &[10, 7]);
        let json = serde_json::to_value(state).expect("serialise");
        assert_eq!(
            json,
            json!({"player": [1, 10], "dealer": [10, 7], "dealer_top_card_suit": "S",
                   "dealer_top_card_face": "K", "stuck": false})
        );
        assert_eq!(
            serde_json::from_value::<BlackjackState>(json).expect("read"),
            state
        );
        let short: BlackjackState = serde_json::from_str(
            r#"{"player": [2, 3], "dealer": [4, 4], "dealer_top_card_suit": "H"}"#,
        )
        .expect("read");
        assert!(!short.stuck && short.dealer_top_card_face.is_none());
        assert!(
            serde_json::from_str::<BlackjackState>(
                r#"{"player": [10, 10, 10, 10], "dealer": [4, 4], "dealer_top_card_suit": "H"}"#
            )
            .is_err()
        );
    }

    #[test]
    fn params_default_to_the_registration_and_read_from_json() {
        let defaults = BlackjackParams::default();
        assert!(defaults.sab && !defaults.natural && defaults.validate().is_ok());
        let params: BlackjackParams =
            serde_json::from_str(r#"{"natural": true, "sab": false}"#).expect("valid");
        assert!(params.natural && !params.sab);
        let error = serde_json::from_str::<BlackjackParams>(r#"{"max_episode_steps": 10}"#)
            .expect_err("unknown");
        assert!(error.to_string().contains("max_episode_steps"));
        assert_eq!(Blackjack::new(defaults).expect("valid").episode_cap(), None);
    }

    #[test]
    fn observation_space_agrees_with_gymnasiums_tuple() {
        let space = BlackjackObservationSpace::new().expect("valid");
        let tuple = space.tuple().clone();
        assert_eq!(space.cardinality(), Some(704));
        assert_eq!(space.flat_dim(), tuple.flat_dim());
        let mut all = Vec::new();
        for index in 0..704 {
            let observation = space.element_at(index).expect("in range");
            let elements = observation.to_elements();
            assert_eq!(tuple.element_at(index).as_deref(), Some(&elements[..]));
            assert_eq!(space.index_of(&observation), Some(index));
            assert_eq!(tuple.index_of(&elements), Some(index));
            assert_eq!(
                space.flatten::<f32>(&observation).expect("flat"),
                tuple.flatten::<f32>(&elements).expect("flat")
            );
            let flat = space.flatten::<f64>(&observation).expect("flat");
            assert_eq!(space.unflatten(&flat).expect("back"), observation);
            let text = space.element_to_json(&observation).expect("json");
            assert_eq!(text, tuple.element_to_json(&elements).expect("json"));
            assert_eq!(space.element_from_json(&text).expect("back"), observation);
            let any = space.element_to_any(&observation);
            assert_eq!(space.element_from_any(&any).expect("back"), observation);
            all.push(observation);
        }
        let batch = space.batch_to_jsonable(&all[..5]).expect("batch");
        let tuple_batch: Vec<Vec<AnyElement>> = all[..5].iter().map(|o| o.to_elements()).collect();
        assert_eq!(batch, tuple.batch_to_jsonable(&tuple_batch).expect("batch"));
        assert_eq!(space.batch_from_jsonable(&batch).expect("back"), &all[..5]);
        let mut ours = NumpyGenerator::seed_from_u64(9);
        let mut theirs = NumpyGenerator::seed_from_u64(9);
        for _ in 0..20 {
            assert_eq!(
                space.sample(&mut ours).to_elements(),
                tuple.sample(&mut theirs)
            );
        }
        let outside = BlackjackObservation {
            player_sum: 32,
            dealer_card: 1,
            usable_ace: 0,
        };
        assert!(!space.contains(&outside));
        assert!(space.element_to_json(&outside).is_err());
        assert!(space.element_from_json(&json!([3, 11, 0])).is_err());
        assert!(space.element_from_any(&AnyElement::Int(3)).is_err());
    }

    #[test]
    fn conformance_checker_passes() {
        for params in [
            BlackjackParams::default(),
            BlackjackParams {
                natural: true,
                sab: false,
            },
            BlackjackParams {
                natural: false,
                sab: false,
            },
        ] {
            let blackjack = Blackjack::new(params.clone()).expect("valid");
            let report = check_domain(&blackjack, &CheckConfig::default());
            assert!(report.is_ok(), "{params:?}: {report}");
        }
    }

    #[test]
    fn pictures() {
        let blackjack = Blackjack::new(BlackjackParams::default()).expect("valid");
        let start = state(&[1, 6], &[10, 7]);
        assert_eq!(
            blackjack.render_text(&start),
            "dealer: KS showing (10), one card face down\nplayer: 1 6 = 17, usable ace\n"
        );
        let mut over = state(&[10, 10], &[2, 3, 10, 4]);
        over.stuck = true;
        over.dealer_top_card_suit = CardSuit::Hearts;
        assert_eq!(
            blackjack.render_text(&over),
            "dealer: 2H showing (2), hand 2 3 10 4 = 19\nplayer: 10 10 = 20\n"
        );
        let svg = blackjack.render_svg(&start);
        assert!(
            svg.starts_with("<svg") && svg.contains("hidden-card") && svg.contains("usable ace")
        );
        assert!(blackjack.render_svg(&over).contains("dealer&apos;s sum 19"));
    }

    #[test]
    fn registrable_and_dynamic_as_gymnasiums_tuple() {
        use rl_core::registry::Registration;
        use rl_core::{DynamicEnvironment, Environment};
        // What the registry needs compiles (nothing is entered into the table).
        let _registration = Registration::new("Blackjack-v1", "Blackjack", Blackjack::new)
            .with_render()
            .with_state();
        let domain = Blackjack::new(BlackjackParams::default()).expect("valid");
        let mut env = DynamicEnvironment::new(Simulator::new(domain, 0));
        env.seed(1404004418);
        let first = env.reset(Mode::Training).expect("reset");
        // The first segment of trace Blackjack-v1-1.
        let ints = |element: &AnyElement| -> Vec<i64> {
            element
                .as_tuple()
                .expect("a tuple")
                .iter()
                .filter_map(AnyElement::as_int)
                .collect()
        };
        assert_eq!(ints(&first), [20, 10, 0]);
        assert!(matches!(
            env.observation_space().to_any_space(),
            AnySpace::Tuple(_)
        ));
        let outcome = env.step(&AnyElement::Int(1)).expect("step");
        assert_eq!(ints(&outcome.observation), [27, 10, 0]);
        assert!(outcome.terminated && outcome.reward() == -1.0);
    }
}
