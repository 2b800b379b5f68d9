//! Actions by kind: how often each kind of action was played in a game,
//! for every game alike, from the notation alone.
//!
//! The kind of an action is the first word of its notation text (`move`,
//! `lpass`, `end`, `shot`), or the first two for a `card …` action, whose
//! second word names the card (`card sprint`): a card is a rule of its
//! own, and one that is never played must show as such. No game is named
//! here; a game's notation is its interface (`Display` of its actions).
//!
//! **Cost.** The counting runs once per action of every lab game, where a
//! random player's action costs a fifth of a microsecond, so it writes
//! no action's text when it can help it. An action's text is a function
//! of its value, so a worker remembers the kind of each action it has met
//! (`Game::Action` is `Hash`; up to [`MAX_KNOWN`] of them) and counts a
//! known action by a lookup: a random run of the first game plays each of
//! its ~16,000 different actions some two dozen times. An action met for
//! the first time is written into a sink that keeps the kind and stops
//! the writer at the first space after it (`fmt::Error` ends `write!`
//! there), and a game's few kinds are found again by a linear search of a
//! short list. Nothing is assumed of how a game writes its actions: one
//! variant of an enum may start its text with different words (one that
//! holds a card, or a scripted action named by its own verb), so keying
//! by the variant alone, which was cheaper, would count wrong.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::{self, Write};
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::sync::Mutex;

/// The most actions a worker remembers the kind of: past it, a new action
/// is read from its text each time it is played. Some megabytes at most.
pub const MAX_KNOWN: usize = 1 << 17;

/// The word whose action is named by two words, the second its card's.
const CARD: &str = "card";

/// A `fmt::Write` that keeps the kind of what is written to it, then
/// refuses the rest. Words are split at spaces, as the notation writes
/// them; leading spaces are skipped.
struct Head<'a>(&'a mut String);

impl Write for Head<'_> {
    fn write_str(&mut self, mut s: &str) -> fmt::Result {
        loop {
            if self.0.is_empty() {
                s = s.trim_start_matches(' ');
            }
            let Some(i) = s.find(' ') else {
                self.0.push_str(s);
                return Ok(());
            };
            self.0.push_str(&s[..i]);
            if self.0 != CARD {
                return Err(fmt::Error);
            }
            self.0.push(' ');
            s = &s[i + 1..];
        }
    }
}

/// Writes the kind of `action` (its notation text) into `buf`.
fn kind_into(buf: &mut String, action: &dyn fmt::Display) {
    buf.clear();
    // The error is the sink's own stop signal, not a failure.
    let _ = write!(Head(buf), "{action}");
    // `card` followed by nothing (or by a second space) keeps no space.
    if buf.ends_with(' ') {
        buf.truncate(buf.trim_end_matches(' ').len());
    }
}

/// The kind of the action whose notation text is `text`.
pub fn kind_of(text: &str) -> String {
    let mut buf = String::new();
    kind_into(&mut buf, &text);
    buf
}

/// A kind of action. Borrowed from [`intern`] while a run counts, owned
/// when read back from a `--out` line.
pub type Kind = Cow<'static, str>;

/// A game's actions by kind, in the kinds' byte order.
pub type Kinds = BTreeMap<Kind, u32>;

/// The one copy of a kind for the whole process: a game's counts then
/// hold a pointer, not a string of their own. Few are ever made (one a
/// variant of a game's actions and one a card), so they are kept.
fn intern(kind: &str) -> &'static str {
    static KINDS: Mutex<BTreeSet<&'static str>> = Mutex::new(BTreeSet::new());
    // A panic elsewhere while the lock was held leaves the set whole.
    let mut kinds = KINDS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(&k) = kinds.get(kind) {
        return k;
    }
    let k: &'static str = Box::leak(kind.into());
    kinds.insert(k);
    k
}

/// A fast hasher for the small `Copy` values actions are, where std's
/// SipHash would cost more than the lookup saves: a derived `Hash` writes
/// an action's few small fields one by one, which this packs into words
/// and mixes once a word (FxHash's rotate, xor, multiply), with
/// SplitMix64's finalizer at the end. Only actions a game listed are
/// hashed, and a collision costs time, never a count: the map compares
/// the actions themselves.
#[derive(Default)]
struct ActionHasher {
    hash: u64,
    /// Bytes written and not yet mixed, and how many.
    pending: u64,
    bytes: u32,
}

impl ActionHasher {
    fn mix(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn push(&mut self, n: u64, width: u32) {
        if self.bytes + width > 8 {
            self.mix(self.pending);
            self.pending = 0;
            self.bytes = 0;
        }
        self.pending = self.pending << (8 * width) | n;
        self.bytes += width;
    }
}

impl Hasher for ActionHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.push(u64::from(b), 1);
        }
    }

    fn write_u8(&mut self, n: u8) {
        self.push(u64::from(n), 1);
    }

    fn write_u16(&mut self, n: u16) {
        self.push(u64::from(n), 2);
    }

    fn write_u32(&mut self, n: u32) {
        self.push(u64::from(n), 4);
    }

    fn write_u64(&mut self, n: u64) {
        self.mix(self.pending ^ (u64::from(self.bytes) << 59));
        self.pending = 0;
        self.bytes = 0;
        self.mix(n);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        let mut z = (self.hash.rotate_left(5) ^ self.pending ^ u64::from(self.bytes) << 59)
            .wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z ^ (z >> 31)
    }
}

/// Counts actions by kind, game after game on one worker: the kinds and
/// actions it has met stay known from one game to the next, which only
/// saves work (each game's counts are its own).
pub struct KindCounter<A> {
    /// The kind of the action being counted (reused: no allocation per
    /// action).
    buf: String,
    /// Each kind met, with its count in the current game, in the order
    /// met: a game has few.
    counts: Vec<(&'static str, u32)>,
    /// The index in `counts` of the kind counted last.
    last: usize,
    /// Each action met, with its kind's index in `counts`.
    known: HashMap<A, u32, BuildHasherDefault<ActionHasher>>,
}

impl<A> Default for KindCounter<A> {
    fn default() -> Self {
        KindCounter {
            buf: String::new(),
            counts: Vec::new(),
            last: 0,
            known: HashMap::default(),
        }
    }
}

impl<A: Copy + Eq + Hash + fmt::Display> KindCounter<A> {
    pub fn new() -> KindCounter<A> {
        KindCounter::default()
    }

    /// Counts one action.
    pub fn count(&mut self, action: &A) {
        if let Some(&i) = self.known.get(action) {
            self.counts[i as usize].1 += 1;
            return;
        }
        kind_into(&mut self.buf, action);
        let i = self.bump();
        if self.known.len() < MAX_KNOWN {
            // At most one kind a variant of a game's actions and one a
            // card: far below u32.
            self.known.insert(*action, i as u32);
        }
    }

    /// Counts one action whose text is at hand already (a record's line).
    pub fn count_text(&mut self, text: &str) {
        kind_into(&mut self.buf, &text);
        self.bump();
    }

    /// Counts the kind in `buf`; its index in `counts`.
    fn bump(&mut self) -> usize {
        // The last kind first: a coach often plays several of a kind in
        // a row.
        if let Some((k, n)) = self.counts.get_mut(self.last)
            && *k == self.buf
        {
            *n += 1;
            return self.last;
        }
        match self.counts.iter().position(|(k, _)| *k == self.buf) {
            Some(i) => {
                self.counts[i].1 += 1;
                self.last = i;
            }
            None => {
                self.last = self.counts.len();
                self.counts.push((intern(&self.buf), 1));
            }
        }
        self.last
    }

    /// Forgets the counts of a game cut short, keeping what the counter
    /// knows of kinds and variants.
    pub fn clear(&mut self) {
        for (_, n) in &mut self.counts {
            *n = 0;
        }
    }

    /// The game's counts by kind (the kinds it played), and a counter
    /// ready for the next game.
    pub fn take(&mut self) -> Kinds {
        let mut kinds = Kinds::new();
        for (k, n) in &mut self.counts {
            if *n > 0 {
                kinds.insert(Cow::Borrowed(*k), std::mem::take(n));
            }
        }
        kinds
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kind_is_the_first_word_or_two_for_a_card() {
        for (text, kind) in [
            ("move DEF3 G9", "move"),
            ("end", "end"),
            ("lpass ATK1 ATK5", "lpass"),
            ("card sprint ATK2 G7", "card sprint"),
            ("card switch", "card switch"),
            ("card", "card"),
            ("cardinal X", "cardinal"),
            ("  shot T1 N 8", "shot"),
            ("card  sprint", "card"),
            ("", ""),
        ] {
            assert_eq!(kind_of(text), kind, "{text:?}");
        }
    }

    /// A known action is counted by its value, a new one by its text,
    /// and one variant may print several kinds: a card variant may print
    /// `card ID` for a card and a scripted action's own verb.
    #[test]
    fn each_action_counts_as_its_own_texts_kind() {
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        enum A {
            Move(u8),
            Card(&'static str),
            End,
        }
        static WRITTEN: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        impl fmt::Display for A {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                WRITTEN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                match self {
                    A::Move(n) => write!(f, "move {n}"),
                    A::Card(c) if c.starts_with('!') => write!(f, "{} x", &c[1..]),
                    A::Card(c) => write!(f, "card {c} x"),
                    A::End => f.write_str("end"),
                }
            }
        }
        let mut c = KindCounter::new();
        for a in [
            A::Move(1),
            A::Card("sprint"),
            A::Move(2),
            A::Card("!dash"),
            A::End,
            A::Card("shove"),
            A::Card("sprint"),
            A::Card("!dash"),
            A::Move(1),
        ] {
            c.count(&a);
        }
        let written = WRITTEN.load(std::sync::atomic::Ordering::Relaxed);
        assert_eq!(written, 6, "each of the 6 actions written once");
        let counts: Vec<(Kind, u32)> = c.take().into_iter().collect();
        let want = [
            ("card shove", 1),
            ("card sprint", 2),
            ("dash", 2),
            ("end", 1),
            ("move", 3),
        ];
        assert_eq!(counts, want.map(|(k, n)| (Kind::from(k), n)));
        // The next game starts from 0, and counts only what it plays.
        c.count(&A::End);
        c.count(&A::End);
        let next: Vec<(Kind, u32)> = c.take().into_iter().collect();
        assert_eq!(next, [(Kind::from("end"), 2)]);
    }

    /// A writer that stops the sink early still counts: `write!` pieces
    /// arrive one at a time, the kind may span several.
    #[test]
    fn kinds_written_in_pieces_are_counted_by_kind() {
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        struct Pieces(&'static [&'static str]);
        impl fmt::Display for Pieces {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                for p in self.0 {
                    f.write_str(p)?;
                }
                Ok(())
            }
        }
        let mut c = KindCounter::new();
        c.count(&Pieces(&["ca", "rd ", "spr", "int", " ATK1"]));
        c.count_text("card sprint");
        c.count_text("mo ve");
        c.count_text("move DEF1 A1");
        c.count_text("end");
        c.count(&Pieces(&["mo", "ve", " DEF3 G9"]));
        let counts: Vec<(Kind, u32)> = c.take().into_iter().collect();
        let want = [("card sprint", 2), ("end", 1), ("mo", 1), ("move", 2)];
        assert_eq!(counts, want.map(|(k, n)| (Kind::from(k), n)));
    }
}
