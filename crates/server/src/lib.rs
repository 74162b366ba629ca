//! Stella game server (work in progress).
