//! Password hashing: argon2id, version 0x13, m = 19 MiB, t = 2, p = 1 (the OWASP
//! minimum), a 16-byte random salt, stored as a PHC string.

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use rand::rngs::OsRng;

/// Memory cost in KiB.
pub const ARGON2_M_KIB: u32 = 19 * 1024;
/// Iterations.
pub const ARGON2_T: u32 = 2;
/// Parallelism.
pub const ARGON2_P: u32 = 1;

fn hasher() -> Argon2<'static> {
    let params =
        Params::new(ARGON2_M_KIB, ARGON2_T, ARGON2_P, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password to a PHC string (CPU-heavy: call it off the async threads).
pub fn hash_password(password: &str) -> String {
    let salt = SaltString::generate(&mut OsRng);
    hasher()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashing with valid parameters")
        .to_string()
}

/// Whether `password` matches the stored PHC string (false for a malformed hash).
pub fn verify_password(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(parsed) => hasher()
            .verify_password(password.as_bytes(), &parsed)
            .is_ok(),
        Err(_) => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_and_verify() {
        let h = hash_password("correct horse");
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong horse", &h));
        assert!(!verify_password("x", "not a hash"));
        assert_ne!(h, hash_password("correct horse"), "salted");
    }
}
