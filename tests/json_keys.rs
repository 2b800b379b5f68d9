//! Every JSON reader refuses an object with a key twice (serde_json's
//! `Value` would keep the last one without a word): a position of each
//! game with `"turn"` twice, a league export, a web request.

use ball::games::Module;
use ball::games::ball::Ball;
use ball::games::gateball::Gateball;
use ball::games::gball::Gball;
use ball::kernel::game::Title;

/// The start position of `G` with its `"turn"` field written twice.
fn turn_twice<G: Module>() {
    let game = G::build(&G::load_ruleset(G::DEFAULT_RULESET).unwrap()).unwrap();
    let (game, pos, _) = game.new_game(1);
    let text = game.write_position(&pos);
    assert!(
        game.read_position(&text).is_ok(),
        "{}: the start reads",
        G::NAME
    );
    let twice = text.replacen("\"turn\": ", "\"turn\": 7,\n  \"turn\": ", 1);
    assert_ne!(twice, text);
    let e = game
        .read_position(&twice)
        .err()
        .unwrap_or_else(|| panic!("{}: a position with \"turn\" twice was read", G::NAME));
    assert!(e.contains("duplicate key \"turn\""), "{}: {e}", G::NAME);
    assert!(!e.contains('\n'), "one line: {e}");
}

#[test]
fn json_a_ball_position_with_turn_twice_is_refused() {
    turn_twice::<Ball>();
}

#[test]
fn json_a_gateball_position_with_turn_twice_is_refused() {
    turn_twice::<Gateball>();
}

#[test]
fn json_a_gball_position_with_turn_twice_is_refused() {
    turn_twice::<Gball>();
}

#[test]
fn json_a_nested_key_twice_is_refused_too() {
    let game =
        Gateball::build(&Gateball::load_ruleset(Gateball::DEFAULT_RULESET).unwrap()).unwrap();
    let (game, pos, _) = game.new_game(1);
    let text = game.write_position(&pos);
    let twice = text.replacen("\"red\": ", "\"red\": 0, \"red\": ", 1);
    assert_ne!(twice, text);
    let Err(e) = game.read_position(&twice) else {
        panic!("a position with \"red\" twice in its score was read")
    };
    assert!(e.contains("duplicate key \"red\""), "{e}");
}
