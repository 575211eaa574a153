//! A tiny deterministic pseudo-random generator for randomised tests (xorshift64*), so the tests
//! need no extra dependency and every run replays the same sequence.

/// Marsaglia's xorshift64 followed by a multiplicative scramble (xorshift64*).
pub struct XorShift64 {
    state: u64,
}

impl XorShift64 {
    /// A generator from a fixed seed (a zero seed is replaced, since zero is a fixed point).
    pub fn new(seed: u64) -> Self {
        XorShift64 {
            state: if seed == 0 {
                0x9E37_79B9_7F4A_7C15
            } else {
                seed
            },
        }
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `0..bound` (`bound > 0`); the modulo bias is below 2⁻³² for test-sized bounds.
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }
}
