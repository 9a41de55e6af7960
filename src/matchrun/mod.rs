//! Engine-vs-engine matches (in progress).
