use super::*;

#[test]
fn words_split_like_a_shell() {
    assert_eq!(
        split_words(r#"cmd="./eng --x 1" name=A 'option.Move Overhead=5' a\ b"#).unwrap(),
        vec!["cmd=./eng --x 1", "name=A", "option.Move Overhead=5", "a b"]
    );
    assert_eq!(
        split_words(r#""a\"b" '' c"#).unwrap(),
        vec!["a\"b", "", "c"]
    );
    assert!(split_words("cmd=\"open").is_err());
    assert!(split_words("x'").is_err());
    assert!(split_words("a\\").is_err());
}

#[test]
fn specs_parse_and_bad_ones_say_why() {
    let spec = EngineSpec::parse(
        r#"cmd="python3 fake.py crash 3" name=Bad dir=/tmp proto=ugi option.Hash=8 "option.Move Overhead=0""#,
    )
    .unwrap();
    assert_eq!(spec.command, vec!["python3", "fake.py", "crash", "3"]);
    assert_eq!(spec.name.as_deref(), Some("Bad"));
    assert_eq!(spec.proto, Proto::Ugi);
    assert_eq!(
        spec.options,
        vec![
            ("Hash".to_string(), "8".to_string()),
            ("Move Overhead".to_string(), "0".to_string())
        ]
    );
    assert_eq!(spec.program(), PathBuf::from("python3"));
    let local = EngineSpec::parse("cmd=./e dir=/opt/x").unwrap();
    assert_eq!(local.program(), PathBuf::from("/opt/x/./e"));
    for (bad, says) in [
        ("name=A", "cmd="),
        ("cmd=", "empty"),
        ("cmd=x proto=xboard", "proto"),
        ("cmd=x colour=red", "unknown key 'colour'"),
        ("cmd=x stray", "not key=value"),
        ("cmd=\"x", "unclosed"),
        ("cmd=x option.=1", "no name"),
    ] {
        let error = EngineSpec::parse(bad).unwrap_err();
        assert!(error.contains(says), "{bad}: {error}");
    }
}

#[test]
fn info_lines_give_score_and_depth() {
    let (mut score, mut depth) = (None, None);
    parse_info(
        "info depth 7 seldepth 9 score cp -52 nodes 10 pv 1 2",
        &mut score,
        &mut depth,
    );
    assert_eq!((score.as_deref(), depth), (Some("-0.52"), Some(7)));
    parse_info("info depth 9 score mate 3", &mut score, &mut depth);
    assert_eq!((score.as_deref(), depth), (Some("+M3"), Some(9)));
    parse_info("info string depth x score", &mut score, &mut depth);
    assert_eq!((score.as_deref(), depth), (Some("+M3"), Some(9)));
}

#[test]
fn long_lines_are_cut_and_bad_bytes_replaced() {
    let mut data = vec![b'a'; MAX_LINE_BYTES + 10];
    data.extend_from_slice(b"\nok\xff\r\nlast");
    let mut reader = BufReader::with_capacity(1000, &data[..]);
    assert_eq!(
        read_line_bounded(&mut reader).map(|l| l.len()),
        Some(MAX_LINE_BYTES)
    );
    assert_eq!(
        read_line_bounded(&mut reader).as_deref(),
        Some("ok\u{fffd}")
    );
    assert_eq!(read_line_bounded(&mut reader).as_deref(), Some("last"));
    assert_eq!(read_line_bounded(&mut reader), None);
}
