//! `tuzdik datagen`, `tuzdik train` and the `EvalFile` option through the real binary: a small
//! run end to end, a resumed generation equal to an uninterrupted one, a net loaded and a bad
//! one refused, and clear errors for bad input.

mod common;

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

/// The engine's protocol session fed `input` on stdin: its stdout.
fn session(input: &str) -> String {
    common::run_script(input).join("\n")
}

/// The node count of a `bench` output's last line (`<nodes> nodes <nps> nps`).
fn bench_nodes(text: &str) -> u64 {
    let line = text
        .lines()
        .rev()
        .find(|line| line.ends_with(" nps"))
        .unwrap_or_else(|| panic!("no bench line in {text}"));
    line.split(' ').next().unwrap().parse().unwrap()
}

#[test]
fn evalfile_loads_a_net_refuses_a_bad_file_and_keeps_the_net_in_use() {
    let dir = scratch("evalfile");
    let net = dir.join("net.nnue");
    let network = tuzdik::nnue::Network::seeded(5);
    network.save(&net).unwrap();
    let hash = format!("{:016x}", network.hash());
    let junk = dir.join("junk.nnue");
    std::fs::write(&junk, b"not a net").unwrap();
    let mut damaged = std::fs::read(&net).unwrap();
    let last = damaged.len() - 1;
    damaged[last] ^= 1;
    let damaged_path = dir.join("damaged.nnue");
    std::fs::write(&damaged_path, damaged).unwrap();

    // By default the embedded net evaluates; `--hce` evaluates by hand.
    let embedded = format!("{:016x}", tuzdik::nnue::embedded().hash());
    let plain = tuzdik(&["bench", "3"]);
    assert!(String::from_utf8_lossy(&plain.stderr).contains(&format!("net {embedded} (embedded)")));
    let plain_nodes = bench_nodes(&String::from_utf8_lossy(&plain.stdout));
    let hce = tuzdik(&["bench", "3", "--hce"]);
    assert!(!String::from_utf8_lossy(&hce.stderr).contains("net "));
    let hce_nodes = bench_nodes(&String::from_utf8_lossy(&hce.stdout));
    assert_ne!(hce_nodes, plain_nodes, "the embedded net is not used");
    let with_net = tuzdik(&["bench", "3", "--evalfile", path(&net)]);
    assert!(with_net.status.success());
    assert!(String::from_utf8_lossy(&with_net.stderr).contains(&hash));
    let net_nodes = bench_nodes(&String::from_utf8_lossy(&with_net.stdout));
    assert_ne!(net_nodes, plain_nodes, "the net is not used");
    let again = tuzdik(&["bench", "3", "--evalfile", path(&net)]);
    assert_eq!(
        bench_nodes(&String::from_utf8_lossy(&again.stdout)),
        net_nodes
    );
    let refused = tuzdik(&["bench", "3", "--evalfile", path(&junk)]);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a tuzdik net file"));

    // Every bad file is refused with its reason, and the net loaded first stays in use.
    let out = session(&format!(
        "uci\nsetoption name EvalFile value {}\nsetoption name EvalFile value {}\n\
         setoption name EvalFile value {}\nsetoption name EvalFile value {}\n\
         setoption name EvalFile value {}\nbench 3\n",
        path(&net),
        path(&junk),
        path(&damaged_path),
        path(&dir.join("missing.nnue")),
        path(&dir),
    ));
    assert!(out.contains("option name EvalFile type string default <embedded>"));
    assert!(out.contains(&format!(
        "id name Tuzdik {} (net {})",
        env!("CARGO_PKG_VERSION"),
        &embedded[..8]
    )));
    assert!(out.contains(&format!("info string EvalFile: net {hash} from")));
    for reason in [
        "not a tuzdik net file",
        "does not match its weights' hash",
        "missing.nnue: No such file",
        "is not a regular file",
    ] {
        assert!(
            out.contains("info string error: EvalFile: ")
                && out
                    .lines()
                    .any(|line| line.contains(reason)
                        && line.contains("keeping the evaluation in use")),
            "{reason}: {out}"
        );
    }
    assert!(out.contains(&format!("info string bench net {hash}")));
    assert_eq!(bench_nodes(&out), net_nodes);

    // `<empty>` goes to the hand-crafted evaluation, `<embedded>` back to the built-in net.
    let out = session(&format!(
        "setoption name EvalFile value {}\nsetoption name EvalFile value <empty>\nbench 3\n",
        path(&net)
    ));
    assert!(out.contains("info string EvalFile: the hand-crafted evaluation"));
    assert!(!out.contains("bench net"));
    assert_eq!(bench_nodes(&out), hce_nodes);
    let out = session(
        "setoption name EvalFile value <empty>\nsetoption name EvalFile value <embedded>\nbench 3\n",
    );
    assert!(out.contains(&format!(
        "info string EvalFile: net {embedded} from <embedded>"
    )));
    assert!(out.contains(&format!("info string bench net {embedded}")));
    assert_eq!(bench_nodes(&out), plain_nodes);

    // `eval` gives the net's score beside the hand-crafted terms, for Toguz Kumalak only.
    let net_line = format!("Net {embedded}: ");
    let out =
        session("position startpos moves 8\neval\nsetoption name EvalFile value <empty>\neval\n");
    assert_eq!(out.matches("Total: ").count(), 2, "{out}");
    assert_eq!(out.matches(&net_line).count(), 1, "{out}");
    let out = session("setoption name UCI_Variant value kozdatu\neval\n");
    assert!(out.contains("Total: ") && !out.contains("Net "), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
