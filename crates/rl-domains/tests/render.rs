//! Pictures: every SVG is parsed by a tiny XML reader written here (balanced tags, quoted
//! and unique attributes, known entities, one `svg` root) and its content is checked: the
//! cells, pits, goals, walls and agent of GridWorld, the value picture's arrows and
//! colours, the cart and pole of CartPole, the hill, flag and car of MountainCar.

use std::collections::BTreeMap;

use rand::SeedableRng;
use rl_core::NumpyGenerator;
use rl_core::{Domain, Mode, Render};
use rl_domains::Error;
use rl_domains::cartpole::{CartPole, CartPoleParams, CartPoleState};
use rl_domains::gridworld::{CellKind, GridAction, GridCell, GridMap, GridWorld, GridWorldParams};
use rl_domains::mountain_car::{MountainCar, MountainCarParams, MountainCarState};
use rl_domains::mountain_car_continuous::{
    MountainCarContinuous, MountainCarContinuousParams, MountainCarContinuousState,
};

/// An element of a parsed document.
#[derive(Debug, Clone)]
struct Element {
    name: String,
    attributes: BTreeMap<String, String>,
    text: String,
    parent: Option<usize>,
}

impl Element {
    fn attribute(&self, key: &str) -> &str {
        self.attributes.get(key).map_or("", String::as_str)
    }

    fn number(&self, key: &str) -> f64 {
        self.attribute(key)
            .parse()
            .unwrap_or_else(|_| panic!("{key} of {self:?} is not a number"))
    }

    fn has_class(&self, class: &str) -> bool {
        self.attribute("class").split(' ').any(|name| name == class)
    }
}

/// Replaces the five XML entities; any other `&` is an error.
fn unescape(text: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(position) = rest.find('&') {
        out.push_str(&rest[..position]);
        let after = &rest[position..];
        let end = after
            .find(';')
            .ok_or_else(|| format!("unterminated entity in {text:?}"))?;
        out.push(match &after[..=end] {
            "&amp;" => '&',
            "&lt;" => '<',
            "&gt;" => '>',
            "&quot;" => '"',
            "&apos;" => '\'',
            other => return Err(format!("unknown entity {other}")),
        });
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Parses `name attr="value" ...` (the inside of a start tag without `<`, `>` and `/`).
fn parse_tag(inside: &str) -> Result<(String, BTreeMap<String, String>), String> {
    let inside = inside.trim();
    let name_end = inside.find(char::is_whitespace).unwrap_or(inside.len());
    let name = inside[..name_end].to_owned();
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == ':')
    {
        return Err(format!("bad tag name in <{inside}>"));
    }
    let mut attributes = BTreeMap::new();
    let mut rest = inside[name_end..].trim_start();
    while !rest.is_empty() {
        let equals = rest
            .find('=')
            .ok_or_else(|| format!("attribute without value in <{inside}>"))?;
        let key = rest[..equals].trim().to_owned();
        let after = &rest[equals + 1..];
        let after = after
            .strip_prefix('"')
            .ok_or_else(|| format!("unquoted value in <{inside}>"))?;
        let close = after
            .find('"')
            .ok_or_else(|| format!("unterminated value in <{inside}>"))?;
        let value = unescape(&after[..close])?;
        if attributes.insert(key.clone(), value).is_some() {
            return Err(format!("duplicate attribute {key} in <{inside}>"));
        }
        rest = after[close + 1..].trim_start();
    }
    Ok((name, attributes))
}

/// Parses a document into its elements in document order, or explains why it is not
/// well formed.
fn parse(document: &str) -> Result<Vec<Element>, String> {
    let mut elements: Vec<Element> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut roots = 0;
    let mut rest = document;
    while let Some(start) = rest.find('<') {
        let text = &rest[..start];
        match open.last() {
            Some(&current) => elements[current].text.push_str(&unescape(text)?),
            None if !text.trim().is_empty() => {
                return Err(format!("text outside the root: {text:?}"));
            }
            None => {}
        }
        let end = rest[start..].find('>').ok_or("unterminated tag")? + start;
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            let current = open
                .pop()
                .ok_or_else(|| format!("</{name}> closes nothing"))?;
            if elements[current].name != name.trim() {
                return Err(format!("</{name}> closes <{}>", elements[current].name));
            }
            continue;
        }
        let (inside, self_closing) = match tag.strip_suffix('/') {
            Some(inside) => (inside, true),
            None => (tag, false),
        };
        let (name, attributes) = parse_tag(inside)?;
        if open.is_empty() {
            roots += 1;
        }
        elements.push(Element {
            name,
            attributes,
            text: String::new(),
            parent: open.last().copied(),
        });
        if !self_closing {
            open.push(elements.len() - 1);
        }
    }
    if !rest.trim().is_empty() {
        return Err(format!("text after the root: {rest:?}"));
    }
    if let Some(&current) = open.last() {
        return Err(format!("<{}> is never closed", elements[current].name));
    }
    if roots != 1 || elements.first().map(|e| e.name.as_str()) != Some("svg") {
        return Err(format!("expected one <svg> root, found {roots} roots"));
    }
    Ok(elements)
}

fn parsed(document: &str) -> Vec<Element> {
    parse(document).unwrap_or_else(|error| panic!("not well formed: {error}\n{document}"))
}

fn with_class<'a>(elements: &'a [Element], class: &str) -> Vec<&'a Element> {
    elements.iter().filter(|e| e.has_class(class)).collect()
}

#[test]
fn the_reader_rejects_malformed_documents() {
    for broken in [
        "<svg><rect></svg>",
        "<svg><g></rect></g></svg>",
        r#"<svg><rect x=1/></svg>"#,
        r#"<svg><rect x="1" x="2"/></svg>"#,
        "<svg><text>a & b</text></svg>",
        "<svg></svg><svg></svg>",
        "<rect/>",
        "<svg>",
    ] {
        assert!(parse(broken).is_err(), "{broken}");
    }
    let elements =
        parse(r#"<svg a="&lt;b&gt;"><text>x &amp; y</text></svg>"#).expect("well formed");
    assert_eq!(elements[0].attribute("a"), "<b>");
    assert_eq!(elements[1].text, "x & y");
    assert_eq!(elements[1].parent, Some(0));
}

fn count_kind(map: &GridMap, kind: CellKind) -> usize {
    map.cells().iter().filter(|cell| **cell == kind).count()
}

#[test]
fn gridworld_pictures_show_every_cell_pit_goal_wall_and_the_agent() {
    for name in GridMap::builtin_names() {
        let domain = GridWorld::builtin(name, GridWorldParams::default()).expect("valid");
        let map = domain.map();
        for agent in [map.start(), GridCell::new(map.rows() - 1, map.cols() - 1)] {
            let elements = parsed(&domain.render_svg(&agent));
            let title = elements
                .iter()
                .find(|e| e.name == "title")
                .expect("a title");
            assert!(
                title
                    .text
                    .contains(&format!("{}x{}", map.rows(), map.cols()))
            );
            let cells = with_class(&elements, "cell");
            assert_eq!(cells.len(), map.cell_count(), "{name}");
            assert!(cells.iter().all(|cell| cell.name == "rect"));
            for (class, kind) in [
                ("pit", CellKind::Pit),
                ("goal", CellKind::Goal),
                ("blocked", CellKind::Blocked),
                ("start", CellKind::Start),
                ("empty", CellKind::Empty),
            ] {
                let drawn = cells.iter().filter(|cell| cell.has_class(class)).count();
                assert_eq!(drawn, count_kind(map, kind), "{name}: {class} cells");
            }
            // Every cell is drawn where its row and column say, with the kind the map says.
            for cell in &cells {
                let position = GridCell::new(
                    cell.attribute("data-row").parse().expect("a row"),
                    cell.attribute("data-col").parse().expect("a column"),
                );
                let kind = map.kind(position).expect("inside the grid");
                let class = match kind {
                    CellKind::Empty => "empty",
                    CellKind::Blocked => "blocked",
                    CellKind::Start => "start",
                    CellKind::Goal => "goal",
                    CellKind::Pit => "pit",
                };
                assert!(
                    cell.has_class(class),
                    "{name}: {position} drawn as {cell:?}"
                );
            }
            let agents = with_class(&elements, "agent");
            assert_eq!(agents.len(), 1, "{name}");
            let agent_element = agents[0];
            assert_eq!(agent_element.name, "circle");
            assert_eq!(agent_element.attribute("data-row"), agent.row.to_string());
            assert_eq!(agent_element.attribute("data-col"), agent.col.to_string());
            // The agent's centre lies inside the square of its cell.
            let square = cells
                .iter()
                .find(|cell| {
                    cell.attribute("data-row") == agent.row.to_string()
                        && cell.attribute("data-col") == agent.col.to_string()
                })
                .expect("the agent's cell is drawn");
            let (cx, cy) = (agent_element.number("cx"), agent_element.number("cy"));
            assert!(cx > square.number("x") && cx < square.number("x") + square.number("width"));
            assert!(cy > square.number("y") && cy < square.number("y") + square.number("height"));
            // Goals and pits are labelled for a reader.
            assert_eq!(
                with_class(&elements, "label").len(),
                count_kind(map, CellKind::Goal)
                    + count_kind(map, CellKind::Pit)
                    + count_kind(map, CellKind::Start),
                "{name}"
            );
        }
    }
}

#[test]
fn gridworld_agent_outside_the_grid_is_not_drawn() {
    let domain = GridWorld::builtin("3x3", GridWorldParams::default()).expect("valid");
    let elements = parsed(&domain.render_svg(&GridCell::new(7, 0)));
    assert!(with_class(&elements, "agent").is_empty());
    assert_eq!(with_class(&elements, "cell").len(), 9);
}

#[test]
fn gridworld_text_shows_the_map_and_the_agent() {
    let domain = GridWorld::builtin("4x5", GridWorldParams::default()).expect("valid");
    let text = domain.render_text(&domain.map().start());
    assert_eq!(text, ". . . . .\n. # # # .\n. . . # .\nA P P G .\n");
    let text = domain.render_text(&GridCell::new(0, 4));
    assert_eq!(text, ". . . . A\n. # # # .\n. . . # .\nS P P G .\n");
}

#[test]
fn value_pictures_show_values_colours_and_greedy_arrows() {
    let domain = GridWorld::builtin("4x5", GridWorldParams::default()).expect("valid");
    let map = domain.map();
    let count = map.cell_count();
    // A value per cell that grows to the right and downwards, and an arrow in open,
    // non-terminal cells that cycles through the actions.
    let values: Vec<f64> = (0..count).map(|index| index as f64 / 10.0 - 0.5).collect();
    let greedy: Vec<Option<GridAction>> = (0..count)
        .map(|index| {
            let kind = map.cells()[index];
            (kind != CellKind::Blocked && !kind.is_terminal()).then(|| GridAction::ALL[index % 4])
        })
        .collect();
    let elements = parsed(
        &domain
            .render_values_svg(&values, &greedy)
            .expect("a picture"),
    );

    let arrows = with_class(&elements, "arrow");
    let expected_arrows = greedy.iter().flatten().count();
    assert_eq!(arrows.len(), expected_arrows);
    for action in GridAction::ALL {
        let drawn = arrows
            .iter()
            .filter(|arrow| arrow.has_class(action.name()))
            .count();
        let wanted = greedy.iter().filter(|g| **g == Some(action)).count();
        assert_eq!(drawn, wanted, "{action:?}");
    }
    let open = count - count_kind(map, CellKind::Blocked);
    let texts = with_class(&elements, "value");
    assert_eq!(texts.len(), open);
    assert!(texts.iter().any(|text| text.text == "1.40"));
    // The largest value is full green, the most negative full red in proportion, walls black.
    let cells = with_class(&elements, "cell");
    let fill_of = |row: usize, col: usize| {
        cells
            .iter()
            .find(|c| {
                c.attribute("data-row") == row.to_string()
                    && c.attribute("data-col") == col.to_string()
            })
            .map(|c| c.attribute("fill").to_owned())
            .expect("a drawn cell")
    };
    assert_eq!(fill_of(3, 4), "#2ca02c");
    assert_eq!(fill_of(1, 1), "#000000");
    assert_eq!(fill_of(1, 0), "#ffffff", "cell 5 has value 0");
    let channel = |fill: &str, index: usize| {
        u8::from_str_radix(&fill[1 + 2 * index..3 + 2 * index], 16).expect("a hex colour")
    };
    let reddish = fill_of(0, 4);
    assert!(
        channel(&reddish, 0) > channel(&reddish, 1),
        "a negative value is reddish: {reddish}"
    );
    assert_eq!(
        fill_of(0, 0),
        "#f0b2b2",
        "the most negative value is red in proportion"
    );
    assert_eq!(
        with_class(&elements, "frame").len(),
        count_kind(map, CellKind::Goal) + count_kind(map, CellKind::Pit)
    );

    let text = domain
        .render_values_text(&values, &greedy)
        .expect("a picture");
    assert_eq!(text.lines().count(), map.rows());
    assert_eq!(
        text.matches('#').count(),
        count_kind(map, CellKind::Blocked)
    );
}

#[test]
fn value_pictures_reject_wrong_lengths_and_draw_non_finite_values() {
    let domain = GridWorld::builtin("2x3", GridWorldParams::default()).expect("valid");
    let error = domain.render_values_svg(&[0.0; 5], &[None; 6]);
    assert!(matches!(
        error,
        Err(Error::InvalidParameter {
            parameter: "values",
            ..
        })
    ));
    let error = domain.render_values_text(&[0.0; 6], &[None; 7]);
    assert!(matches!(
        error,
        Err(Error::InvalidParameter {
            parameter: "greedy_actions",
            ..
        })
    ));
    let values = [f64::NAN, f64::INFINITY, 0.0, -1.0, 0.0, 0.0];
    let elements = parsed(
        &domain
            .render_values_svg(&values, &[None; 6])
            .expect("a picture"),
    );
    assert!(with_class(&elements, "arrow").is_empty());
    assert_eq!(with_class(&elements, "cell").len(), 6);
}

#[test]
fn cartpole_picture_places_the_cart_and_tilts_the_pole() {
    let domain = CartPole::new(CartPoleParams::default()).expect("valid");
    let state = CartPoleState::from_array([1.2, 0.5, 0.1, -0.3]);
    let elements = parsed(&domain.render_svg(&state));
    for class in ["track", "cart", "pole", "axle", "caption"] {
        assert_eq!(with_class(&elements, class).len(), 1, "{class}");
    }
    assert_eq!(with_class(&elements, "threshold").len(), 2);
    // 600 pixels show [-2.4, 2.4]: x = 1.2 puts the cart's centre at 300 + 1.2 * 125.
    let cart = with_class(&elements, "cart")[0];
    assert_eq!(cart.number("x") + cart.number("width") / 2.0, 450.0);
    let pole = with_class(&elements, "pole")[0];
    assert!(pole.attribute("transform").contains(&format!(
        "rotate({})",
        (0.1f64.to_degrees() * 100.0).round() / 100.0
    )));
    let thresholds: Vec<f64> = with_class(&elements, "threshold")
        .iter()
        .map(|t| t.number("x1"))
        .collect();
    assert_eq!(thresholds, [0.0, 600.0]);

    let text = domain.render_text(&state);
    assert_eq!(text.lines().count(), 3);
    assert!(
        text.lines()
            .nth(1)
            .is_some_and(|track| track.find('C') == Some(31))
    );
    assert!(text.lines().next().is_some_and(|pole| pole.ends_with('/')));
}

#[test]
fn mountain_car_pictures_show_the_hill_flag_and_car() {
    let domain = MountainCar::new(MountainCarParams::default()).expect("valid");
    let continuous =
        MountainCarContinuous::new(MountainCarContinuousParams::default()).expect("valid");
    let pictures = [
        domain.render_svg(&MountainCarState {
            position: -0.5,
            velocity: 0.01,
        }),
        domain.render_svg(&MountainCarState {
            position: 0.3,
            velocity: 0.01,
        }),
        continuous.render_svg(&MountainCarContinuousState::float32(-0.5, 0.01)),
    ];
    let mut car_x = Vec::new();
    for picture in &pictures {
        let elements = parsed(picture);
        for class in ["hill", "flag-pole", "flag", "car", "caption"] {
            assert_eq!(with_class(&elements, class).len(), 1, "{class}");
        }
        let hill = with_class(&elements, "hill")[0];
        assert_eq!(hill.attribute("points").split(' ').count(), 101);
        let transform = with_class(&elements, "car")[0]
            .attribute("transform")
            .to_owned();
        let x: f64 = transform
            .trim_start_matches("translate(")
            .split(' ')
            .next()
            .and_then(|x| x.parse().ok())
            .expect("a translation");
        car_x.push(x);
    }
    // 600 pixels show [-1.2, 0.6]: position -0.5 is at 700 / 3 pixels.
    assert!((car_x[0] - 700.0 / 3.0).abs() < 0.01);
    assert!(car_x[1] > car_x[0]);
    assert_eq!(car_x[0], car_x[2]);
    // The flags of the two variants stand at their goals (0.5 and 0.45).
    let flag_x = |picture: &str| with_class(&parsed(picture), "flag-pole")[0].number("x1");
    assert!(flag_x(&pictures[0]) > flag_x(&pictures[2]));

    let text = domain.render_text(&MountainCarState {
        position: -1.2,
        velocity: 0.0,
    });
    assert!(text.starts_with("|C"));
    assert!(text.contains('F'));
}

#[test]
fn diverged_states_still_give_well_formed_pictures() {
    let cartpole = CartPole::new(CartPoleParams::default()).expect("valid");
    let state = CartPoleState::from_array([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e300]);
    parsed(&cartpole.render_svg(&state));
    assert_eq!(cartpole.render_text(&state).lines().count(), 3);
    let car = MountainCar::new(MountainCarParams::default()).expect("valid");
    let state = MountainCarState {
        position: f64::NAN,
        velocity: f64::INFINITY,
    };
    parsed(&car.render_svg(&state));
    assert_eq!(car.render_text(&state).lines().count(), 2);
    // Pictures of every state of a whole episode.
    let mut rng = NumpyGenerator::seed_from_u64(3);
    let mut state = cartpole.initial_state(Mode::Training, &mut rng);
    loop {
        parsed(&cartpole.render_svg(&state));
        let outcome = cartpole.step(&state, &1, Mode::Training, &mut rng);
        state = outcome.next_state;
        if outcome.terminated {
            break;
        }
    }
}
