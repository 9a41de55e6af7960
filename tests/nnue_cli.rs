//! `tuzdik datagen` and `tuzdik train` through the real binary: a small run end to end, a
//! resumed generation equal to an uninterrupted one, and clear errors for bad input.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn tuzdik(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tuzdik"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the tuzdik binary runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tuzdik-nnue-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn datagen_resumes_to_the_same_file_and_train_writes_a_loadable_net() {
    let dir = scratch("run");
    let whole = dir.join("whole.bin");
    let parts = dir.join("parts.bin");
    let common = ["--nodes", "200", "--seed", "5"];
    let run = |games: &str, threads: &str, out: &Path| {
        let mut args = vec![
            "datagen",
            "--games",
            games,
            "--threads",
            threads,
            "--out",
            path(out),
        ];
        args.extend_from_slice(&common);
        let output = tuzdik(&args);
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        output
    };
    run("4", "1", &whole);
    run("2", "2", &parts);
    let resumed = run("4", "2", &parts);
    assert!(String::from_utf8_lossy(&resumed.stderr).contains("continuing"));
    let bytes = std::fs::read(&whole).unwrap();
    assert!(!bytes.is_empty() && bytes.len().is_multiple_of(32));
    assert_eq!(bytes, std::fs::read(&parts).unwrap());

    let net = dir.join("net.nnue");
    let output = tuzdik(&[
        "train",
        "--data",
        path(&whole),
        "--out",
        path(&net),
        "--epochs",
        "2",
        "--batch",
        "64",
        "--threads",
        "2",
        "--val-percent",
        "25",
    ]);
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(report.contains("epoch 2: train loss"), "{report}");
    assert!(report.contains("validation loss"), "{report}");
    tuzdik::nnue::Network::load(&net).expect("the written net loads");
    assert!(dir.join("net.ckpt").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_gets_a_clear_error() {
    let dir = scratch("bad");
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, b"not records").unwrap();
    let net = dir.join("net.nnue");
    let output = tuzdik(&["train", "--data", path(&junk), "--out", path(&net)]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("whole number of 32-byte records"));
    assert!(!net.exists());

    let output = tuzdik(&[
        "train",
        "--data",
        path(&junk),
        "--out",
        path(&net),
        "--val-percent",
        "100",
    ]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("--val-percent 100"));

    let output = tuzdik(&[
        "datagen",
        "--games",
        "1",
        "--out",
        path(&dir.join("d.bin")),
        "--openings",
        "/nonexistent/book.txt",
    ]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("/nonexistent/book.txt"));

    let output = tuzdik(&["datagen", "--out", path(&dir.join("d.bin"))]);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--games"));
    std::fs::remove_dir_all(&dir).unwrap();
}
