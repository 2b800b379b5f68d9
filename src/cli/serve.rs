//! `ball serve` and `ball gallery`: the web board and the card gallery
//! (`crate::web`).

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use super::UsageError;

/// Serve the board in a web browser: every game, shareable seat links.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Creating a game (on the home page, or POST /api/games) gives one secret link a seat and a read-only spectator link: a seat's link is the only way to act for it. A game created with \"listed\": true (the home page's \"list in the lobby\") keeps its second person's seat open in the lobby (GET /api/lobby) until one person claims it (POST /api/lobby/ID/join gives that seat's link to that person only); the README lists every route. Games are kept in one SQLite file (--db): a game is saved when it is created and after every action (what the action changed, not the whole game), before the server answers, and reloaded when the server starts again, even after a crash. A server that kept its games in a directory (--dir, before) moves them into the file with --import-dir DIR once. A full server (--max-games, or the scripts' memory of card games) answers 503 at once; a card game's Lua state is given back when the game ends or sits idle (--idle-secs) and rebuilt when it is next asked for.\n\nExamples:\n  ball serve\n  ball serve --port 0\n  ball serve --bind 0.0.0.0 --port 8080 --db /srv/ball-games.db\n  ball serve --db ball-games.db --import-dir ball-games\n\nExit status: 0 when stopped; 2 bad input (an address that cannot be bound, a file that is not a games file, a directory that cannot be read) with one line on stderr."
)]
pub struct ServeArgs {
    /// The address to listen on; 127.0.0.1 keeps the server to this
    /// machine, 0.0.0.0 shares it with the network.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: IpAddr,
    /// The port; 0 picks any free port (the real one is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// The SQLite file the games are kept in (made if missing).
    #[arg(long, default_value = "ball-games.db", value_name = "FILE")]
    pub db: PathBuf,
    /// Adds the games of a directory of `ID.record` and `ID.links` files
    /// (how servers kept games before --db) to the file first.
    #[arg(long, value_name = "DIR")]
    pub import_dir: Option<PathBuf>,
    /// Gone: games are kept in --db; --import-dir moves a directory's in.
    #[arg(long, value_name = "DIR", hide = true)]
    pub dir: Option<PathBuf>,
    /// A card game nobody asks for this long gives its Lua state back.
    #[arg(long, default_value_t = 300, value_name = "SECONDS", value_parser = clap::value_parser!(u64).range(1..=86_400))]
    pub idle_secs: u64,
    /// At most this many games at once.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_games: u64,
    /// Print the address as one JSON line, `{"url", "addr", "reloaded",
    /// "db"}`, for a script that started the server (with --port 0).
    #[arg(long)]
    pub json: bool,
}

pub fn serve(args: ServeArgs) -> Result<(), UsageError> {
    if let Some(dir) = &args.dir {
        return Err(UsageError(format!(
            "--dir is gone: games are kept in one SQLite file (--db FILE); `ball serve --import-dir {}` moves that directory's games into it",
            dir.display()
        )));
    }
    let server = crate::web::server::Server::start(crate::web::server::Config {
        addr: SocketAddr::new(args.bind, args.port),
        db: args.db.clone(),
        import_dir: args.import_dir.clone(),
        max_games: args.max_games as usize,
        idle: std::time::Duration::from_secs(args.idle_secs),
    })
    .map_err(UsageError)?;
    if let Some(dir) = &args.import_dir {
        eprintln!(
            "ball serve: {} game{} imported from {}",
            server.imported,
            if server.imported == 1 { "" } else { "s" },
            dir.display()
        );
    }
    for n in &server.notes {
        eprintln!("ball serve: not reloaded: {n}");
    }
    if args.json {
        let v = serde_json::json!({
            "url": format!("http://{}/", server.addr),
            "addr": server.addr.to_string(),
            "reloaded": server.reloaded,
            "db": args.db.display().to_string(),
        });
        println!("{v}");
    } else {
        println!(
            "ball serve: open http://{}/ ({} reloaded from {})",
            server.addr,
            crate::diagnostic::plural(server.reloaded as u64, "game"),
            args.db.display()
        );
    }
    server.wait();
    Ok(())
}

/// Write the card gallery of a ruleset as static files.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Every card of the ruleset with its name, costs, rules text, and the board before and after its `_works` scenario (tests/scenarios/card_<name>_works.scn), as index.html in DIR (written atomically). `ball serve` shows the same page at /gallery?ruleset=NAME.\n\nExamples:\n  ball gallery --out gallery\n  ball --ruleset cards gallery --out site/cards\n  ball --ruleset my-cards.toml gallery --out site/mine\n\nExit status: 0 ok; 2 bad input (a ruleset without cards, a directory that cannot be written)."
)]
pub struct GalleryArgs {
    /// The directory to write index.html into (made if missing).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
}

pub fn gallery(
    args: GalleryArgs,
    game_flag: Option<&str>,
    spec: Option<&str>,
) -> Result<(), UsageError> {
    let spec = spec.unwrap_or("cards");
    // `--game` must agree with the ruleset's game, as everywhere.
    super::commands::choose_game(None, game_flag, Some(spec))?;
    let page = crate::web::gallery::page_of(spec).map_err(UsageError)?;
    std::fs::create_dir_all(&args.out)
        .map_err(|e| UsageError(format!("cannot make `{}`: {e}", args.out.display())))?;
    crate::files::write_atomic(&args.out.join("index.html"), page.as_bytes())
        .map_err(UsageError)?;
    Ok(())
}
