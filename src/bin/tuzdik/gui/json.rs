//! The few JSON shapes the page needs, written by hand: the answers are small and flat, and a
//! serde dependency would cost more compile time than these lines.

use std::fmt::Write as _;

/// `text` as a JSON string literal (the match runner's writer: one set of escapes).
pub fn quote(text: &str) -> String {
    tuzdik::matchrun::report::json_string(text)
}

/// A JSON array of already-written values.
pub fn array<I: IntoIterator<Item = String>>(items: I) -> String {
    let mut out = String::from("[");
    for (index, item) in items.into_iter().enumerate() {
        if index > 0 {
            out.push(',');
        }
        out.push_str(&item);
    }
    out.push(']');
    out
}

/// A JSON object built field by field.
#[derive(Default)]
pub struct Object {
    text: String,
}

impl Object {
    /// An empty object.
    pub fn new() -> Object {
        Object::default()
    }

    /// Adds a field whose value is already JSON (a number, `true`, an array, an object).
    pub fn raw(mut self, key: &str, value: impl std::fmt::Display) -> Object {
        self.text.push(if self.text.is_empty() { '{' } else { ',' });
        let _ = write!(self.text, "{}:{value}", quote(key));
        self
    }

    /// Adds a string field.
    pub fn string(self, key: &str, value: &str) -> Object {
        let quoted = quote(value);
        self.raw(key, quoted)
    }

    /// The finished object.
    pub fn finish(mut self) -> String {
        if self.text.is_empty() {
            self.text.push('{');
        }
        self.text.push('}');
        self.text
    }
}

/// A JSON `{"error": ...}` answer.
pub fn error(message: &str) -> String {
    Object::new().string("error", message).finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(quote("a\"b\\c\n\u{1}é"), "\"a\\\"b\\\\c\\n\\u0001é\"");
    }

    proptest::proptest! {
        #[test]
        fn a_quoted_string_has_no_raw_control_character_or_bare_quote(text in "\\PC*|[\\x00-\\x1f\"\\\\]*") {
            let quoted = quote(&text);
            proptest::prop_assert!(quoted.len() >= 2 && quoted.starts_with('"') && quoted.ends_with('"'));
            let inner = &quoted[1..quoted.len() - 1];
            proptest::prop_assert!(!inner.chars().any(|c| u32::from(c) < 0x20));
            let mut escaped = false;
            for c in inner.chars() {
                proptest::prop_assert!(escaped || c != '"', "a bare quote in {}", quoted);
                escaped = !escaped && c == '\\';
            }
        }
    }

    #[test]
    fn objects_and_arrays_nest() {
        let inner = Object::new().raw("n", 3).finish();
        let text = Object::new()
            .string("s", "x")
            .raw("list", array(vec!["1".to_string(), inner]))
            .finish();
        assert_eq!(text, r#"{"s":"x","list":[1,{"n":3}]}"#);
        assert_eq!(Object::new().finish(), "{}");
    }
}
