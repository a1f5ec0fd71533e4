//! Episode videos: `rl render --episode` writes an animated GIF that decodes, with one frame
//! after the reset and one per step; `GifFiles` under `RecordVideo` writes one GIF per chosen
//! episode; bad flags are one-line errors that write nothing.

use std::path::{Path, PathBuf};

use rl_core::{Environment, Frame, Mode};
use rl_experiment::video::{EpisodeVideo, GifFiles, GifWriter, record_episode};
use rl_wrappers::pictures::RecordVideo;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rl-video-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The size, frame count and first frame's palette indices of a GIF file.
fn decode(path: &Path) -> (u16, u16, usize, Vec<u8>) {
    let file = std::fs::File::open(path).expect("the GIF exists");
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(file).expect("a GIF header");
    let (width, height) = (decoder.width(), decoder.height());
    let mut frames = 0;
    let mut first = Vec::new();
    while let Some(frame) = decoder.read_next_frame().expect("a GIF frame") {
        assert_eq!((frame.width, frame.height), (width, height));
        if frames == 0 {
            first = frame.buffer.to_vec();
        }
        frames += 1;
    }
    (width, height, frames, first)
}

fn run(args: &[&str]) -> (bool, String, String) {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let code = rl_experiment::cli::run_with_args(
        std::iter::once("rl").chain(args.iter().copied()),
        &mut out,
        &mut err,
    );
    (
        code == std::process::ExitCode::SUCCESS,
        String::from_utf8_lossy(&out).into_owned(),
        String::from_utf8_lossy(&err).into_owned(),
    )
}

#[test]
fn rl_render_episode_writes_a_gif_with_a_frame_per_step() {
    let dir = scratch("cli");
    let path = dir.join("cartpole.gif");
    let path_text = path.display().to_string();
    let (ok, out, err) = run(&[
        "render",
        "--domain",
        "CartPole-v1",
        "--episode",
        "--seed",
        "3",
        "--out",
        &path_text,
    ]);
    assert!(ok, "{err}");
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
    let (ok, _, err) = run(&[
        "render",
        "--domain",
        "CartPole-v1",
        "--episode",
        "--seed",
        "3",
        "--out",
        &again_text,
    ]);
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read(&path).expect("read"),
        std::fs::read(&again).expect("read")
    );
    let small = dir.join("small.gif");
    let small_text = small.display().to_string();
    let (ok, _, err) = run(&[
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
    assert!(ok, "{err}");
    let (width, height, frames, _) = decode(&small);
    assert_eq!((width, height, frames), (150, 100, 8));
}

#[test]
fn every_registered_id_records_an_episode() {
    let dir = scratch("ids");
    for id in rl_domains::registry::ids() {
        let path = dir.join(format!("{id}.gif"));
        let mut video = EpisodeVideo::new(id.clone());
        video.max_steps = Some(5);
        video.frame_size = Some((60, 40));
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
    let (ok, out, err) = run(&[
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
    assert!(ok, "{err}");
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
        let (ok, _, err) = run(&full);
        assert!(!ok, "{args:?}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!missing.exists(), "{args:?} wrote a file");
    }
    // The episode flags need --episode.
    let (ok, _, err) = run(&["render", "--agent", "random", "--out", &missing_text]);
    assert!(!ok);
    assert!(err.contains("required"), "{err}");
}

#[test]
fn gif_files_write_one_gif_per_recorded_episode() {
    let dir = scratch("folder");
    let domain = rl_domains::registry::build("MountainCarContinuous-v0", None).expect("an id");
    let env = domain.frame_environment(4).expect("frames");
    let sink = GifFiles::in_folder(dir.join("videos"), "hill", 30);
    let mut env = RecordVideo::new(env, sink, |episode| episode == 0 || episode == 2)
        .with_frame_size(30, 20)
        .expect("a valid size");
    let action = rl_spaces::AnyElement::Array(rl_spaces::AnyArray::F32(
        ndarray::arr1(&[0.5f32]).into_dyn(),
    ));
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
