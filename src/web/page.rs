//! The pages: the home page (a new game, a record to load), the board
//! page (the same for every game: the server sends the board's SVG and
//! the choices), and their one script, `page.js`, embedded at build time
//! (no npm, no framework: it shows what the server computed and sends
//! back what was clicked or pressed).

/// The board page's script.
pub const SCRIPT: &str = include_str!("page.js");

const STYLE: &str = "\
body{background:#181818;color:#ddd;font-family:DejaVu Sans,Verdana,sans-serif;margin:0}\
header{padding:6px 12px;background:#262626;display:flex;gap:16px;align-items:center;flex-wrap:wrap}\
header a{color:#9cf}main{display:flex;gap:12px;padding:12px;align-items:flex-start;flex-wrap:wrap}\
#board svg{max-width:100%;height:auto}#side{width:440px;max-width:100%}\
button{background:#333;color:#eee;border:1px solid #555;border-radius:4px;padding:3px 8px;margin:2px;cursor:pointer}\
button:hover,button.hl{background:#1f7a1f}button:disabled{opacity:.4;cursor:default}\
#options button{display:block;width:100%;text-align:left}.keys{color:#fc6;font-family:monospace;margin-right:6px}\
.help{color:#aaa;font-size:90%;margin-left:6px}#prompt{font-weight:bold;margin:6px 0}\
#message{color:#f88;min-height:1.2em}#banner{color:#fd4;font-weight:bold}\
#log{height:260px;overflow:auto;background:#111;padding:4px;font-size:90%;font-family:monospace}\
#log .header{font-weight:bold;margin-top:4px}#log .s0{color:#ff7b6b}#log .s1{color:#7bbcff}\
#log .quiet{color:#999;padding-left:2em}#log .loud{color:#fd4;padding-left:2em}#log .error{color:#f66}\
#log .action{padding-left:1em}pre{white-space:pre-wrap;margin:0}\
#panel{background:#222;border:1px solid #555;padding:6px;margin:6px 0;font-family:monospace;font-size:85%}\
#panel .item{cursor:pointer;color:#9f9}#panel .item:hover{background:#1f7a1f}\
.links input{width:100%;font-family:monospace;font-size:80%}label{margin-right:8px}\
.card{border:1px solid #555;margin:10px;padding:8px;background:#222}.card svg{width:45%;height:auto}";

/// The home page's and the narrow screen's rules: nothing wider than
/// the screen (a phone is 390 px), links that wrap, the board scaled.
/// The terminal's text legend is not shown: each board's SVG draws its
/// own legend with the same symbols as the board.
const HOME_STYLE: &str = "\
html,body{max-width:100%;overflow-x:hidden}main>*{min-width:0;max-width:100%}#board{max-width:100%}\
select{background:#262626;color:#eee;border:1px solid #555;max-width:100%}\
.row{margin:6px 0}.row>label:first-child{display:inline-block;min-width:5em}\
.about{color:#aaa;font-size:90%;overflow-wrap:anywhere}#ruleset-about{margin:0 0 6px 0}\
.links .link{display:flex;gap:4px;align-items:center;margin:4px 0}.links .link input{flex:1;min-width:0}\
.links .open{color:#fc6}#lobby-side{width:440px;max-width:100%}\
.game{border:1px solid #444;background:#222;padding:6px;margin:6px 0}.game .what{font-weight:bold}\
.links a,.game a{color:#9cf;margin-left:6px}\
#legend{display:none}\
@media (max-width:600px){main{padding:6px;gap:6px}#side,#lobby-side{width:100%}header{gap:8px}}";

/// A whole page around `body`, with the shared style.
pub fn document(title: &str, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{}</title>\
<style>{STYLE}{HOME_STYLE}</style></head>\
<body>{body}</body></html>\n",
        crate::web::svg::esc(title)
    )
}

/// The home page: a new game of any registered game (its rulesets and
/// seats come from `/api/rulesets` when a game is picked), the lobby of
/// listed games with a seat to claim, and loading a record.
pub fn home() -> String {
    let games: String = crate::games::NAMES
        .iter()
        .map(|n| format!("<option value=\"{n}\">{n}</option>"))
        .collect();
    let seat = |k: usize, default: &str| {
        let opts: String = ["human", "random", "greedy", "mcts"]
            .iter()
            .map(|o| {
                let sel = if *o == default { " selected" } else { "" };
                format!("<option{sel}>{o}</option>")
            })
            .collect();
        format!(
            "<div class=\"row\"><label for=\"seat{k}\" id=\"seatname{k}\">seat {k}</label> \
<select id=\"seat{k}\">{opts}</select></div>"
        )
    };
    let body = format!(
        "<header><b>ball</b> · play in a browser · <a href=\"/gallery?ruleset=cards\">card gallery</a></header>\
<main class=\"home\"><div id=\"side\"><h3>New game</h3>\
<div class=\"row\"><label for=\"game\">game</label> <select id=\"game\">{games}</select></div>\
<div class=\"row\"><label for=\"ruleset\">ruleset</label> <select id=\"ruleset\"></select></div>\
<div id=\"ruleset-about\" class=\"about\"></div>\
{}{}<div class=\"row\"><label><input type=\"checkbox\" id=\"listed\"> list in the lobby</label>\
<span class=\"about\">the second person's seat waits there for whoever joins</span></div>\
<button id=\"create\">Create</button>\
<div id=\"message\"></div><div id=\"links\" class=\"links\"></div>\
<h3>Load a match record</h3><input type=\"file\" id=\"loadfile\"></div>\
<div id=\"lobby-side\"><h3>Lobby <button id=\"lobby-refresh\">refresh</button></h3>\
<div id=\"lobby\"><p class=\"about\">no open games yet</p></div></div></main>\
<script>{SCRIPT}</script><script>home()</script>",
        seat(1, "human"),
        seat(2, "greedy"),
    );
    document("ball", &body)
}

/// The board page's own style: whose turn it is, the end banner, the
/// log's "older" control.
const BOARD_STYLE: &str = "\
#turn{margin:6px 0;padding:4px 8px;background:#2a2a2a;border-left:4px solid #888}\
#turn.mine{border-left-color:#1f7a1f;color:#9f9}\
#end{margin:6px 0;padding:8px;background:#3a3200;border:1px solid #fd4;color:#fd4;font-weight:bold;font-size:110%}\
#older{display:block;margin:6px 0 0}";

/// The board page of every game: the script fills it from the view.
pub fn board() -> String {
    let body = format!(
        "<style>{BOARD_STYLE}</style>\
<header><b id=\"title\">ball</b><span id=\"seats\"></span><span id=\"status\"></span>\
<a href=\"/\">new game</a></header>\
<main><div id=\"board\"></div><div id=\"side\">\
<div id=\"end\" hidden></div><div id=\"turn\"></div>\
<div id=\"banner\"></div><div id=\"prompt\"></div><div id=\"message\"></div>\
<div id=\"chosen\"></div><div id=\"options\"></div><div id=\"panel\" hidden></div>\
<div><button id=\"back\" title=\"Backspace\" disabled>⌫ back</button><button id=\"cancel\" title=\"Esc\" disabled>Esc cancel</button>\
<button id=\"confirm\" title=\"Enter\" disabled>⏎ play</button><button id=\"undo\" disabled>undo</button>\
<button id=\"redo\" disabled>redo</button><button id=\"save\">save record</button></div>\
<pre id=\"side-panel\"></pre><button id=\"older\" title=\"the log's earlier lines\" disabled>older</button>\
<div id=\"log\"></div><pre id=\"legend\"></pre></div></main>\
<script>{SCRIPT}</script><script>boardPage()</script>"
    );
    document("ball · board", &body)
}
