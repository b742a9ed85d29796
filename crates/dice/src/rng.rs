//! The seeded generator and how faces are read from it.
//!
//! # The method, fixed for every release
//!
//! A [`Seed`] is a `u64`. The generator is **ChaCha with 8 rounds** (`ChaCha8Rng` from the
//! `rand_chacha` crate), keyed with 32 bytes: the seed in little-endian order followed by 24 zero
//! bytes; nonce (stream) 0 and block counter 0. Faces are read from its keystream bytes in order
//! (the bytes `fill_bytes` gives; each `next_u64` word is the same bytes, least significant first).
//!
//! A face of a die with `s` sides (2 ≤ s ≤ 255) is read from the next byte `b`: bytes
//! `b ≥ 256 − (256 mod s)` are skipped (so every face is exactly equally likely), and otherwise the
//! face is `b mod s + 1`. For a d6 that skips bytes 252–255; a d4 and a d8 never skip.
//!
//! No library distribution is involved, so the faces for a seed depend only on the ChaCha8 key
//! stream, which is a fixed algorithm. The tests check the bytes against a ChaCha8 written from
//! the algorithm's definition, and pin the first faces of a few seeds.

use rand_chacha::ChaCha8Core;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::rand_core::block::Generator;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The seed of a roll: recorded with every roll so it can be replayed and verified.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Seed(pub u64);

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Anything dice faces can be read from: the seeded generator, or faces a caller supplies
/// (physical dice, or a worked example from the rules).
pub trait FaceSource {
    /// The next face of a die with `sides` sides, in `1..=sides`, or `None` when a supplied
    /// list of faces has run out or holds a face that such a die cannot show.
    fn next_face(&mut self, sides: u8) -> Option<u8>;
}

/// The seeded, reproducible generator of faces (see the module docs for the exact method).
#[derive(Debug, Clone)]
pub struct DiceRng {
    /// ChaCha8's block function and counter: `ChaCha8Rng` without a buffer of its own, so that
    /// the keystream goes straight into ours (a generator is made for every roll).
    chacha: ChaCha8Core,
    /// The next bytes of the keystream; `buffer[next..]` are unread.
    buffer: [u8; BUFFER],
    next: usize,
}

/// Bytes drawn from ChaCha at a time: four 64-byte blocks, what `rand_chacha` computes at once.
const BUFFER: usize = 256;
/// The same, in the 32-bit words ChaCha computes (each read least significant byte first).
const WORDS: usize = BUFFER / 4;

impl DiceRng {
    /// The generator for `seed`.
    pub fn new(seed: Seed) -> DiceRng {
        let mut key = [0u8; 32];
        key[..8].copy_from_slice(&seed.0.to_le_bytes());
        DiceRng {
            chacha: ChaCha8Core::from_seed(key),
            buffer: [0; BUFFER],
            next: BUFFER,
        }
    }

    /// The next byte of the stream.
    #[inline]
    pub fn next_byte(&mut self) -> u8 {
        if self.next == BUFFER {
            self.refill();
        }
        let byte = self.buffer[self.next];
        self.next += 1;
        byte
    }

    /// The next eight bytes of the stream as a number, the first byte least significant (as
    /// eight [`DiceRng::next_byte`] calls would give them, read at once when the buffer holds
    /// them).
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        match self.buffer.get(self.next..self.next + 8) {
            Some(bytes) => {
                let mut word = [0u8; 8];
                word.copy_from_slice(bytes);
                self.next += 8;
                u64::from_le_bytes(word)
            }
            None => (0..8).fold(0u64, |w, i| w | u64::from(self.next_byte()) << (8 * i)),
        }
    }

    #[cold]
    fn refill(&mut self) {
        let mut words = [0u32; WORDS];
        self.chacha.generate(&mut words);
        for (bytes, word) in self.buffer.chunks_exact_mut(4).zip(words) {
            bytes.copy_from_slice(&word.to_le_bytes());
        }
        self.next = 0;
    }

    /// Calls `take(byte)` on the next `count` bytes of the stream, in order: a faster path than
    /// [`DiceRng::next_byte`] for samplers.
    #[inline]
    pub(crate) fn read_bytes(&mut self, count: u32, mut take: impl FnMut(u8)) {
        for _ in 0..count {
            take(self.next_byte());
        }
    }

    /// A face of a die with `sides` sides (2 ≤ sides), uniformly in `1..=sides`.
    #[inline]
    pub fn face(&mut self, sides: u8) -> u8 {
        debug_assert!(sides >= 2);
        let limit = 256 - (256 % u16::from(sides));
        loop {
            let byte = self.next_byte();
            if u16::from(byte) < limit {
                return byte % sides + 1;
            }
        }
    }

    /// A six-sided die.
    #[inline]
    pub fn d6(&mut self) -> u8 {
        self.face(6)
    }
}

impl FaceSource for DiceRng {
    fn next_face(&mut self, sides: u8) -> Option<u8> {
        Some(self.face(sides))
    }
}

/// Faces supplied by the caller, read in order.
#[derive(Debug, Clone)]
pub struct GivenFaces<'a> {
    faces: &'a [u8],
    next: usize,
}

impl<'a> GivenFaces<'a> {
    /// Faces to be read in the given order.
    pub fn new(faces: &'a [u8]) -> GivenFaces<'a> {
        GivenFaces { faces, next: 0 }
    }

    /// How many faces have not been read.
    pub fn unused(&self) -> usize {
        self.faces.len() - self.next
    }
}

impl FaceSource for GivenFaces<'_> {
    fn next_face(&mut self, sides: u8) -> Option<u8> {
        let face = *self.faces.get(self.next)?;
        if face == 0 || face > sides {
            return None;
        }
        self.next += 1;
        Some(face)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn next_u64_reads_eight_bytes_little_endian_across_refills() {
        let mut words = DiceRng::new(Seed(3));
        let mut bytes = DiceRng::new(Seed(3));
        // 100 words cross the 256-byte buffer three times, and an odd byte shifts them.
        words.next_byte();
        bytes.next_byte();
        for _ in 0..100 {
            let expected = (0..8).fold(0u64, |w, i| w | u64::from(bytes.next_byte()) << (8 * i));
            assert_eq!(words.next_u64(), expected);
        }
    }

    #[test]
    fn faces_are_in_range_and_all_appear() {
        for sides in [2u8, 4, 6, 8, 20] {
            let mut rng = DiceRng::new(Seed(sides.into()));
            let mut seen = vec![0u32; usize::from(sides) + 1];
            for _ in 0..10_000 {
                let f = rng.face(sides);
                assert!((1..=sides).contains(&f));
                seen[usize::from(f)] += 1;
            }
            assert!(seen[1..].iter().all(|&n| n > 0), "d{sides}: {seen:?}");
        }
    }

    #[test]
    fn given_faces_refuse_impossible_faces_and_run_out() {
        let faces = [3, 7, 0];
        let mut given = GivenFaces::new(&faces);
        assert_eq!(given.next_face(6), Some(3));
        assert_eq!(given.next_face(6), None, "7 is not a d6 face");
        assert_eq!(given.next_face(8), Some(7));
        assert_eq!(given.next_face(8), None, "0 is never a face");
        assert_eq!(given.unused(), 1);
    }
}
