//! `ball serve` and `ball gallery`: the web board and the card gallery
//! (`crate::web`).

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use super::UsageError;

/// Serve the board in a web browser: every game, shareable seat links.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Creating a game (on the home page, or POST /api/games) gives one secret link a seat and a read-only spectator link: a seat's link is the only way to act for it. Games are kept in memory and as match records in --dir, saved after every action, and reloaded when the server starts again.\n\nExamples:\n  ball serve\n  ball serve --port 0\n  ball serve --bind 0.0.0.0 --port 8080 --dir /srv/ball-games\n\nExit status: 0 when stopped; 2 bad input (an address that cannot be bound, a directory that cannot be made) with one line on stderr."
)]
pub struct ServeArgs {
    /// The address to listen on; 127.0.0.1 keeps the server to this
    /// machine, 0.0.0.0 shares it with the network.
    #[arg(long, default_value = "127.0.0.1", value_name = "ADDR")]
    pub bind: IpAddr,
    /// The port; 0 picks any free port (the real one is printed).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Where the games' records and links are kept.
    #[arg(long, default_value = "ball-games", value_name = "DIR")]
    pub dir: PathBuf,
    /// At most this many games at once.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_games: u64,
    /// Print the address as one JSON line, `{"url", "addr", "reloaded",
    /// "dir"}`, for a script that started the server (with --port 0).
    #[arg(long)]
    pub json: bool,
}

pub fn serve(args: ServeArgs) -> Result<(), UsageError> {
    let server = crate::web::server::Server::start(crate::web::server::Config {
        addr: SocketAddr::new(args.bind, args.port),
        dir: args.dir.clone(),
        max_games: args.max_games as usize,
    })
    .map_err(UsageError)?;
    for n in &server.notes {
        eprintln!("ball serve: not reloaded: {n}");
    }
    if args.json {
        let v = serde_json::json!({
            "url": format!("http://{}/", server.addr),
            "addr": server.addr.to_string(),
            "reloaded": server.reloaded,
            "dir": args.dir.display().to_string(),
        });
        println!("{v}");
    } else {
        println!(
            "ball serve: open http://{}/ ({} reloaded from {})",
            server.addr,
            crate::diagnostic::plural(server.reloaded as u64, "game"),
            args.dir.display()
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
