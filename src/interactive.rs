//! Playing and analysing for people (in progress).
