//! The engine's output: whole lines, flushed, shared by the session and its jobs; error lines
//! kept readable however long the input they quote.

use super::*;

/// A line-oriented, flushed, shareable output.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Wraps a writer.
    pub fn new(writer: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(writer))))
    }

    /// Writes one line and flushes it. A closed output is ignored (the GUI went away).
    pub fn line(&self, text: &str) {
        let mut writer = match self.0.lock() {
            Ok(writer) => writer,
            Err(poisoned) => poisoned.into_inner(),
        };
        let _ = writeln!(writer, "{text}");
        let _ = writer.flush();
    }

    /// Writes `info string error: <message>`, with long quoted input shortened (see
    /// [`shorten_quoted`]).
    pub fn error(&self, message: &str) {
        let mut message = shorten_quoted(message);
        // Input repeated without quotes (a path in a file error) is cut as a whole.
        if message.len() > ERROR_MAX {
            message = cut_to(&message, ERROR_MAX);
        }
        self.line(&format!("info string error: {message}"));
    }
}

/// `text`'s first `keep` bytes (fewer, to end on a character), `...` and its length.
pub(super) fn cut_to(text: &str, keep: usize) -> String {
    let end = (0..=keep.min(text.len()))
        .rev()
        .find(|&at| text.is_char_boundary(at))
        .unwrap_or(0);
    format!("{}... ({} bytes)", &text[..end], text.len())
}

/// The longest error message written whole (after [`shorten_quoted`]).
pub(super) const ERROR_MAX: usize = 400;

/// The longest quoted input an error line repeats whole.
pub(super) const QUOTED_MAX: usize = 80;

/// `message` with every `'...'` quotation longer than `QUOTED_MAX` (80) bytes cut to its start,
/// `...` and its length, so that a megabyte of garbage comes back as a line a GUI can show,
/// and the reason after the quotation is kept.
///
/// ```
/// use tuzdik::protocol::shorten_quoted;
/// let long = format!("bad position '{}': no '/'", "9,".repeat(1000));
/// let short = shorten_quoted(&long);
/// assert!(short.len() < 120, "{short}");
/// assert!(short.ends_with("(2000 bytes)': no '/'"), "{short}");
/// assert_eq!(shorten_quoted("unknown command 'jump'"), "unknown command 'jump'");
/// ```
pub fn shorten_quoted(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(4 * QUOTED_MAX));
    let mut rest = message;
    while let Some(open) = rest.find('\'') {
        out.push_str(&rest[..=open]);
        rest = &rest[open + 1..];
        let Some(close) = rest.find('\'') else {
            break;
        };
        let quoted = &rest[..close];
        if quoted.len() > QUOTED_MAX {
            out.push_str(&cut_to(quoted, QUOTED_MAX / 2));
        } else {
            out.push_str(quoted);
        }
        out.push('\'');
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}
