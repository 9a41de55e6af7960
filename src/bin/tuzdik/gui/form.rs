//! The page sends its requests as URL-encoded forms (`URLSearchParams`), read here.

use std::collections::HashMap;

/// The fields of an `application/x-www-form-urlencoded` body or query string; a later field
/// of the same name wins.
pub fn parse(text: &str) -> HashMap<String, String> {
    text.split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(key), decode(value))
        })
        .collect()
}

/// Percent-decoding with `+` as a space; a malformed escape is kept as written.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'+' => out.push(b' '),
            b'%' if index + 2 < bytes.len()
                && bytes[index + 1].is_ascii_hexdigit()
                && bytes[index + 2].is_ascii_hexdigit() =>
            {
                out.push(hex_value(bytes[index + 1]) * 16 + hex_value(bytes[index + 2]));
                index += 2;
            }
            byte => out.push(byte),
        }
        index += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex_value(digit: u8) -> u8 {
    match digit {
        b'0'..=b'9' => digit - b'0',
        b'a'..=b'f' => digit - b'a' + 10,
        _ => digit - b'A' + 10,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_decoded() {
        let form = parse("fen=9%2C9+0&moves=76+87&empty=&bad=%zz%4%+1");
        assert_eq!(form["fen"], "9,9 0");
        assert_eq!(form["moves"], "76 87");
        assert_eq!(form["empty"], "");
        assert_eq!(form["bad"], "%zz%4% 1");
    }

    fn encode(text: &str) -> String {
        text.bytes()
            .map(|b| match b {
                b'a'..=b'z' | b'0'..=b'9' => (b as char).to_string(),
                b' ' => "+".to_string(),
                _ => format!("%{b:02X}"),
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn any_text_decodes_without_panicking(text in "\\PC*") {
            let _ = parse(&text);
        }

        #[test]
        fn encoded_fields_come_back_whole(key in "[a-z]{1,8}", value in "\\PC*") {
            let form = parse(&format!("{key}={}&other=1", encode(&value)));
            proptest::prop_assert_eq!(&form[&key], &value);
        }
    }

    #[test]
    fn multibyte_text_survives() {
        assert_eq!(parse("name=%C3%A9t%C3%A9")["name"], "été");
        assert_eq!(parse("name=é%")["name"], "é%");
    }
}
