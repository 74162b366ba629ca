//! Computer opponents for Stella (work in progress).
