//! Squads and players (G17.1–G17.5): who a team has, who is available,
//! new teams on the star budget, season counts by d66, veterans by
//! season, call-ups. Plain values; the store keeps them (`schema`).

use crate::games::gball::Params;
use crate::games::gball::position::{STAR_C, STAR_J, STAR_T, stars_name};
use crate::kernel::rng::SplitMix64;

/// A player of a squad (G17.1). `team` and `index` (his place in the
/// squad, from 0, in order of joining) name him; names need not be
/// unique.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub team: u32,
    pub index: u32,
    pub name: String,
    /// Star bits, `position::STAR_J` … (G2.2).
    pub stars: u8,
    pub veteran: bool,
    /// His season count: 1 = rookie (G17.3).
    pub season: u32,
    /// Games still to miss (G17.6).
    pub misses: u32,
    /// Out for the rest of the season (a severe injury's 6, G17.6).
    pub out_for_season: bool,
    /// Retired: he has left the squad (G17.6) and is kept for the record.
    pub retired: bool,
}

impl Player {
    /// G17.1: may be named in a match roster.
    pub fn available(&self) -> bool {
        !self.retired && !self.out_for_season && self.misses == 0
    }

    /// The stars as the export lists them: `["J", "C"]`.
    pub fn star_list(&self) -> Vec<String> {
        stars_name(self.stars).chars().map(String::from).collect()
    }
}

/// A team of the league: its name; its squad is the players with its id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Team {
    pub id: u32,
    pub name: String,
}

/// How many areas a star set covers.
pub fn areas(stars: u8) -> usize {
    (stars & (STAR_J | STAR_C | STAR_T)).count_ones() as usize
}

/// G17.2: what a player's stars cost, by how many areas he has them in.
pub fn star_cost(params: &Params, stars: u8) -> u32 {
    match areas(stars) {
        0 => 0,
        n => params.star_cost[n - 1],
    }
}

/// G17.3: d66, two dice read as tens and units (11–66).
pub fn roll_d66(rng: &mut SplitMix64) -> u32 {
    rng.die(6) * 10 + rng.die(6)
}

/// G17.3: the season count a d66 roll gives; `None` for a number that
/// is not a d66 roll (a digit outside 1–6).
pub fn season_of_d66(d66: u32, veteran: bool) -> Option<u32> {
    let (tens, units) = (d66 / 10, d66 % 10);
    if !(1..=6).contains(&tens) || !(1..=6).contains(&units) || d66 > 66 {
        return None;
    }
    Some(if !veteran {
        match d66 {
            11..=26 => 1,
            31..=44 => 2,
            45..=56 => 3,
            _ => 4,
        }
    } else {
        match d66 {
            11..=32 => 5,
            33..=45 => 6,
            46..=55 => 7,
            56..=63 => 8,
            64..=65 => 9,
            _ => 10,
        }
    })
}

/// G17.4: from his 5th season on a player is a veteran and has no stars.
/// Returns whether this made him one.
pub fn apply_season_rule(p: &mut Player) -> bool {
    if p.season >= 5 && !p.veteran {
        p.veteran = true;
        p.stars = 0;
        return true;
    }
    if p.veteran {
        p.stars = 0;
    }
    false
}

const FIRST: &[&str] = &[
    "Ada", "Bram", "Cato", "Dara", "Emil", "Fen", "Gil", "Hale", "Ines", "Jory", "Kai", "Lena",
    "Milo", "Nia", "Oren", "Pia", "Quin", "Rhea", "Sol", "Tove", "Una", "Vik", "Wren", "Xan",
    "Yara", "Zed",
];
const LAST: &[&str] = &[
    "Vance", "Okoro", "Lund", "Marsh", "Quill", "Rook", "Stroud", "Tarn", "Vey", "Wick", "Ashby",
    "Brandt", "Coyle", "Drake", "Ezra", "Frost", "Grieve", "Holt", "Iver", "Jarl", "Kestrel",
    "Lark", "Moss", "Nox",
];
const CITIES: &[&str] = &[
    "Ceres", "Vesta", "Pallas", "Hygiea", "Juno", "Europa", "Io", "Ganymede", "Callisto",
    "Titan", "Rhea", "Iapetus", "Dione", "Tethys", "Enceladus", "Mimas", "Miranda", "Ariel",
    "Umbriel", "Oberon", "Titania", "Triton", "Nereid", "Phobos", "Deimos", "Luna", "Eros",
    "Psyche",
];
const NICKS: &[&str] = &[
    "Comets", "Spinners", "Vacuums", "Orbiters", "Drifters", "Rockets", "Tumblers", "Zeros",
];

/// A player's name, from the generator.
pub fn player_name(rng: &mut SplitMix64) -> String {
    format!(
        "{} {}",
        FIRST[rng.below(FIRST.len())],
        LAST[rng.below(LAST.len())]
    )
}

/// Team `i`'s name: distinct for every `i`.
pub fn team_name(i: usize) -> String {
    let city = CITIES[i % CITIES.len()];
    let nick = NICKS[i % NICKS.len()];
    match i / CITIES.len() {
        0 => format!("{city} {nick}"),
        k => format!("{city} {nick} {}", k + 1),
    }
}

/// G17.2: a new team's nine players. Up to `max_new_veterans` veterans
/// (no stars, G2.2); stars bought at random for the others while the
/// `budget` allows (a star is never moved from one area to another once
/// bought); each season count rolled as d66 on the player's table
/// (G17.3).
pub fn new_team(params: &Params, team: u32, rng: &mut SplitMix64) -> Vec<Player> {
    let veterans = rng.below(params.max_new_veterans.min(9) as usize + 1);
    let mut players: Vec<Player> = (0..9u32)
        .map(|i| {
            let veteran = (i as usize) >= 9 - veterans;
            let season = season_of_d66(roll_d66(rng), veteran).expect("a d66 roll");
            Player {
                team,
                index: i,
                name: player_name(rng),
                stars: 0,
                veteran,
                season,
                misses: 0,
                out_for_season: false,
                retired: false,
            }
        })
        .collect();
    let mut left = params.budget;
    // Buying: 40 tries of a random star for a random non-veteran; a star
    // too dear for what is left is not bought.
    let buyers = 9 - veterans;
    if buyers > 0 {
        for _ in 0..40 {
            let p = rng.below(buyers);
            let star = [STAR_J, STAR_C, STAR_T][rng.below(3)];
            let have = players[p].stars;
            if have & star != 0 {
                continue;
            }
            let extra = star_cost(params, have | star) - star_cost(params, have);
            if extra <= left {
                left -= extra;
                players[p].stars |= star;
            }
        }
    }
    players
}

/// What a new team's squad spends on stars (G17.2).
pub fn spent(params: &Params, players: &[Player]) -> u32 {
    players.iter().map(|p| star_cost(params, p.stars)).sum()
}

/// G17.5: a replacement called up: no stars, not a veteran, his season
/// count rolled as d66 on the table of non-veterans (G17.3).
pub fn call_up(team: u32, index: u32, rng: &mut SplitMix64) -> Player {
    let season = season_of_d66(roll_d66(rng), false).expect("a d66 roll");
    Player {
        team,
        index,
        name: player_name(rng),
        stars: 0,
        veteran: false,
        season,
        misses: 0,
        out_for_season: false,
        retired: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn d66_tables_at_their_boundaries() {
        let rookie = [(11, 1), (26, 1), (31, 2), (44, 2), (45, 3), (56, 3), (61, 4), (66, 4)];
        for (d, s) in rookie {
            assert_eq!(season_of_d66(d, false), Some(s), "{d}");
        }
        let vet = [
            (11, 5),
            (32, 5),
            (33, 6),
            (45, 6),
            (46, 7),
            (55, 7),
            (56, 8),
            (63, 8),
            (64, 9),
            (65, 9),
            (66, 10),
        ];
        for (d, s) in vet {
            assert_eq!(season_of_d66(d, true), Some(s), "{d}");
        }
        for bad in [0, 10, 17, 27, 70, 67] {
            assert_eq!(season_of_d66(bad, false), None, "{bad}");
        }
    }

    #[test]
    fn new_teams_keep_the_budget_and_the_veteran_limit() {
        let params = Params::default();
        for seed in 0..300 {
            let mut rng = SplitMix64::new(seed);
            let t = new_team(&params, 1, &mut rng);
            assert_eq!(t.len(), 9);
            assert!(spent(&params, &t) <= params.budget, "seed {seed}");
            let vets = t.iter().filter(|p| p.veteran).count();
            assert!(vets <= params.max_new_veterans as usize, "seed {seed}");
            for p in &t {
                assert!(!p.veteran || p.stars == 0);
                assert_eq!(p.veteran, p.season >= 5, "G17.3/G17.4: seed {seed}");
            }
        }
        let cheap = Params {
            budget: 0,
            max_new_veterans: 0,
            ..Params::default()
        };
        let t = new_team(&cheap, 1, &mut SplitMix64::new(1));
        assert!(t.iter().all(|p| p.stars == 0 && !p.veteran));
    }

    #[test]
    fn the_fifth_season_makes_a_veteran_without_stars() {
        let mut p = call_up(0, 0, &mut SplitMix64::new(3));
        p.stars = STAR_J | STAR_T;
        p.season = 4;
        assert!(!apply_season_rule(&mut p));
        assert_eq!(p.stars, STAR_J | STAR_T);
        p.season = 5;
        assert!(apply_season_rule(&mut p));
        assert!(p.veteran);
        assert_eq!(p.stars, 0);
    }

    #[test]
    fn call_ups_have_no_stars_and_are_no_veterans() {
        for seed in 0..50 {
            let p = call_up(2, 11, &mut SplitMix64::new(seed));
            assert_eq!((p.stars, p.veteran, p.team, p.index), (0, false, 2, 11));
            assert!((1..=4).contains(&p.season));
        }
    }

    #[test]
    fn star_costs_by_areas() {
        let p = Params::default();
        assert_eq!(star_cost(&p, 0), 0);
        assert_eq!(star_cost(&p, STAR_C), 20);
        assert_eq!(star_cost(&p, STAR_J | STAR_C), 60);
        assert_eq!(star_cost(&p, STAR_J | STAR_C | STAR_T), 100);
        // G2.3's standard roster spends exactly the budget.
        let standard = [STAR_J | STAR_C, STAR_T, STAR_C, STAR_J, STAR_T];
        assert_eq!(standard.iter().map(|&s| star_cost(&p, s)).sum::<u32>(), 140);
    }
}
