//! GridWorld map parsing: tolerance of RLPy's file quirks, typed errors, and the built-in maps.

use std::path::{Path, PathBuf};

use rl_domains::Error;
use rl_domains::gridworld::{CellKind, GridCell, GridMap, MAX_MAP_CELLS};
use serde_json::Value;

fn reference_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/reference")
}

fn codes(map: &GridMap) -> Vec<Vec<u8>> {
    map.to_codes()
}

#[test]
fn tolerates_crlf_trailing_blanks_blank_lines_and_missing_final_newline() {
    let expected = vec![vec![0, 0, 3], vec![2, 1, 4]];
    for text in [
        "0 0 3\n2 1 4\n",
        "0 0 3\r\n2 1 4\r\n",
        "0 0 3  \n2 1 4 \t\n",
        "0 0 3\n2 1 4",
        "0 0 3\r\n2 1 4",
        "0 0 3\n2 1 4\n\n\n",
        "0 0 3\r\n2 1 4 \r\n  \r\n",
        "  0\t0 3\n\n2 1    4\n",
    ] {
        let map = GridMap::parse(text).unwrap_or_else(|error| panic!("{text:?}: {error}"));
        assert_eq!(codes(&map), expected, "{text:?}");
        assert_eq!(map.start(), GridCell::new(1, 0));
    }
}

#[test]
fn one_line_is_a_one_row_grid() {
    let map = GridMap::parse("0 2 3").expect("valid map");
    assert_eq!((map.rows(), map.cols()), (1, 3));
    assert_eq!(map.start(), GridCell::new(0, 1));
    assert_eq!(map.kind(GridCell::new(0, 2)), Some(CellKind::Goal));
    assert_eq!(map.kind(GridCell::new(1, 0)), None);
}

#[test]
fn start_is_the_first_start_cell_in_row_major_order() {
    let map = GridMap::parse("0 0 2\n2 0 3\n").expect("valid map");
    assert_eq!(map.start(), GridCell::new(0, 2));
}

#[test]
fn unknown_cell_code_names_line_and_column() {
    let error = GridMap::parse("0 0 0\n2 9 3\n").expect_err("code 9 is unknown");
    assert!(
        matches!(
            error,
            Error::UnknownCellCode {
                line: 2,
                column: 3,
                code: 9
            }
        ),
        "{error:?}"
    );
    let error = GridMap::parse("0 -1\n2 3").expect_err("code -1 is unknown");
    assert!(
        matches!(
            error,
            Error::UnknownCellCode {
                line: 1,
                column: 3,
                code: -1
            }
        ),
        "{error:?}"
    );
    assert!(error.to_string().contains("line 1, column 3"));
}

#[test]
fn agent_marker_is_rejected() {
    let error = GridMap::parse("2 0\r\n0  5\r\n").expect_err("the agent marker is display only");
    assert!(
        matches!(error, Error::AgentCellInMap { line: 2, column: 4 }),
        "{error:?}"
    );
}

#[test]
fn non_integer_tokens_name_line_and_column() {
    for (text, line, column, token) in [
        ("2 x 3", 1, 3, "x"),
        ("0 0\n2 1.5", 2, 3, "1.5"),
        ("\n\n  2 3 #", 3, 7, "#"),
        ("2 3\n0 0,", 2, 3, "0,"),
    ] {
        let error = GridMap::parse(text).expect_err("not an integer");
        match error {
            Error::InvalidMapToken {
                line: found_line,
                column: found_column,
                token: found_token,
            } => {
                assert_eq!((found_line, found_column), (line, column), "{text:?}");
                assert_eq!(found_token, token, "{text:?}");
            }
            other => panic!("{text:?}: unexpected {other:?}"),
        }
    }
}

#[test]
fn ragged_rows_name_the_line() {
    let error = GridMap::parse("0 0 0\n\n2 1\n").expect_err("ragged");
    assert!(
        matches!(
            error,
            Error::RaggedMapRow {
                line: 3,
                expected: 3,
                found: 2
            }
        ),
        "{error:?}"
    );
    let error = GridMap::parse("0 0\n2 1 3\n").expect_err("ragged");
    assert!(
        matches!(
            error,
            Error::RaggedMapRow {
                line: 2,
                expected: 2,
                found: 3
            }
        ),
        "{error:?}"
    );
}

#[test]
fn missing_start_and_empty_maps_are_errors() {
    assert!(matches!(
        GridMap::parse("0 0 3\n1 0 4\n"),
        Err(Error::MissingStartCell)
    ));
    for text in ["", "\n", "  \r\n\t\n"] {
        assert!(
            matches!(GridMap::parse(text), Err(Error::EmptyMap)),
            "{text:?}"
        );
    }
}

#[test]
fn files_are_read_and_missing_files_are_io_errors() {
    let map =
        GridMap::from_path(reference_dir().join("gridworld_maps/4x5.txt")).expect("a map file");
    assert_eq!(map, GridMap::builtin("4x5").expect("a built-in map"));
    let error = GridMap::from_path(reference_dir().join("gridworld_maps/no_such_map.txt"));
    assert!(matches!(error, Err(Error::Io { .. })));
}

#[test]
fn builtin_names_cover_the_shipped_maps() {
    let mut shipped: Vec<String> = std::fs::read_dir(reference_dir().join("gridworld_maps"))
        .expect("the map directory exists")
        .map(|entry| {
            entry
                .expect("a directory entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .filter_map(|name| name.strip_suffix(".txt").map(str::to_owned))
        .collect();
    shipped.sort();
    let mut names: Vec<String> = GridMap::builtin_names()
        .iter()
        .map(|name| (*name).to_owned())
        .collect();
    names.sort();
    assert_eq!(names, shipped);
    assert_eq!(names.len(), 14);
    assert!(matches!(
        GridMap::builtin("5x5"),
        Err(Error::UnknownBuiltinMap { name }) if name == "5x5"
    ));
    assert_eq!(
        GridMap::builtin("3x3.txt").expect("with extension"),
        GridMap::builtin("3x3").expect("without extension")
    );
}

#[test]
fn embedded_map_files_are_unchanged_copies() {
    let crate_maps = Path::new(env!("CARGO_MANIFEST_DIR")).join("maps");
    let mut files: Vec<String> = GridMap::builtin_names()
        .iter()
        .map(|name| format!("{name}.txt"))
        .collect();
    files.push("LICENSE-rlpy".to_owned());
    for file in files {
        let ours = std::fs::read(crate_maps.join(&file)).expect("the crate's copy");
        let reference = std::fs::read(reference_dir().join("gridworld_maps").join(&file))
            .expect("the reference file");
        assert_eq!(ours, reference, "{file}");
    }
}

fn grid_of(value: &Value) -> Vec<Vec<u8>> {
    value
        .as_array()
        .expect("a grid is a list of rows")
        .iter()
        .map(|row| {
            row.as_array()
                .expect("a row is a list")
                .iter()
                .map(|code| u8::try_from(code.as_u64().expect("a code")).expect("a small code"))
                .collect()
        })
        .collect()
}

fn start_of(value: &Value) -> GridCell {
    let start = value.as_array().expect("a start cell");
    let coordinate = |index: usize| {
        usize::try_from(start[index].as_u64().expect("a coordinate")).expect("a small coordinate")
    };
    GridCell::new(coordinate(0), coordinate(1))
}

#[test]
fn builtin_maps_equal_the_recorded_grids() {
    let text = std::fs::read_to_string(reference_dir().join("gridworld_deterministic.json"))
        .expect("reference");
    let json: Value = serde_json::from_str(&text).expect("valid JSON");
    let maps = json["maps"].as_object().expect("recorded maps");
    assert_eq!(maps.len(), 14);
    for (file_name, recorded) in maps {
        let map =
            GridMap::builtin(file_name).unwrap_or_else(|error| panic!("{file_name}: {error}"));
        assert_eq!(codes(&map), grid_of(&recorded["grid"]), "{file_name}");
        assert_eq!(map.start(), start_of(&recorded["start"]), "{file_name}");
        assert_eq!(
            Some(map.rows() as u64),
            recorded["rows"].as_u64(),
            "{file_name}"
        );
        assert_eq!(
            Some(map.cols() as u64),
            recorded["cols"].as_u64(),
            "{file_name}"
        );
        assert_eq!(
            Some(map.cell_count() as u64),
            recorded["states_num"].as_u64(),
            "{file_name}"
        );
    }

    for table in ["2x3", "3x5-Wall", "4x5"] {
        let path = reference_dir().join(format!("gridworld_table_{table}.json"));
        let text = std::fs::read_to_string(&path).expect("reference");
        let json: Value = serde_json::from_str(&text).expect("valid JSON");
        let name = json["map"].as_str().expect("a map name");
        let map = GridMap::builtin(name).expect("a built-in map");
        assert_eq!(codes(&map), grid_of(&json["grid"]), "{name}");
        assert_eq!(map.start(), start_of(&json["start"]), "{name}");
    }
}

#[test]
fn every_builtin_map_round_trips_through_display() {
    for name in GridMap::builtin_names() {
        let map = GridMap::builtin(name).expect("a built-in map");
        assert_eq!(
            GridMap::parse(&map.to_string()).expect("valid map"),
            map,
            "{name}"
        );
    }
}

#[test]
fn invisible_characters_are_shown_escaped() {
    // Issue 17: a byte-order mark or a control character in a map was printed invisibly.
    let error = GridMap::parse("\u{feff}2 0\n0 3").unwrap_err();
    assert_eq!(
        error.to_string(),
        "map line 1, column 1: `\\u{feff}2` is not an integer cell code"
    );
    let error = GridMap::parse("2 0\u{7}\n0 3").unwrap_err();
    assert_eq!(
        error.to_string(),
        "map line 1, column 3: `0\\u{7}` is not an integer cell code"
    );
    let error = GridMap::parse("2 0\u{200b}1\n0 3 1").unwrap_err();
    assert!(error.to_string().contains("`0\\u{200b}1`"), "{error}");
    // A no-break space separates cells, as in NumPy's `loadtxt`; in a map name it is escaped.
    let map = GridMap::parse("2\u{a0}0\n0 3").expect("a no-break space is whitespace");
    assert_eq!(map.cols(), 2);
    let error = GridMap::builtin("4x5\u{a0}").unwrap_err();
    assert_eq!(
        error.to_string(),
        "no built-in grid map is named `4x5\\u{a0}`"
    );
    // Visible text, quotes and non-ASCII letters are kept as written.
    let error = GridMap::parse("2 \"é\" 0").unwrap_err();
    assert!(error.to_string().contains("`\"é\"`"), "{error}");
}

#[test]
fn maps_above_the_cell_limit_are_refused() {
    assert_eq!(MAX_MAP_CELLS, 1 << 20);
    // One row of MAX_MAP_CELLS + 1 cells: the parser stops at the first cell too many.
    let mut text = "2 ".to_owned();
    text.push_str(&"0 ".repeat(MAX_MAP_CELLS));
    let error = GridMap::parse(&text).unwrap_err();
    assert!(
        matches!(error, Error::MapTooLarge { cells, limit } if cells == MAX_MAP_CELLS + 1 && limit == MAX_MAP_CELLS),
        "{error:?}"
    );
    assert!(
        error.to_string().contains("above the limit of 1048576"),
        "{error}"
    );
    // Exactly the limit is accepted.
    let mut cells = vec![CellKind::Empty; MAX_MAP_CELLS];
    cells[0] = CellKind::Start;
    assert!(GridMap::from_cells(1024, 1024, cells).is_ok());
    let error = GridMap::from_cells(usize::MAX, 2, vec![CellKind::Start]).unwrap_err();
    assert!(
        matches!(
            error,
            Error::MapTooLarge {
                cells: usize::MAX,
                ..
            }
        ),
        "{error:?}"
    );
}
