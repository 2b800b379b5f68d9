//! The card gallery of a ruleset: every card with its name, costs and
//! rules text, and the board before and after its `_works` scenario
//! (`tests/scenarios/card_<id>_works.scn`, beside the shipped rulesets):
//! the position before the scenario's last action, with that action's
//! cells marked, and the position after it. Served at `/gallery` and
//! written by `ball gallery --out DIR`; the boards are the web board's
//! drawing (`Svg`).

use std::path::PathBuf;

use crate::games::{Module, Visit};
use crate::scenario::{Step, parse};
use crate::web::svg::{Marks, esc};

/// A card as the gallery lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Card {
    /// Its id: the scenario file is named by it.
    pub id: String,
    pub name: String,
    /// Its costs in words (`2 EP, 1 AP · once a game`).
    pub costs: String,
    pub text: String,
}

/// Where the shipped scenarios are: `tests/scenarios` beside the shipped
/// rulesets' folder.
fn scenarios_dir() -> PathBuf {
    let ruleset = crate::data::ruleset_path("standard");
    let root = ruleset
        .parent()
        .and_then(|d| d.parent())
        .map(PathBuf::from)
        .unwrap_or_default();
    root.join("tests").join("scenarios")
}

/// The gallery page of the ruleset `spec` (a shipped ruleset's name).
pub fn page(spec: &str) -> Result<String, String> {
    crate::web::table::check_ruleset_name(spec)?;
    page_of(spec)
}

/// The gallery of the ruleset `spec`, a shipped name or a file: the
/// command line's (`ball gallery`), which, unlike the server, may read
/// any file its user names.
pub fn page_of(spec: &str) -> Result<String, String> {
    let name = crate::data::game_of(spec);
    struct Build<'a>(&'a str);
    impl Visit for Build<'_> {
        type Output = Result<String, String>;
        fn visit<G: Module>(self) -> Self::Output {
            build::<G>(self.0)
        }
    }
    crate::games::visit(&name, Build(spec)).unwrap_or_else(|| Err(format!("no game `{name}`")))
}

fn build<G: Module>(spec: &str) -> Result<String, String> {
    let ruleset = G::load_ruleset(spec)?;
    let game = G::build(&ruleset)?;
    let cards = game.gallery_cards();
    if cards.is_empty() {
        return Err(format!("the ruleset `{spec}` has no cards"));
    }
    let dir = scenarios_dir();
    let mut body = format!(
        "<header><b>{}</b> · the cards of ruleset <b>{}</b> · {} cards · <a href=\"/\">home</a></header><main><div>",
        esc(G::TITLE),
        esc(spec),
        cards.len()
    );
    for c in &cards {
        body.push_str(&format!(
            "<section class=\"card\" id=\"card-{id}\"><h3>{name}</h3><p><i>{costs}</i></p><p>{text}</p>",
            id = esc(&c.id),
            name = esc(&c.name),
            costs = esc(&c.costs),
            text = esc(&c.text),
        ));
        let path = dir.join(format!("card_{}_works.scn", c.id));
        match scenario_boards(&game, &path) {
            Ok((title, before, after)) => body.push_str(&format!(
                "<p class=\"scenario\">{} <code>{}</code></p><div class=\"before-after\">{before}{after}</div>",
                esc(&title),
                esc(&path.file_name().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default()),
            )),
            Err(e) => body.push_str(&format!("<p class=\"missing\">no scenario: {}</p>", esc(&e))),
        }
        body.push_str("</section>");
    }
    body.push_str("</div></main>");
    Ok(crate::web::page::document(
        &format!("{} cards", spec),
        &body,
    ))
}

/// The scenario's title and the boards before and after its last action.
fn scenario_boards<G: Module>(
    game: &G,
    path: &std::path::Path,
) -> Result<(String, String, String), String> {
    let text = crate::files::read_text(path, crate::files::MAX_SCENARIO)?;
    let s = parse(&text, game).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut pos = s.start.clone();
    let mut last = None;
    for step in &s.steps {
        if let Step::Play(a) = step {
            let before = pos.clone();
            s.game
                .play(&mut pos, *a, &mut Vec::new())
                .map_err(|e| format!("{}: `{a}` was refused: {e}", path.display()))?;
            last = Some((before, *a));
        }
    }
    let Some((before, action)) = last else {
        return Err(format!("{}: no action", path.display()));
    };
    let cells: Vec<G::Cell> = s
        .game
        .choices(&before, action)
        .into_iter()
        .filter_map(|c| c.cell)
        .collect();
    let mut marks = Marks::none();
    marks.chosen = cells.clone();
    let b = s.game.svg(&before, &marks);
    let mut marks = Marks::none();
    marks.last = cells;
    let a = s.game.svg(&pos, &marks);
    Ok((format!("{} — before and after `{action}`", s.title), b, a))
}
