//! Before a fixture each coach names a match roster of up to nine
//! available players (G17.1), calling up replacements first when he is
//! short (G17.5). The bots' coach: call up until nine are available, then
//! field the best nine — most star areas first; with `morale` on (G15)
//! veterans before others of equal stars, since veterans in play lift
//! morale; then by squad place — numbered 1–9 in that order.

use super::squad::{self, Player};
use crate::games::gball::{Params, Roster};
use crate::kernel::rng::SplitMix64;

/// The largest match roster (G2.1).
pub const ROSTER: usize = 9;

/// G17.5: the replacements a coach short of nine available players calls
/// up, numbered on from the squad's last place.
pub fn call_ups(squad: &[Player], team: u32, rng: &mut SplitMix64) -> Vec<Player> {
    let available = squad.iter().filter(|p| p.available()).count();
    let next = squad.iter().map(|p| p.index + 1).max().unwrap_or(0);
    (0..ROSTER.saturating_sub(available) as u32)
        .map(|k| squad::call_up(team, next + k, rng))
        .collect()
}

/// The best available nine, best first: squad places.
pub fn best_nine(params: &Params, squad: &[Player]) -> Vec<u32> {
    let mut a: Vec<&Player> = squad.iter().filter(|p| p.available()).collect();
    a.sort_by_key(|p| {
        (
            std::cmp::Reverse(squad::areas(p.stars)),
            !(params.morale && p.veteran),
            p.index,
        )
    });
    a.into_iter().take(ROSTER).map(|p| p.index).collect()
}

/// A match roster from squad places: numbers 1, 2, … in the order
/// given. Refuses an unavailable or unknown player, a repeat, and more
/// than nine or none (G2.1, G17.1).
pub fn match_roster(squad: &[Player], chosen: &[u32]) -> Result<Vec<(Roster, u32)>, String> {
    if chosen.is_empty() || chosen.len() > ROSTER {
        return Err(format!(
            "a match roster has 1 to {ROSTER} players, not {} (G2.1, G17.1)",
            chosen.len()
        ));
    }
    let mut out = Vec::new();
    for (k, &i) in chosen.iter().enumerate() {
        let p = squad
            .iter()
            .find(|p| p.index == i)
            .ok_or_else(|| format!("no player {i} in the squad (G17.1)"))?;
        if !p.available() {
            return Err(format!(
                "{} is not available: injured, suspended or retired (G17.1, G17.6)",
                p.name
            ));
        }
        if chosen[..k].contains(&i) {
            return Err(format!("{} is named twice (G2.1)", p.name));
        }
        out.push((
            Roster {
                number: k as u8 + 1,
                stars: if p.veteran { 0 } else { p.stars },
                veteran: p.veteran,
            },
            i,
        ));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::gball::position::{STAR_C, STAR_J, STAR_T};

    fn squad() -> Vec<Player> {
        let mut rng = SplitMix64::new(5);
        (0..12)
            .map(|i| {
                let mut p = squad::call_up(1, i, &mut rng);
                p.stars = match i {
                    3 => STAR_J | STAR_C | STAR_T,
                    7 => STAR_C,
                    _ => 0,
                };
                p
            })
            .collect()
    }

    #[test]
    fn the_best_available_nine() {
        let mut s = squad();
        s[3].misses = 1;
        s[0].retired = true;
        let nine = best_nine(&Params::default(), &s);
        assert_eq!(nine, vec![7, 1, 2, 4, 5, 6, 8, 9, 10]);
        let r = match_roster(&s, &nine).unwrap();
        assert_eq!(r[0].0.number, 1);
        assert_eq!(r[0].0.stars, STAR_C);
        assert!(match_roster(&s, &[3]).unwrap_err().contains("not available"));
        assert!(match_roster(&s, &[1, 1]).unwrap_err().contains("twice"));
        assert!(match_roster(&s, &[]).is_err());
    }

    #[test]
    fn call_ups_fill_the_nine() {
        let mut s = squad();
        for p in s.iter_mut().take(6) {
            p.out_for_season = true;
        }
        // Six of twelve are out: six available, three called up.
        let c = call_ups(&s, 1, &mut SplitMix64::new(1));
        assert_eq!(c.len(), 3);
        assert_eq!(c.iter().map(|p| p.index).collect::<Vec<_>>(), [12, 13, 14]);
        s.truncate(10);
        assert_eq!(call_ups(&s, 1, &mut SplitMix64::new(1)).len(), 5);
    }
}
