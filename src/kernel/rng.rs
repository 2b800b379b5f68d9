//! The one seeded random generator of the platform.
//!
//! BALL itself has no chance (B11.9); the generator drives seeded bots and
//! `ball selfplay`, and the dice games (Gateball T4.5, G-ball G14.1) draw
//! their dice from it. It is SplitMix64 because the specs fix it: every
//! implementation must draw the same numbers from the same seed.

/// SplitMix64 with the die rule of Gateball T4.5 / G-ball G14.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub const fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The state to store in a position so that a game can resume its draws.
    pub const fn state(&self) -> u64 {
        self.state
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` by the high bits of the 128-bit product: the die
    /// rule without its `1 +`, so it is unbiased enough and needs no loop.
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// An n-sided die: `1 + ((output × n) >> 64)` (T4.5).
    pub fn die(&mut self, sides: u32) -> u32 {
        1 + self.below(sides as usize) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Check values fixed by Gateball T4.5.
    #[test]
    fn t4_5_check_values() {
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut r = SplitMix64::new(0);
        let dice: Vec<u32> = (0..6).map(|_| r.die(6)).collect();
        assert_eq!(dice, [6, 3, 1, 6, 1, 2]);
        let mut r = SplitMix64::new(42);
        let dice: Vec<u32> = (0..6).map(|_| r.die(6)).collect();
        assert_eq!(dice, [5, 1, 2, 3, 1, 6]);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix64::new(7);
        for n in 1..50 {
            for _ in 0..100 {
                assert!(r.below(n) < n);
            }
        }
    }
}
