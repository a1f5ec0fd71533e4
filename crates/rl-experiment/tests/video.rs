//! Episode videos: `rl render --episode` writes an animated GIF that decodes, with one frame
//! after the reset and one per step; `GifFiles` under `RecordVideo` writes one GIF per chosen
//! episode; `rl render --episode --run` records a saved run's trained agent (trained again
//! from its configuration and seeds, checked against its saved results); bad flags are
//! one-line errors that write nothing.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use rl_core::{Environment, Frame, Mode};
use rl_experiment::video::{EpisodeVideo, GifFiles, GifWriter, record_episode};
use rl_wrappers::pictures::RecordVideo;

use crate::rl;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rl-video-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The size, frame count and first frame's palette indices of a GIF file. The first frame
/// covers the picture; each later one is a rectangle inside it, drawn over the picture before.
fn decode(path: &Path) -> (u16, u16, usize, Vec<u8>) {
    let (width, height, pictures) = decode_pictures(path);
    let first = pictures.first().cloned().unwrap_or_default();
    (width, height, pictures.len(), first)
}

/// The size of a GIF file and every picture it shows (palette indices), each frame's rectangle
/// drawn over the picture before (disposal "keep", as the writer sets).
fn decode_pictures(path: &Path) -> (u16, u16, Vec<Vec<u8>>) {
    let file = std::fs::File::open(path).expect("the GIF exists");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(file).expect("a GIF header");
    let (width, height) = (decoder.width(), decoder.height());
    let mut pictures: Vec<Vec<u8>> = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a GIF frame") {
        assert_eq!(frame.dispose, gif::DisposalMethod::Keep);
        let mut picture = match pictures.last() {
            Some(before) => before.clone(),
            None => {
                assert_eq!((frame.left, frame.top), (0, 0));
                assert_eq!((frame.width, frame.height), (width, height));
                vec![0; usize::from(width) * usize::from(height)]
            }
        };
        assert!(frame.left + frame.width <= width && frame.top + frame.height <= height);
        for row in 0..usize::from(frame.height) {
            let start =
                (usize::from(frame.top) + row) * usize::from(width) + usize::from(frame.left);
            let source = row * usize::from(frame.width);
            picture[start..start + usize::from(frame.width)]
                .copy_from_slice(&frame.buffer[source..source + usize::from(frame.width)]);
        }
        pictures.push(picture);
    }
    (width, height, pictures)
}

/// The delay of the first frame of a GIF file, in hundredths of a second.
fn first_delay(path: &Path) -> u16 {
    let file = std::fs::File::open(path).expect("the GIF exists");
    let mut decoder = gif::DecodeOptions::new()
        .read_info(file)
        .expect("a GIF header");
    decoder
        .read_next_frame()
        .expect("a GIF frame")
        .expect("one frame at least")
        .delay
}

#[test]
fn rl_render_gifs_play_at_the_ids_render_fps_by_default() {
    // The references' metadata["render_fps"]: 50 for CartPole (2 hundredths of a second a
    // frame), 4 for the toy text (25), 10 for MiniGrid (10), 50 for an id without one
    // (GridWorld); --fps overrides it.
    let dir = scratch("fps");
    for (id, fps, delay) in [
        ("CartPole-v1", None, 2),
        ("FrozenLake-v1", None, 25),
        ("MiniGrid-Empty-5x5-v0", None, 10),
        ("GridWorld-4x5", None, 2),
        ("MiniGrid-Empty-5x5-v0", Some("20"), 5),
    ] {
        let path = dir.join(format!("{id}.gif"));
        let path_text = path.display().to_string();
        let mut args = vec![
            "render",
            "--domain",
            id,
            "--episode",
            "--seed",
            "1",
            "--max-steps",
            "3",
            "--out",
            &path_text,
        ];
        if let Some(fps) = fps {
            args.extend(["--fps", fps]);
        }
        let (code, _, err) = rl(&args);
        assert_eq!(code, ExitCode::SUCCESS, "{id}: {err}");
        assert_eq!(first_delay(&path), delay, "{id} with --fps {fps:?}");
    }
}

#[test]
fn rl_render_episode_writes_a_gif_with_a_frame_per_step() {
    let dir = scratch("cli");
    let path = dir.join("cartpole.gif");
    let path_text = path.display().to_string();
    let (code, out, err) = rl(&[
        "render",
        "--domain",
        "CartPole-v1",
        "--episode",
        "--seed",
        "3",
        "--out",
        &path_text,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let (width, height, frames, first) = decode(&path);
    assert_eq!((width, height), (600, 400));
    // A random CartPole episode falls within a few dozen steps; the GIF has the reset's
    // frame and one per step, as the printed line says.
    let steps: usize = out
        .split(" steps")
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|count| count.parse().ok())
        .unwrap_or_else(|| panic!("no step count in {out:?}"));
    assert!(steps > 0 && steps < 500, "{out}");
    assert_eq!(frames, steps + 1, "{out}");
    assert!(out.contains(&format!("{frames} frames")), "{out}");
    // The first frame: white background at the top-left, black cart at its middle.
    let white = first[0];
    let cart_row = 299 * 600;
    let cart_column = (300.0 + 125.0 * 0.0) as usize;
    assert_ne!(first[cart_row + cart_column], white);

    // The same seed writes the same bytes; a smaller size and a step cap are obeyed.
    let again = dir.join("again.gif");
    let again_text = again.display().to_string();
    let (code, _, err) = rl(&[
        "render",
        "--domain",
        "CartPole-v1",
        "--episode",
        "--seed",
        "3",
        "--out",
        &again_text,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert_eq!(
        std::fs::read(&path).expect("read"),
        std::fs::read(&again).expect("read")
    );
    let small = dir.join("small.gif");
    let small_text = small.display().to_string();
    let (code, _, err) = rl(&[
        "render",
        "--domain",
        "MountainCar-v0",
        "--episode",
        "--size",
        "150x100",
        "--max-steps",
        "7",
        "--out",
        &small_text,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let (width, height, frames, _) = decode(&small);
    assert_eq!((width, height, frames), (150, 100, 8));
}

/// Every id's frames reach a GIF of the size asked, one frame per step and the reset's. Two
/// steps give the first frame and two frames stored as what changed since the one before, the
/// paths every later step takes again (five took this debug-built test 4 s more of CI's time,
/// drawing some 170 grids at full size three more times each).
#[test]
fn every_registered_id_records_an_episode() {
    let dir = scratch("ids");
    for id in rl_experiment::builtins::ids() {
        let path = dir.join(format!("{id}.gif"));
        let mut video = EpisodeVideo::new(id.clone());
        video.max_steps = Some(2);
        video.frame_size = Some((60, 40));
        if rl_mujoco::registry::IDS.contains(&id.as_str()) {
            // The MuJoCo ids draw no frames from Rust (the Python package draws them through
            // Gymnasium's renderer): refused, saying so, or, without the library, saying how
            // to get it.
            let error = record_episode(&video, &path).expect_err("no MuJoCo frames in Rust");
            let message = error.to_string();
            assert!(
                message.contains("draws no frames") || message.contains("pip install mujoco"),
                "{id}: {message}"
            );
            continue;
        }
        let recorded = record_episode(&video, &path).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(recorded.frames, recorded.steps + 1, "{id}");
        let (width, height, frames, _) = decode(&path);
        assert_eq!((width, height), (60, 40), "{id}");
        assert_eq!(frames as u64, recorded.frames, "{id}");
    }
}

#[test]
fn the_agent_flag_names_a_built_in_agent() {
    let dir = scratch("agent");
    let path = dir.join("grid.gif");
    let path_text = path.display().to_string();
    let (code, out, err) = rl(&[
        "render",
        "--domain",
        "GridWorld-4x5",
        "--episode",
        "--agent",
        "q-learning",
        "--max-steps",
        "4",
        "--out",
        &path_text,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(out.contains("q-learning"), "{out}");
    let (_, _, frames, _) = decode(&path);
    assert!((2..=5).contains(&frames), "{frames} frames");

    let missing = dir.join("missing.gif");
    let missing_text = missing.display().to_string();
    for (args, expected) in [
        (vec!["--agent", "nobody"], "nobody"),
        (vec!["--size", "0x10"], "0 x 10"),
        (vec!["--fps", "0"], "--fps"),
        (vec!["--agent-params", "[1]"], "--agent-params"),
    ] {
        let mut full = vec![
            "render",
            "--domain",
            "GridWorld-4x5",
            "--episode",
            "--out",
            &missing_text,
        ];
        full.extend(args.iter().copied());
        let (code, _, err) = rl(&full);
        assert_ne!(code, ExitCode::SUCCESS, "{args:?}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!missing.exists(), "{args:?} wrote a file");
    }
    // The episode flags need --episode.
    let (code, _, err) = rl(&["render", "--agent", "random", "--out", &missing_text]);
    assert_ne!(code, ExitCode::SUCCESS);
    assert!(err.contains("required"), "{err}");
}

/// The number before `word` in `line` (such as the `12` of `12 steps`).
fn number_before(line: &str, word: &str) -> f64 {
    line.split(word)
        .next()
        .and_then(|head| head.rsplit(' ').next())
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("no number before {word:?} in {line:?}"))
}

#[test]
fn a_saved_run_renders_its_trained_agent_greedily() {
    let dir = scratch("saved-run");
    let results = dir.join("grid");
    let results_text = results.display().to_string();
    let (code, _, err) = rl(&[
        "run",
        "--domain",
        "GridWorld-4x5",
        "--agent",
        "q-learning",
        "--max-steps",
        "3000",
        "--checks",
        "2",
        "--checks-per-policy",
        "3",
        "--runs",
        "2",
        "--threads",
        "1",
        "--out",
        &results_text,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let run_file = results.join("run-001.json");
    let saved = rl_experiment::results::read_run_file(&run_file).expect("a run file");
    let last_check = saved.checks.last().expect("checks").episode_return;
    assert!(last_check > 0.0, "the agent learned: {last_check}");

    let path = dir.join("trained.gif");
    let path_text = path.display().to_string();
    let run_text = run_file.display().to_string();
    let (code, out, err) = rl(&[
        "render",
        "--episode",
        "--run",
        &run_text,
        "--seed",
        "5",
        "--out",
        &path_text,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(
        out.contains("q-learning") && out.contains("GridWorld-4x5"),
        "{out}"
    );
    assert!(out.contains("(run 1)") && out.contains("greedy"), "{out}");
    let steps = number_before(&out, " steps");
    let episode_return: f64 = out
        .trim_end()
        .trim_end_matches(')')
        .rsplit(' ')
        .next()
        .and_then(|number| number.parse().ok())
        .unwrap_or_else(|| panic!("no return at the end of {out:?}"));
    // The trained greedy agent reaches the goal (RLPy's GridWorld caps episodes at 1000
    // steps, and the goal pays +1) in a few steps; the GIF has the reset's frame and one
    // per step.
    assert!(episode_return > 0.0 && steps < 100.0, "{out}");
    let (_, _, frames, _) = decode(&path);
    assert_eq!(frames as f64, steps + 1.0, "{out}");
    assert!(out.contains(&format!("{frames} frames")), "{out}");

    // The same episode again, bit for bit, from the directory (its run 0 this time, which
    // is trained on other seeds) and from the file.
    let again = dir.join("again.gif");
    let again_text = again.display().to_string();
    let (code, _, err) = rl(&[
        "render",
        "--episode",
        "--run",
        &run_text,
        "--seed",
        "5",
        "--out",
        &again_text,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert_eq!(std::fs::read(&path).ok(), std::fs::read(&again).ok());
    let from_directory = dir.join("run0.gif");
    let from_directory_text = from_directory.display().to_string();
    let (code, out, err) = rl(&[
        "render",
        "--episode",
        "--run",
        &results_text,
        "--out",
        &from_directory_text,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    assert!(
        out.contains("run-000.json") && out.contains("(run 0)"),
        "{out}"
    );
    let (_, _, frames, _) = decode(&from_directory);
    assert_eq!(frames as f64, number_before(&out, " steps") + 1.0, "{out}");

    // An edited run file is refused: training again does not give its results.
    let mut edited: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&run_file).expect("readable")).expect("JSON");
    edited["checks"][1]["return"] = serde_json::json!(-0.5);
    let edited_file = dir.join("edited.json");
    std::fs::write(&edited_file, edited.to_string()).expect("writable");
    let refused = dir.join("refused.gif");
    let refused_text = refused.display().to_string();
    let edited_text = edited_file.display().to_string();
    let (code, _, err) = rl(&[
        "render",
        "--episode",
        "--run",
        &edited_text,
        "--out",
        &refused_text,
    ]);
    assert_ne!(code, ExitCode::SUCCESS);
    assert!(
        err.contains("did not reproduce") && err.contains("policy check 1"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!refused.exists());

    // A path that is no run file, and flags that a saved run decides, are one-line errors.
    let not_a_run = dir.join("trained.gif").display().to_string();
    for args in [
        vec!["--run", not_a_run.as_str()],
        vec!["--run", "/nonexistent/run-000.json"],
        vec!["--run", run_text.as_str(), "--agent", "random"],
        vec!["--run", run_text.as_str(), "--domain", "CartPole-v1"],
    ] {
        let mut full = vec!["render", "--episode", "--out", &refused_text];
        full.extend(args.iter().copied());
        let (code, _, err) = rl(&full);
        assert_ne!(code, ExitCode::SUCCESS, "{args:?}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!refused.exists(), "{args:?}");
    }
    // --run needs --episode.
    let (code, _, err) = rl(&["render", "--run", &run_text, "--out", &refused_text]);
    assert_ne!(code, ExitCode::SUCCESS);
    assert!(err.contains("required"), "{err}");
}

#[test]
fn a_saved_run_with_discretised_torques_renders_its_pendulum_episode() {
    let dir = scratch("saved-pendulum");
    let results = dir.join("pendulum");
    let results_text = results.display().to_string();
    let (code, _, err) = rl(&[
        "run",
        "--domain",
        "Pendulum-v1",
        "--max-steps",
        "400",
        "--checks",
        "1",
        "--checks-per-policy",
        "1",
        "--runs",
        "1",
        "--out",
        &results_text,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    let saved =
        rl_experiment::results::read_run_file(&results.join("run-000.json")).expect("a run file");
    assert_eq!(
        saved.config.action_bins,
        Some(5),
        "rl run discretises Pendulum's torque"
    );
    let path = dir.join("pendulum.gif");
    let path_text = path.display().to_string();
    let (code, out, err) = rl(&[
        "render",
        "--episode",
        "--run",
        &results_text,
        "--size",
        "100x100",
        "--out",
        &path_text,
    ]);
    assert_eq!(code, ExitCode::SUCCESS, "{err}");
    // Pendulum's episodes last their 200 steps.
    let (width, height, frames, _) = decode(&path);
    assert_eq!((width, height, frames), (100, 100, 201), "{out}");
    assert!(out.contains("200 steps of Pendulum-v1"), "{out}");
}

#[test]
fn gif_files_write_one_gif_per_recorded_episode() {
    let dir = scratch("folder");
    let domain = rl_experiment::builtins::build("MountainCarContinuous-v0", None).expect("an id");
    let env = domain.frame_environment(4).expect("frames");
    let sink = GifFiles::in_folder(dir.join("videos"), "hill", 30);
    let mut env = RecordVideo::new(env, sink, |episode| episode == 0 || episode == 2)
        .with_frame_size(30, 20)
        .expect("a valid size");
    let action = rl_spaces::AnyElement::from(ndarray::arr1(&[0.5f32]).into_dyn());
    for steps in [3, 4, 2] {
        env.reset(Mode::Training).expect("reset");
        for _ in 0..steps {
            env.step(&action).expect("step");
        }
    }
    let (_, sink) = env.into_parts().expect("finished");
    let written: Vec<(String, u64)> = sink
        .written()
        .iter()
        .map(|(path, frames)| {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            (name.unwrap_or_default(), *frames)
        })
        .collect();
    assert_eq!(
        written,
        [
            ("hill-episode-0.gif".to_owned(), 4),
            ("hill-episode-2.gif".to_owned(), 3)
        ]
    );
    for (path, frames) in sink.written() {
        assert_eq!(decode(path).2 as u64, *frames);
    }
    assert!(!dir.join("videos/hill-episode-1.gif").exists());
}

#[test]
fn gif_writer_rejects_frames_of_another_size() {
    let mut gif = GifWriter::new(Vec::new(), 4, 3, 10).expect("a valid GIF");
    let frame = Frame::new(3, 4).expect("a valid frame");
    let error = gif.add_frame(&frame).expect_err("a wrong size");
    assert!(error.to_string().contains("3 x 4"), "{error}");
    assert!(GifWriter::new(Vec::new(), 70_000, 3, 10).is_err());
    assert!(GifWriter::new(Vec::new(), 4, 3, 0).is_err());
}

#[test]
fn gif_frames_store_what_changed_and_decode_to_every_picture() {
    let (width, height) = (6_u32, 4_u32);
    let mut gif = GifWriter::new(Vec::new(), width, height, 10).expect("a valid GIF");
    // A red pixel on white that moves, stays, moves again; then an all-black frame.
    let positions = [(0_u32, 0_u32), (3, 1), (3, 1), (5, 3)];
    for &(x, y) in &positions {
        let mut frame = Frame::new(width, height).expect("a frame");
        frame.pixels_mut().fill(255);
        let start = 3 * (y * width + x) as usize;
        frame.pixels_mut()[start..start + 3].copy_from_slice(&[255, 0, 0]);
        gif.add_frame(&frame).expect("a frame of the GIF's size");
    }
    let black = Frame::new(width, height).expect("a frame");
    gif.add_frame(&black).expect("a frame of the GIF's size");
    let bytes = gif.finish().expect("a GIF");
    let path = scratch("delta").join("delta.gif");
    std::fs::write(&path, &bytes).expect("write the GIF");

    // Each stored rectangle is what changed: all of the first frame, the old and new cells of
    // a move, one pixel for an unchanged frame, everything for the black one.
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes.as_slice()).expect("a GIF header");
    let mut rectangles = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a GIF frame") {
        rectangles.push((frame.left, frame.top, frame.width, frame.height));
    }
    assert_eq!(
        rectangles,
        [
            (0, 0, 6, 4),
            (0, 0, 4, 2),
            (0, 0, 1, 1),
            (3, 1, 3, 3),
            (0, 0, 6, 4)
        ]
    );

    // Composed, the frames give every picture.
    let (_, _, pictures) = decode_pictures(&path);
    assert_eq!(pictures.len(), 5);
    for (picture, &(x, y)) in pictures.iter().zip(&positions) {
        let marked = (y * width + x) as usize;
        let white = picture[usize::from(marked == 0)];
        for (index, value) in picture.iter().enumerate() {
            assert_eq!(
                *value != white,
                index == marked,
                "pixel {index} of {picture:?}"
            );
        }
    }
    assert!(pictures[4].iter().all(|value| *value == pictures[4][0]));
    assert_ne!(pictures[4][0], pictures[0][1], "black is not white");
}
