// The pages' script: it shows what the server computed (the board's SVG,
// the choices, the log) and sends back what was clicked or pressed. It
// decides nothing about the rules: the server refuses what is not legal.
"use strict";

const $ = (id) => document.getElementById(id);

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

// A link with a copy button: the address in a read-only field (it
// never widens the page), and the button copies it (the clipboard, or
// the old way where the page is not a secure context).
function linkRow(label, path, cls) {
  const url = location.origin + path;
  return `<div class="link"><span>${esc(label)}</span><input readonly class="${cls}" value="${esc(url)}">` +
    `<button class="copy" data-url="${esc(url)}">copy</button><a href="${esc(path)}">open</a></div>`;
}

function wireCopies(root) {
  for (const b of root.querySelectorAll("button.copy")) {
    b.onclick = async () => {
      const field = b.previousElementSibling;
      try {
        await navigator.clipboard.writeText(b.dataset.url);
      } catch (_) {
        field.select();
        document.execCommand("copy");
      }
      b.textContent = "copied";
      setTimeout(() => { b.textContent = "copy"; }, 1500);
    };
  }
}

function showLinks(r) {
  let h = "";
  for (const s of r.seats) {
    if (s.open) h += `<div class="link open">${esc(s.name)}: open in the lobby — its link goes to whoever joins</div>`;
    else h += linkRow(`${s.name}:`, s.link, "seat-link");
  }
  h += linkRow("spectators:", r.watch, "watch-link");
  $("links").innerHTML = h;
  wireCopies($("links"));
}

// The selected game's rulesets and seat names, from the server.
async function loadChoices() {
  const game = $("game").value;
  const r = await fetch(`/api/rulesets?game=${encodeURIComponent(game)}`);
  const v = await r.json();
  if (!r.ok) { $("message").textContent = v.error; return; }
  if ($("game").value !== game) return;
  $("ruleset").innerHTML = v.rulesets.map((x) =>
    `<option value="${esc(x.name)}"${x.name === v.default ? " selected" : ""}>${esc(x.name)}${x.name === v.default ? " (default)" : ""}</option>`).join("");
  const about = () => {
    const x = v.rulesets.find((x) => x.name === $("ruleset").value);
    $("ruleset-about").textContent = x ? x.description : "";
  };
  $("ruleset").onchange = about;
  about();
  v.seats.forEach((s, k) => { $(`seatname${k + 1}`).textContent = s.label; });
  document.body.dataset.choices = game;
}

async function loadLobby() {
  const r = await fetch("/api/lobby");
  const v = await r.json();
  if (!r.ok) { $("lobby").textContent = v.error; return; }
  if (!v.games.length) {
    $("lobby").innerHTML = `<p class="about">no open games yet</p>`;
  } else {
    $("lobby").innerHTML = v.games.map((g) => {
      const seats = g.seats.map((s) => `${esc(s.label)}: ${s.open ? "<i>open</i>" : esc(s.player)}`).join(" · ");
      const joins = g.seats.map((s, k) => s.open ? `<button class="join" data-id="${esc(g.id)}" data-seat="${k}">join as ${esc(s.name)}</button>` : "").join("");
      return `<div class="game" data-id="${esc(g.id)}"><div class="what">${esc(g.title)} · ${esc(g.ruleset)}</div><div class="about">${seats}</div>${joins}<a class="watch" href="${esc(g.watch)}">watch</a></div>`;
    }).join("");
  }
  for (const b of $("lobby").querySelectorAll("button.join")) {
    b.onclick = async () => {
      const r = await fetch(`/api/lobby/${b.dataset.id}/join`, {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify({seat: +b.dataset.seat})});
      const j = await r.json();
      if (!r.ok) { $("message").textContent = j.error; loadLobby(); return; }
      location.href = j.link;
    };
  }
  document.body.dataset.lobby = String(v.games.length);
}

function home() {
  $("game").onchange = loadChoices;
  loadChoices();
  loadLobby();
  $("lobby-refresh").onclick = loadLobby;
  setInterval(loadLobby, 5000);
  $("create").onclick = async () => {
    const body = {game: $("game").value, seats: [$("seat1").value, $("seat2").value], listed: $("listed").checked};
    if ($("ruleset").value) body.ruleset = $("ruleset").value;
    const r = await fetch("/api/games", {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
    const v = await r.json();
    if (!r.ok) { $("message").textContent = v.error; return; }
    $("message").textContent = "";
    showLinks(v);
    if (v.listed) loadLobby();
  };
  $("loadfile").onchange = async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    const r = await fetch("/api/load", {method: "POST", body: await f.text()});
    const v = await r.json();
    if (!r.ok) { $("message").textContent = v.error; return; }
    showLinks(v);
  };
}

let view = null;
let hl = 0;
let busy = false;

// The board page. A view carries only what this page does not hold yet
// (the server's `view::Held`): the log from where the page's log ends
// (`since`, with the version it was of), and the board's SVG only when
// it is not the one shown (`svg`, its hash). The log keeps its last
// `LOG_KEEP` lines; "older" loads earlier pages on request.
function boardPage() {
  const q = new URLSearchParams(location.search);
  const T = q.get("t") || "";
  const ID = location.pathname.split("/").pop();
  const LOG_KEEP = 400;
  // The log's lines as shown: `{at, el}`, `at` the action a line is of.
  let logItems = [];
  let logTo = null;
  let logVersion = null;
  let svgHash = null;
  // Lines loaded by "older", kept beyond LOG_KEEP.
  let olderKept = 0;
  // Answers are drawn in the order they were asked; an older one that
  // comes late is dropped.
  let asked = 0;
  let drawn = 0;
  const api = (p) => `/api/games/${ID}${p}?t=${encodeURIComponent(T)}&hl=${hl}`;
  const held = () => (logTo === null ? "" : `&since=${logTo}&v=${logVersion}`) + (svgHash === null ? "" : `&svg=${svgHash}`);

  // One view request at a time; changes pushed meanwhile make one more.
  let fetching = false;
  let again = false;
  async function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    try {
      do {
        again = false;
        const n = ++asked;
        const r = await fetch(api("") + held());
        const v = await r.json();
        if (!r.ok) { $("message").textContent = v.error; return; }
        if (n > drawn) { drawn = n; render(v); }
      } while (again);
    } finally {
      fetching = false;
    }
  }

  async function act(body) {
    if (busy) return;
    busy = true;
    try {
      if (view) body.version = view.version;
      // A new step starts at its first choice (a card menu shows its text).
      if (body.do !== "key" && body.do !== "click") hl = 0;
      const n = ++asked;
      const r = await fetch(api("/act") + held(), {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
      const v = await r.json();
      if (!r.ok) {
        $("message").textContent = v.error;
        if (r.status === 409) await refresh();
        return;
      }
      $("message").textContent = "";
      hl = 0;
      if (n > drawn) { drawn = n; render(v); }
    } finally {
      busy = false;
    }
  }

  function highlightedLabel() {
    return view && view.options[hl] ? view.options[hl].label : null;
  }

  function logLine(e) {
    const d = document.createElement("div");
    d.className = e.kind + (e.seat !== null && e.kind !== "quiet" ? " s" + e.seat : "");
    d.textContent = e.text;
    return d;
  }

  // Replaces the lines held from action `from` on with `entries`, then
  // drops the oldest whole actions past what the page keeps.
  function mergeLog(entries, from) {
    const box = $("log");
    const follow = box.scrollTop + box.clientHeight >= box.scrollHeight - 8;
    while (logItems.length && logItems[logItems.length - 1].at >= from) logItems.pop().el.remove();
    if (!logItems.length) olderKept = 0;
    const frag = document.createDocumentFragment();
    for (const e of entries) {
      const el = logLine(e);
      frag.appendChild(el);
      logItems.push({at: e.at, el});
    }
    box.appendChild(frag);
    const height = box.scrollHeight;
    while (logItems.length > LOG_KEEP + olderKept && logItems[0].at < logItems[logItems.length - 1].at) {
      const at = logItems[0].at;
      while (logItems.length && logItems[0].at === at) logItems.shift().el.remove();
    }
    if (follow) box.scrollTop = box.scrollHeight;
    else box.scrollTop -= height - box.scrollHeight;
    showOlder();
  }

  function showOlder() {
    const first = logItems.length ? logItems[0].at : logTo;
    $("older").disabled = !first;
  }

  async function older() {
    const first = logItems.length ? logItems[0].at : logTo;
    if (!first) return;
    const r = await fetch(api("") + `&older=${first}`);
    const p = await r.json();
    if (!r.ok) { $("message").textContent = p.error; return; }
    // The log changed meanwhile (an undo reached below it): start again.
    const now = logItems.length ? logItems[0].at : logTo;
    if (now !== first) return;
    const box = $("log");
    const height = box.scrollHeight;
    const frag = document.createDocumentFragment();
    const items = p.log.filter((e) => e.at < first).map((e) => ({at: e.at, el: logLine(e)}));
    for (const it of items) frag.appendChild(it.el);
    box.insertBefore(frag, box.firstChild);
    logItems = items.concat(logItems);
    olderKept += items.length;
    box.scrollTop += box.scrollHeight - height;
    showOlder();
  }

  function render(v) {
    view = v;
    if (hl >= v.options.length) hl = 0;
    document.body.dataset.version = v.version;
    document.body.dataset.myTurn = v.my_turn;
    $("title").textContent = v.title + " · " + v.ruleset;
    $("seats").textContent = v.seats.map((s) => `${s.name}: ${s.who}`).join(" · ") + (v.you === null ? " · watching" : "");
    $("status").textContent = v.status;
    if (v.svg !== null) {
      $("board").innerHTML = v.svg;
      svgHash = v.svg_hash;
    } else if (v.svg_hash !== svgHash) {
      // Not the board shown after all (answers crossed): ask again whole.
      svgHash = null;
      refresh();
    }
    $("banner").textContent = v.banner || "";
    $("turn").textContent = v.turn || "";
    $("turn").hidden = !v.turn;
    $("turn").className = v.my_turn ? "mine" : "";
    const end = $("end");
    if (v.end) {
      end.hidden = false;
      const who = v.end.winner ? `${v.end.winner} wins` : "a draw";
      end.textContent = `Game over: ${who} · ${v.end.score} · ended by ${v.end.how}${v.end.by_limit ? " (a limit)" : ""}`;
    } else {
      end.hidden = true;
      end.textContent = "";
    }
    $("prompt").textContent = v.my_turn ? v.prompt + (v.preview ? " — " + v.preview : "") : "";
    $("chosen").textContent = v.chosen.length ? "chosen: " + v.chosen.join(" › ") : "";
    let h = "";
    v.options.forEach((o, i) => {
      const keys = o.keys.length ? `<span class="keys">${esc(o.keys[0])}</span>` : "";
      h += `<button data-label="${esc(o.label)}" data-i="${i}" class="${i === hl ? "hl" : ""}">${keys}${esc(o.label)}<span class="help">${esc(o.help)}</span></button>`;
    });
    $("options").innerHTML = h;
    for (const b of $("options").querySelectorAll("button")) {
      b.onclick = () => act({do: "choose", label: b.dataset.label});
      b.onmouseenter = () => { if (hl !== +b.dataset.i) { hl = +b.dataset.i; if (v.panel) refresh(); else mark(); } };
    }
    const p = $("panel");
    if (v.panel) {
      p.hidden = false;
      const items = new Map(v.panel.items.map(([i, l]) => [i, l]));
      p.innerHTML = `<b>${esc(v.panel.title)}</b>` + v.panel.lines.map((l, i) =>
        items.has(i) ? `<div class="item" data-label="${esc(items.get(i))}">${esc(l)}</div>` : `<div>${esc(l)}</div>`).join("");
      for (const d of p.querySelectorAll(".item")) d.onclick = () => act({do: "choose", label: d.dataset.label});
    } else {
      p.hidden = true;
      p.innerHTML = "";
    }
    $("side-panel").textContent = v.side.join("\n");
    $("legend").textContent = v.legend.join("\n");
    mergeLog(v.log, v.log_from);
    logTo = v.log_to;
    logVersion = v.version;
    showOlder();
    // The server says what works now; the rest it would refuse.
    $("back").disabled = !v.can.back;
    $("cancel").disabled = !v.can.cancel;
    $("confirm").disabled = !v.can.confirm;
    $("undo").disabled = !v.can.undo;
    $("redo").disabled = !v.can.redo;
  }

  function mark() {
    for (const b of $("options").querySelectorAll("button")) b.classList.toggle("hl", +b.dataset.i === hl);
  }

  $("board").onclick = (e) => {
    const c = e.target.closest("[data-cell]");
    if (!c || !view || !view.my_turn) return;
    act({do: "click", cell: c.dataset.cell, highlighted: highlightedLabel()});
  };
  $("back").onclick = () => act({do: "back"});
  $("cancel").onclick = () => act({do: "cancel"});
  $("confirm").onclick = () => act({do: "confirm"});
  $("undo").onclick = () => act({do: "undo"});
  $("redo").onclick = () => act({do: "redo"});
  $("older").onclick = () => older();
  $("save").onclick = () => { location.href = api("/record"); };
  document.addEventListener("keydown", (e) => {
    if (!view || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") { if (view.can.cancel) act({do: "cancel"}); }
    else if (e.key === "Backspace") { if (view.can.back) act({do: "back"}); }
    else if (e.key === "Enter") { view.waiting ? act({do: "confirm"}) : (view.options[hl] && act({do: "choose", label: view.options[hl].label})); }
    else if (e.key === "ArrowDown" && view.options.length && !view.options.some((o) => o.keys.includes("↓"))) { hl = (hl + 1) % view.options.length; view.panel ? refresh() : mark(); }
    else if (e.key === "ArrowUp" && view.options.length && !view.options.some((o) => o.keys.includes("↑"))) { hl = (hl + view.options.length - 1) % view.options.length; view.panel ? refresh() : mark(); }
    else if (e.key.length === 1 || e.key.startsWith("Arrow")) { if (view.my_turn) act({do: "key", key: e.key, highlighted: highlightedLabel()}); }
    else return;
    e.preventDefault();
  });
  const es = new EventSource(`/api/games/${ID}/events?t=${encodeURIComponent(T)}`);
  // `VERSION:CHOICES`: a client that already shows it (its own act's
  // answer) does not fetch it again.
  es.addEventListener("change", (e) => {
    if (!view || e.data !== `${view.version}:${view.chosen.length}`) refresh();
  });
  refresh();
}
