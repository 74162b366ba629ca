//! Accounts: names, passwords, sessions, guests.

mod names;
mod password;
mod session;

pub use names::{guest_name, validate_password, validate_username, ValidationError};
pub use password::{
    hash_password, hash_password_with, new_hash_memory, verify_password, verify_password_with,
    HashMemory, ARGON2_M_KIB, ARGON2_P, ARGON2_T,
};
pub use session::{clear_cookie, hash_token, session_cookie, SESSION_COOKIE, SESSION_TTL_MS};
