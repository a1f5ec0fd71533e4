//! The BabyAI ids in rl-core's registration table, and BabyAI's pictures: minigrid's text
//! picture (`pprint_grid`), the SVG and the RGB frames of MiniGrid's tile renderer, drawn
//! from the state's grid world.

use rl_core::registry::{Documentation, Registration};
use rl_core::{Frame, Render, RenderFrame};
use serde_json::{Value, json};

use super::{BabyAi, BabyAiParams, BabyAiState, ids::IDS};
use crate::envs::door_key::DoorKeyParams;
use crate::{EnvParams, MiniGrid, MiniGridParams, TILE_PIXELS};

/// What every BabyAI level shares: the text [`BabyAi`]'s rustdoc includes.
const DOCUMENTATION: Documentation = Documentation::new("BabyAI", &[include_str!("babyai.md")]);

/// The step budget of `rl run` on the BabyAI ids outside [`LEARNED`](crate::registry::LEARNED).
const DEFAULT_BUDGET: u64 = 100_000;

/// Registers every BabyAI id (called by [`crate::register`]).
pub(crate) fn register_all() {
    for id in IDS {
        let result = registration(id).map(Registration::register);
        debug_assert!(
            matches!(result, Some(Ok(()))),
            "registering {id} failed: {result:?}"
        );
    }
}

/// The registration of one id.
fn registration(id: &'static str) -> Option<Registration<BabyAi>> {
    let domain = BabyAi::for_id(id).ok()?;
    let (width, height) = domain.grid_size();
    let limit = domain.fixed_max_steps().map_or_else(
        || "a time limit per instruction".to_owned(),
        |steps| format!("{steps} steps"),
    );
    let description = format!(
        "minigrid 3.2.0 {id}: follow the BabyAI instruction of the mission ({width}x{height} \
         grid of {} by {} rooms, Discrete(7) actions, {view}x{view} view, {limit})",
        domain.params().num_cols,
        domain.params().num_rows,
        view = domain.view_size(),
    );
    Some(
        Registration::new(id, description, move |overrides: Value| {
            BabyAiParams::for_id_with(id, &overrides).and_then(BabyAi::new)
        })
        .with_state()
        .with_render()
        .with_frames()
        .with_documentation(DOCUMENTATION)
        .with_settings(settings(id)),
    )
}

/// The `rl run` settings of a BabyAI id.
fn settings(id: &str) -> Value {
    let learned = crate::registry::LEARNED
        .iter()
        .find(|(learned, ..)| *learned == id);
    let (budget, threshold) = match learned {
        Some(&(_, budget, threshold)) => (budget, Some(threshold)),
        None => (DEFAULT_BUDGET, None),
    };
    json!({
            "agent": "q-learning",
            "max_steps": budget,
            "learning_threshold": threshold,
            "success": "terminated",
            "gymnasium_kwargs": crate::registry::minigrid_kwargs(id),
            "agent_params": {
                "q-learning": {"discount": 0.9, "learning_rate": 0.2},
                "sarsa": {"discount": 0.9, "learning_rate": 0.2}
            }
    })
}

/// The MiniGrid domain that draws a BabyAI grid world: a room environment (walls hide what is
/// behind them) with the view `view_size`.
pub(crate) fn painter(view_size: usize) -> Result<MiniGrid, crate::Error> {
    MiniGrid::new(MiniGridParams {
        env: EnvParams::DoorKey(DoorKeyParams::default()),
        agent_view_size: view_size,
        ..MiniGridParams::default()
    })
}

/// The grid world as minigrid holds it: with PutNext's `start_carrying` applied (minigrid takes
/// the object into the agent's hands at the end of `reset`; the state does it before its first
/// step, so that the first observation is minigrid's).
fn world(state: &BabyAiState) -> std::borrow::Cow<'_, crate::MiniGridState> {
    match state.pending_carry {
        None => std::borrow::Cow::Borrowed(&state.world),
        Some(position) => {
            let mut world = state.world.clone();
            world.carrying = world.grid.get(position);
            world.grid.set(position, crate::Cell::EMPTY);
            std::borrow::Cow::Owned(world)
        }
    }
}

impl Render for BabyAi {
    /// minigrid's `pprint_grid`.
    fn render_text(&self, state: &BabyAiState) -> String {
        self.painter.render_text(&world(state))
    }

    /// The SVG of MiniGrid's pictures.
    fn render_svg(&self, state: &BabyAiState) -> String {
        self.painter.render_svg(&world(state))
    }
}

impl RenderFrame for BabyAi {
    /// 32 pixels a cell, minigrid's `rgb_array` size.
    fn frame_size(&self) -> (u32, u32) {
        let (width, height) = self.grid_size();
        (width as u32 * TILE_PIXELS, height as u32 * TILE_PIXELS)
    }

    fn draw_frame(&self, state: &BabyAiState, frame: &mut Frame) {
        self.painter.draw_frame(&world(state), frame);
    }
}
