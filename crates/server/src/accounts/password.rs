//! Password hashing: argon2id, version 0x13, m = 19 MiB, t = 2, p = 1 (the OWASP
//! minimum), a 16-byte random salt, stored as a PHC string.
//!
//! The `_with` functions take the 19 MiB working memory from the caller, so the server
//! can keep a fixed set of buffers (see `limits::HashGate`) instead of allocating one
//! per login attempt.

use argon2::password_hash::{Output, PasswordHash, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use rand::rngs::OsRng;

/// Memory cost in KiB.
pub const ARGON2_M_KIB: u32 = 19 * 1024;
/// Iterations.
pub const ARGON2_T: u32 = 2;
/// Parallelism.
pub const ARGON2_P: u32 = 1;

/// Working memory for one hash: the blocks argon2 fills.
pub type HashMemory = Vec<Block>;

fn params() -> Params {
    Params::new(ARGON2_M_KIB, ARGON2_T, ARGON2_P, None).expect("valid argon2 parameters")
}

/// A buffer big enough for one hash with the server's parameters.
pub fn new_hash_memory() -> HashMemory {
    vec![Block::default(); params().block_count()]
}

/// Makes `memory` hold at least `blocks` blocks.
fn fit(memory: &mut HashMemory, blocks: usize) -> &mut [Block] {
    if memory.len() < blocks {
        memory.resize(blocks, Block::default());
    }
    &mut memory[..blocks]
}

/// Hashes a password to a PHC string, with `memory` as argon2's working memory
/// (CPU-heavy: call it off the async threads).
pub fn hash_password_with(password: &str, memory: &mut HashMemory) -> String {
    let salt = SaltString::generate(&mut OsRng);
    let params = params();
    let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, params.clone());
    let mut salt_bytes = [0u8; 64];
    let salt_raw = salt
        .decode_b64(&mut salt_bytes)
        .expect("a fresh salt decodes");
    let len = params.output_len().unwrap_or(Params::DEFAULT_OUTPUT_LEN);
    let blocks = params.block_count();
    let output = Output::init_with(len, |out| {
        argon
            .hash_password_into_with_memory(password.as_bytes(), salt_raw, out, fit(memory, blocks))
            .map_err(|_| argon2::password_hash::Error::Password)
    })
    .expect("argon2 hashing with valid parameters");
    PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: (&params).try_into().expect("parameters render"),
        salt: Some(salt.as_salt()),
        hash: Some(output),
    }
    .to_string()
}

/// Whether `password` matches the stored PHC string (false for a malformed hash),
/// with `memory` as argon2's working memory. The comparison is constant-time.
pub fn verify_password_with(password: &str, phc: &str, memory: &mut HashMemory) -> bool {
    let Ok(parsed) = PasswordHash::new(phc) else {
        return false;
    };
    let (Some(expected), Some(salt)) = (parsed.hash, parsed.salt) else {
        return false;
    };
    let Ok(algorithm) = Algorithm::try_from(parsed.algorithm) else {
        return false;
    };
    let version = parsed
        .version
        .and_then(|v| Version::try_from(v).ok())
        .unwrap_or_default();
    let Ok(params) = Params::try_from(&parsed) else {
        return false;
    };
    // Refuse stored parameters far beyond the server's own: a hash is never allowed
    // to make the server allocate more than its configured working memory allows.
    if params.m_cost() > ARGON2_M_KIB || params.t_cost() > 16 || params.p_cost() > 4 {
        return false;
    }
    let mut salt_bytes = [0u8; 64];
    let Ok(salt_raw) = salt.decode_b64(&mut salt_bytes) else {
        return false;
    };
    let argon = Argon2::new(algorithm, version, params.clone());
    let blocks = params.block_count();
    let Ok(actual) = Output::init_with(expected.len(), |out| {
        argon
            .hash_password_into_with_memory(password.as_bytes(), salt_raw, out, fit(memory, blocks))
            .map_err(|_| argon2::password_hash::Error::Password)
    }) else {
        return false;
    };
    actual == expected
}

/// Hashes a password to a PHC string with freshly allocated working memory.
pub fn hash_password(password: &str) -> String {
    hash_password_with(password, &mut new_hash_memory())
}

/// Whether `password` matches the stored PHC string, with freshly allocated memory.
pub fn verify_password(password: &str, phc: &str) -> bool {
    verify_password_with(password, phc, &mut new_hash_memory())
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    #[test]
    fn hash_and_verify() {
        let h = hash_password("correct horse");
        assert!(h.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        assert!(verify_password("correct horse", &h));
        assert!(!verify_password("wrong horse", &h));
        assert!(!verify_password("x", "not a hash"));
        assert_ne!(h, hash_password("correct horse"), "salted");
    }

    #[test]
    fn agrees_with_the_argon2_crate_both_ways() {
        let reference = Argon2::new(Algorithm::Argon2id, Version::V0x13, params());
        let salt = SaltString::generate(&mut OsRng);
        let theirs = reference
            .hash_password(b"pass phrase", &salt)
            .expect("hash")
            .to_string();
        let mut memory = new_hash_memory();
        assert!(verify_password_with("pass phrase", &theirs, &mut memory));
        assert!(!verify_password_with("pass phrasE", &theirs, &mut memory));
        let ours = hash_password_with("pass phrase", &mut memory);
        let parsed = PasswordHash::new(&ours).expect("parses");
        assert!(reference.verify_password(b"pass phrase", &parsed).is_ok());
    }

    #[test]
    fn oversized_stored_parameters_are_refused() {
        let big = Params::new(ARGON2_M_KIB * 4, 1, 1, None).expect("params");
        let argon = Argon2::new(Algorithm::Argon2id, Version::V0x13, big);
        let salt = SaltString::generate(&mut OsRng);
        let h = argon.hash_password(b"pw", &salt).expect("hash").to_string();
        assert!(!verify_password_with("pw", &h, &mut new_hash_memory()));
    }
}
