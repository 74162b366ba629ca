//! Validation of usernames and passwords, and generated guest names.

use rand::Rng;

/// Why a username or password was refused; the message says what to change.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValidationError {
    /// Too short or too long.
    #[error("username must be 3 to 20 characters long")]
    UsernameLength,
    /// Uses a character outside letters, digits, `_` and `-`.
    #[error(
        "username may contain only letters a-z, digits, '_' and '-', and must start with a letter"
    )]
    UsernameCharacters,
    /// Starts with `guest`, which is kept for generated guest names.
    #[error("usernames starting with 'guest' are reserved for guests")]
    UsernameReserved,
    /// Too short or too long.
    #[error("password must be 8 to 128 characters long")]
    PasswordLength,
    /// Same as the username.
    #[error("password must not be the username")]
    PasswordIsUsername,
}

/// Checks a username: 3–20 ASCII letters, digits, `_` or `-`, starting with a letter,
/// not starting with `guest`.
pub fn validate_username(name: &str) -> Result<(), ValidationError> {
    if !(3..=20).contains(&name.chars().count()) {
        return Err(ValidationError::UsernameLength);
    }
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic());
    if !first_ok
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(ValidationError::UsernameCharacters);
    }
    if name.to_ascii_lowercase().starts_with("guest") {
        return Err(ValidationError::UsernameReserved);
    }
    Ok(())
}

/// Checks a password: 8–128 characters, not the username.
pub fn validate_password(username: &str, password: &str) -> Result<(), ValidationError> {
    if !(8..=128).contains(&password.chars().count()) {
        return Err(ValidationError::PasswordLength);
    }
    if password.eq_ignore_ascii_case(username) {
        return Err(ValidationError::PasswordIsUsername);
    }
    Ok(())
}

/// A generated guest name such as `Guest-4821`.
pub fn guest_name() -> String {
    format!("Guest-{:06}", rand::thread_rng().gen_range(0..1_000_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usernames() {
        assert_eq!(validate_username("alice"), Ok(()));
        assert_eq!(validate_username("a_b-c9"), Ok(()));
        assert_eq!(
            validate_username("al"),
            Err(ValidationError::UsernameLength)
        );
        assert_eq!(
            validate_username(&"a".repeat(21)),
            Err(ValidationError::UsernameLength)
        );
        assert_eq!(
            validate_username("9lives"),
            Err(ValidationError::UsernameCharacters)
        );
        assert_eq!(
            validate_username("bob smith"),
            Err(ValidationError::UsernameCharacters)
        );
        assert_eq!(
            validate_username("zoë"),
            Err(ValidationError::UsernameCharacters)
        );
        assert_eq!(
            validate_username("GuestStar"),
            Err(ValidationError::UsernameReserved)
        );
    }

    #[test]
    fn passwords() {
        assert_eq!(validate_password("alice", "correct horse"), Ok(()));
        assert_eq!(
            validate_password("alice", "short"),
            Err(ValidationError::PasswordLength)
        );
        assert_eq!(
            validate_password("alice1234", "ALICE1234"),
            Err(ValidationError::PasswordIsUsername)
        );
    }

    #[test]
    fn guest_names_are_reserved_shape() {
        let g = guest_name();
        assert!(g.starts_with("Guest-") && g.len() == 12);
        assert_eq!(
            validate_username(&g),
            Err(ValidationError::UsernameReserved)
        );
    }
}
