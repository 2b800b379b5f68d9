//! Fixtures and seasons (G17.8, G17.9): a season is `games_per_season`
//! rounds of a round robin (the circle method; each cycle the home and
//! away of the one before swap), every team playing once a round (with an
//! odd number of teams one rests each round). Fixtures are numbered from
//! 1 across seasons; each fixture's dice come from the league seed and
//! its number alone ([`fixture_seed`]).

use crate::kernel::rng::SplitMix64;

/// A fixture and, once played, its result (`result::Played`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixture {
    pub number: u32,
    pub season: u32,
    pub round: u32,
    /// Team ids. The home team plays as RED (G17.9).
    pub home: u32,
    pub away: u32,
    /// G17.9: declared neutral (the ruleset's `venue = "neutral"`): the
    /// coin picks each set's home team (G3.3); `home` is then only the
    /// team listed first, playing as RED.
    pub neutral: bool,
    pub played: Option<super::result::Played>,
}

/// The seed of fixture `number`: a function of the league seed and the
/// number alone, so a fixture plays the same whoever plays it, in any
/// order, on any thread.
pub fn fixture_seed(league_seed: u64, number: u32) -> u64 {
    let mut r = SplitMix64::new(league_seed ^ u64::from(number).wrapping_mul(0xA24B_AED4_963E_E407));
    r.next_u64()
}

/// The pairs of round `r` (from 0) of a round robin of the teams `ids`
/// (in order), by the circle method: `(home, away)`.
pub fn round_pairs(ids: &[u32], r: u32) -> Vec<(u32, u32)> {
    let mut slots: Vec<Option<u32>> = ids.iter().copied().map(Some).collect();
    if slots.len() % 2 == 1 {
        slots.push(None);
    }
    let n = slots.len();
    if n < 2 {
        return Vec::new();
    }
    let rounds = (n - 1) as u32;
    let cycle = r / rounds;
    let k = (r % rounds) as usize;
    // Fix slot 0, rotate the rest by k.
    let rest: Vec<Option<u32>> = (0..n - 1).map(|i| slots[1 + (i + n - 1 - k) % (n - 1)]).collect();
    let mut order = vec![slots[0]];
    order.extend(rest);
    let mut pairs = Vec::new();
    for i in 0..n / 2 {
        let (a, b) = (order[i], order[n - 1 - i]);
        if let (Some(a), Some(b)) = (a, b) {
            // Alternate who is at home, so no team is always home.
            let (h, w) = if (i + k).is_multiple_of(2) { (a, b) } else { (b, a) };
            pairs.push(if cycle.is_multiple_of(2) { (h, w) } else { (w, h) });
        }
    }
    pairs
}

/// The fixtures of season `season` (from 1), numbered from `first`.
/// Rounds continue the round robin where the season before stopped.
pub fn season_fixtures(
    ids: &[u32],
    season: u32,
    games_per_season: u32,
    first: u32,
    neutral: bool,
) -> Vec<Fixture> {
    let mut out = Vec::new();
    let mut number = first;
    for round in 1..=games_per_season {
        let r = (season - 1) * games_per_season + (round - 1);
        for (home, away) in round_pairs(ids, r) {
            out.push(Fixture {
                number,
                season,
                round,
                home,
                away,
                neutral,
                played: None,
            });
            number += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_team_plays_once_a_round_and_everyone_meets() {
        for n in 2..=9u32 {
            let ids: Vec<u32> = (1..=n).collect();
            let rounds = if n % 2 == 0 { n - 1 } else { n };
            let mut met = std::collections::HashSet::new();
            for r in 0..rounds {
                let pairs = round_pairs(&ids, r);
                assert_eq!(pairs.len() as u32, n / 2);
                let mut seen = std::collections::HashSet::new();
                for &(h, a) in &pairs {
                    assert!(seen.insert(h) && seen.insert(a), "n {n} round {r}");
                    met.insert((h.min(a), h.max(a)));
                }
            }
            assert_eq!(met.len() as u32, n * (n - 1) / 2, "n {n}");
        }
    }

    #[test]
    fn seeds_depend_on_the_number_alone() {
        assert_eq!(fixture_seed(7, 3), fixture_seed(7, 3));
        assert_ne!(fixture_seed(7, 3), fixture_seed(7, 4));
        assert_ne!(fixture_seed(7, 3), fixture_seed(8, 3));
    }

    #[test]
    fn a_season_has_its_rounds() {
        let f = season_fixtures(&[1, 2, 3, 4], 2, 5, 11, false);
        assert_eq!(f.len(), 10);
        assert_eq!(f[0].number, 11);
        assert!(f.iter().all(|x| x.season == 2 && (1..=5).contains(&x.round)));
    }
}
