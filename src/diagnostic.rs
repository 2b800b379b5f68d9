//! A problem found in a ruleset, script or scenario, with where it is:
//! what `ball check` and `ball test` print, one a line, `file:line: …`.

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file as the user names it (relative to the data root for
    /// shipped files).
    pub file: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    pub message: String,
}

impl Problem {
    pub fn new(
        file: impl Into<String>,
        line: Option<usize>,
        message: impl Into<String>,
    ) -> Problem {
        Problem {
            file: file.into(),
            line,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file, self.message),
            None if self.file.is_empty() => f.write_str(&self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

/// A ruleset's problems as the one line a command that cannot use it
/// prints: the first, and how many more `ball check` would list.
pub fn first_of_ruleset(problems: &[Problem], spec: &str) -> String {
    let Some(first) = problems.first() else {
        return format!("ruleset `{spec}` is invalid");
    };
    match problems.len() {
        1 => first.to_string(),
        n => format!(
            "{first} (and {} more: `ball check --ruleset {spec}` lists them)",
            n - 1
        ),
    }
}

/// `a table`, `an integer`, `an 8-sided die`: a word or number with
/// the indefinite article its sound takes, for the words messages put
/// after "a" at run time (Lua type names, kinds, sizes). By its first
/// letter (a, e, i, o: "an"; u is "a unit"), or for a number by how it
/// is read (8…, 11, 18: "an").
pub fn a(word: &str) -> String {
    let digits: String = word.chars().take_while(char::is_ascii_digit).collect();
    let an = if digits.is_empty() {
        word.chars().next().is_some_and(|c| "aeioAEIO".contains(c))
    } else {
        digits.starts_with('8')
            || (digits.len() % 3 == 2 && (digits.starts_with("11") || digits.starts_with("18")))
    };
    format!("{} {word}", if an { "an" } else { "a" })
}

/// `once`, `twice`, `3 times`.
pub fn times(n: impl Into<u64>) -> String {
    match n.into() {
        1 => "once".into(),
        2 => "twice".into(),
        n => format!("{n} times"),
    }
}

/// `1 action`, `2 actions`: a count and a regular noun, in agreement.
pub fn plural(n: impl Into<u64>, noun: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The known word closest to `word`, when it is close enough to be a
/// likely typo ("did you mean …?").
pub fn did_you_mean<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|k| (edit_distance(word, k), k))
        .filter(|&(d, k)| d <= 2.max(k.len() / 4) && d < k.len())
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// [`did_you_mean`] as the tail of a message: `` (did you mean `x`?)``,
/// or nothing.
pub fn hint<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    did_you_mean(word, known)
        .map(|s| format!(" (did you mean `{s}`?)"))
        .unwrap_or_default()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions() {
        let keys = ["ap_per_turn", "turn_limit", "card_mode"];
        assert_eq!(did_you_mean("ap_per_trun", keys), Some("ap_per_turn"));
        assert_eq!(did_you_mean("cardmode", keys), Some("card_mode"));
        assert_eq!(did_you_mean("colour", keys), None);
    }
}
