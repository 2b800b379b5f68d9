// The pages' script: it shows what the server computed (the board's SVG,
// the choices, the log) and sends back what was clicked or pressed. It
// decides nothing about the rules: the server refuses what is not legal.
"use strict";

const $ = (id) => document.getElementById(id);

function esc(s) {
  return String(s).replace(/[&<>"']/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
}

function showLinks(r) {
  const abs = (p) => location.origin + p;
  let h = "";
  for (const s of r.seats) {
    h += `<p>${esc(s.name)}: <a class="seat-link" href="${esc(s.link)}">${esc(abs(s.link))}</a></p>`;
  }
  h += `<p>spectators: <a class="watch-link" href="${esc(r.watch)}">${esc(abs(r.watch))}</a></p>`;
  $("links").innerHTML = h;
}

function home() {
  $("create").onclick = async () => {
    const body = {game: $("game").value, seats: [$("seat1").value, $("seat2").value]};
    if ($("ruleset").value.trim()) body.ruleset = $("ruleset").value.trim();
    const r = await fetch("/api/games", {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
    const v = await r.json();
    if (!r.ok) { $("message").textContent = v.error; return; }
    $("message").textContent = "";
    showLinks(v);
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

function boardPage() {
  const q = new URLSearchParams(location.search);
  const T = q.get("t") || "";
  const ID = location.pathname.split("/").pop();
  const api = (p) => `/api/games/${ID}${p}?t=${encodeURIComponent(T)}&hl=${hl}`;

  async function refresh() {
    const r = await fetch(api(""));
    const v = await r.json();
    if (!r.ok) { $("message").textContent = v.error; return; }
    render(v);
  }

  async function act(body) {
    if (busy) return;
    busy = true;
    try {
      if (view) body.version = view.version;
      // A new step starts at its first choice (a card menu shows its text).
      if (body.do !== "key" && body.do !== "click") hl = 0;
      const r = await fetch(api("/act"), {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
      const v = await r.json();
      if (!r.ok) {
        $("message").textContent = v.error;
        if (r.status === 409) await refresh();
        return;
      }
      $("message").textContent = "";
      hl = 0;
      render(v);
    } finally {
      busy = false;
    }
  }

  function highlightedLabel() {
    return view && view.options[hl] ? view.options[hl].label : null;
  }

  function render(v) {
    view = v;
    if (hl >= v.options.length) hl = 0;
    document.body.dataset.version = v.version;
    document.body.dataset.myTurn = v.my_turn;
    $("title").textContent = v.title + " · " + v.ruleset;
    $("seats").textContent = v.seats.map((s, k) => `${s.name}: ${s.player}${v.you === k ? " (you)" : ""}`).join(" · ") + (v.you === null ? " · watching" : "");
    $("status").textContent = v.status;
    $("board").innerHTML = v.svg;
    $("banner").textContent = v.banner || "";
    $("prompt").textContent = v.prompt + (v.preview ? " — " + v.preview : "");
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
    $("log").innerHTML = v.log.map((e) => `<div class="${e.kind}${e.seat !== null && e.kind !== "quiet" ? " s" + e.seat : ""}">${esc(e.text)}</div>`).join("");
    $("log").scrollTop = $("log").scrollHeight;
    const mine = v.my_turn;
    $("back").disabled = !mine || !v.chosen.length;
    $("cancel").disabled = !mine || !v.chosen.length;
    $("confirm").disabled = !v.waiting;
    $("undo").disabled = v.you === null || !v.played;
    $("redo").disabled = v.you === null || !v.ahead;
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
  $("save").onclick = () => { location.href = api("/record"); };
  document.addEventListener("keydown", (e) => {
    if (!view || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === "Escape") { act({do: "cancel"}); }
    else if (e.key === "Backspace") { act({do: "back"}); }
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
