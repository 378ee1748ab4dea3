//! Bearer tokens for writes, compared in constant time so the comparison does not tell an
//! attacker how many leading bytes were right.

use subtle::ConstantTimeEq;

pub fn token_matches(expected: &str, given: &str) -> bool {
    // ct_eq on slices of different lengths is false without comparing contents; the
    // length of the token is not the secret.
    bool::from(expected.as_bytes().ct_eq(given.as_bytes()))
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_the_exact_token_matches() {
        assert!(super::token_matches("s3cret", "s3cret"));
        assert!(!super::token_matches("s3cret", "s3cre"));
        assert!(!super::token_matches("s3cret", "s3creT"));
        assert!(!super::token_matches("s3cret", ""));
    }
}
