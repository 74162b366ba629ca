//! Random identifiers and secrets.

use rand::distributions::Alphanumeric;
use rand::Rng;

/// A random identifier of `len` letters and digits (for users, games, tables).
pub fn random_id(len: usize) -> String {
    rand::thread_rng()
        .sample_iter(&Alphanumeric)
        .take(len)
        .map(char::from)
        .collect()
}

/// A new session token: 32 random letters and digits (about 190 bits).
pub fn session_token() -> String {
    random_id(32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_alphanumeric_and_distinct() {
        let a = random_id(12);
        assert_eq!(a.len(), 12);
        assert!(a.chars().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(a, random_id(12));
        assert_eq!(session_token().len(), 32);
    }
}
