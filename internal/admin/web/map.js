// The dlmp live map: draws one scope's snapshot from /map/events on an SVG
// over the world bounds (|x|, |y| <= 6000, north up). Plain JS, no build.
"use strict";

const BOUND = 6000;
const FLASH_MS = 1024; // a flashing zone goes color -> flash_color -> color
const NS = "http://www.w3.org/2000/svg";

const svg = document.getElementById("map");
const layers = {};
for (const id of ["zones", "checkpoints", "pickups", "vehicles", "blips", "players", "labels"]) {
  layers[id] = document.getElementById(id);
}
const scopeSelect = document.getElementById("scope");
const statusEl = document.getElementById("status");
const countsEl = document.getElementById("counts");

let view = { x: -BOUND, y: -BOUND, w: 2 * BOUND, h: 2 * BOUND };
let last = null;        // the last snapshot drawn
let flashing = [];      // [{el, a: [r,g,b], b: [r,g,b]}]
let source = null;      // the EventSource
let snapshots = 0;
let totals = {};         // the full count of each kind when the server truncated it

// ---- scope ----------------------------------------------------------------

function scopeKey(s) { return s.world + "/" + s.interior; }

function currentScope() {
  const q = new URLSearchParams(location.search);
  return { world: parseInt(q.get("world") || "0", 10) || 0,
           interior: parseInt(q.get("interior") || "0", 10) || 0 };
}

function setScopes(scopes, cur) {
  const keys = scopes.map(scopeKey).join(",");
  if (scopeSelect.dataset.keys === keys) return;
  scopeSelect.dataset.keys = keys;
  scopeSelect.replaceChildren();
  for (const s of scopes) {
    const o = document.createElement("option");
    o.value = scopeKey(s);
    o.textContent = "world " + s.world + ", interior " + s.interior;
    scopeSelect.append(o);
  }
  scopeSelect.value = scopeKey(cur);
}

scopeSelect.addEventListener("change", () => {
  const [world, interior] = scopeSelect.value.split("/");
  const q = new URLSearchParams(location.search);
  q.set("world", world);
  q.set("interior", interior);
  history.replaceState(null, "", "?" + q.toString());
  connect();
});

// ---- stream ---------------------------------------------------------------

function connect() {
  if (source) source.close();
  const s = currentScope();
  svg.dataset.world = s.world;
  svg.dataset.interior = s.interior;
  source = new EventSource("map/events?world=" + s.world + "&interior=" + s.interior);
  source.onopen = () => { statusEl.textContent = "live"; statusEl.className = "up"; };
  source.onerror = () => { statusEl.textContent = "reconnecting…"; statusEl.className = "down"; };
  source.onmessage = (e) => {
    const ev = JSON.parse(e.data);
    setScopes(ev.scopes, s);
    last = ev.state;
    snapshots++;
    totals = ev.totals;
    draw(last);
    svg.dataset.snapshots = snapshots;
    svg.dataset.at = ev.at;
  };
}

// ---- drawing --------------------------------------------------------------

// px is one screen pixel in world meters at the current zoom.
function px() {
  const r = svg.getBoundingClientRect();
  return Math.max(view.w / Math.max(r.width, 1), view.h / Math.max(r.height, 1));
}

function el(name, attrs, title) {
  const e = document.createElementNS(NS, name);
  for (const k in attrs) e.setAttribute(k, attrs[k]);
  if (title) {
    const t = document.createElementNS(NS, "title");
    t.textContent = title;
    e.append(t);
  }
  return e;
}

function hex(c) { return "#" + (c & 0xffffff).toString(16).padStart(6, "0"); }
function rgb(c) { return [(c >> 16) & 255, (c >> 8) & 255, c & 255]; }
function pos(o) { return "(" + o.x.toFixed(1) + ", " + o.y.toFixed(1) + ", " + o.z.toFixed(1) + ")"; }

function fill(layer, items, make) {
  const g = layers[layer];
  g.replaceChildren(...items.map(make));
  g.dataset.count = items.length;
}

function draw(st) {
  const p = px();
  flashing = [];
  // A later zone_id is drawn over an earlier one.
  fill("zones", st.zones.slice().sort((a, b) => a.id - b.id), (z) => {
    const r = el("rect", {
      x: z.min_x, y: -z.max_y, width: z.max_x - z.min_x, height: z.max_y - z.min_y,
      fill: hex(z.color), "fill-opacity": (z.alpha / 255).toFixed(3),
      "data-id": z.id, "data-flashing": z.flashing ? "1" : "0",
    }, "zone " + z.id + (z.flashing ? " (flashing)" : ""));
    if (z.flashing) flashing.push({ el: r, a: rgb(z.color), b: rgb(z.flash_color) });
    return r;
  });
  fill("checkpoints", st.checkpoints, (c) => el("circle", {
    cx: c.x, cy: -c.y, r: Math.max(c.radius, 6 * p), stroke: hex(c.color),
    "stroke-dasharray": c.kind >= 3 ? "4 3" : "", "data-id": c.id,
  }, "checkpoint " + c.id + " of player " + c.player + " " + pos(c)));
  fill("pickups", st.pickups, (k) => {
    const s = 5 * p;
    return el("path", {
      d: "M" + k.x + " " + (-k.y - s) + "l" + s + " " + s + "l" + -s + " " + s + "l" + -s + " " + -s + "z",
      fill: "#f2c14e", class: k.active ? "" : "inactive", "data-id": k.id,
    }, "pickup " + k.id + " model " + k.model + " " + pos(k));
  });
  fill("vehicles", st.vehicles, (v) => el("rect", {
    x: v.x - 5 * p, y: -v.y - 3 * p, width: 10 * p, height: 6 * p, fill: hex(v.color),
    transform: "rotate(" + -v.heading + " " + v.x + " " + -v.y + ")", "data-id": v.id,
  }, "vehicle " + v.id + " model " + v.model + " " + pos(v)));
  fill("blips", st.blips, (b) => {
    const s = 6 * p * b.size;
    const title = "blip " + b.id + (b.sprite ? " sprite " + b.sprite : "") + " " + pos(b);
    if (b.sprite === 0) {
      return el("circle", { cx: b.x, cy: -b.y, r: s * 0.6, fill: hex(b.color), "data-id": b.id }, title);
    }
    const g = el("g", { "data-id": b.id }, title);
    g.append(el("rect", { x: b.x - s, y: -b.y - s, width: 2 * s, height: 2 * s, rx: s / 3, fill: hex(b.color) }));
    const t = el("text", { x: b.x, y: -b.y + s * 0.45, "font-size": s * 1.2, "text-anchor": "middle" });
    t.textContent = b.sprite;
    g.append(t);
    return g;
  });
  fill("players", st.players, (pl) => {
    const g = el("g", { "data-id": pl.id, "data-x": pl.x, "data-y": pl.y },
      "player " + pl.id + " " + pl.name + " " + pos(pl) + (pl.vehicle ? " in vehicle " + pl.vehicle : ""));
    // Heading is counterclockwise from north; SVG y grows southwards.
    const h = pl.heading * Math.PI / 180;
    g.append(el("line", { x1: pl.x, y1: -pl.y, x2: pl.x - Math.sin(h) * 10 * p, y2: -pl.y - Math.cos(h) * 10 * p,
      stroke: hex(pl.color), class: "heading" }));
    g.append(el("circle", { cx: pl.x, cy: -pl.y, r: 5 * p, fill: hex(pl.color) }));
    const t = el("text", { x: pl.x + 8 * p, y: -pl.y + 4 * p, "font-size": 12 * p, fill: hex(pl.color) });
    t.textContent = pl.name || "#" + pl.id;
    g.append(t);
    return g;
  });
  fill("labels", st.labels, (l) => {
    const t = el("text", { x: l.x, y: -l.y, "font-size": 11 * p, fill: hex(l.color), "text-anchor": "middle", "data-id": l.id },
      "label " + l.id + " " + pos(l));
    t.append(document.createTextNode(l.text.split("\n")[0]));
    return t;
  });
  countsEl.textContent = ["players", "vehicles", "blips", "zones", "pickups", "checkpoints", "labels"]
    .map((k) => {
      const n = st[k].length, all = (totals || {})[k];
      return (all && all > n ? n + " of " + all : n) + " " + k;
    }).join(" · ");
  flash(performance.now());
}

// flash moves every flashing zone's color smoothly from color to flash_color
// and back over FLASH_MS, with one phase for the whole page.
function flash(now) {
  const t = 0.5 - 0.5 * Math.cos(2 * Math.PI * (now % FLASH_MS) / FLASH_MS);
  for (const f of flashing) {
    const c = f.a.map((a, i) => Math.round(a + (f.b[i] - a) * t));
    f.el.setAttribute("fill", "rgb(" + c.join(",") + ")");
  }
}

function animate(now) {
  flash(now);
  requestAnimationFrame(animate);
}

// ---- grid, zoom, pan ------------------------------------------------------

function drawGrid() {
  const g = document.getElementById("grid");
  // The San Andreas mainland lies within about |x|, |y| <= 3000; the rest of
  // the bounds is sea.
  g.append(el("rect", { x: -3000, y: -3000, width: 6000, height: 6000, class: "mainland" }));
  for (let v = -BOUND; v <= BOUND; v += 500) {
    const cls = v === 0 ? "axis" : "";
    g.append(el("line", { x1: v, y1: -BOUND, x2: v, y2: BOUND, class: cls }));
    g.append(el("line", { x1: -BOUND, y1: v, x2: BOUND, y2: v, class: cls }));
  }
  // Rough places of San Andreas, for orientation only.
  for (const [name, x, y] of [["Los Santos", 1800, -1700], ["San Fierro", -2200, 400],
    ["Las Venturas", 2000, 1700], ["Mount Chiliad", -2300, -1600], ["Bone County", 500, 1500]]) {
    const t = el("text", { x: x, y: -y, "font-size": 170, "text-anchor": "middle" });
    t.textContent = name;
    g.append(t);
  }
}

function setView(v) {
  const w = Math.min(Math.max(v.w, 50), 2 * BOUND);
  const h = w * (view.h / view.w);
  view = {
    x: Math.min(Math.max(v.x, -BOUND - w / 2), BOUND - w / 2),
    y: Math.min(Math.max(v.y, -BOUND - h / 2), BOUND - h / 2), w: w, h: h,
  };
  svg.setAttribute("viewBox", view.x + " " + view.y + " " + view.w + " " + view.h);
  if (last) draw(last);
}

function toWorld(e) {
  const r = svg.getBoundingClientRect();
  const p = px();
  return { x: view.x + view.w / 2 + (e.clientX - r.left - r.width / 2) * p,
           y: view.y + view.h / 2 + (e.clientY - r.top - r.height / 2) * p };
}

svg.addEventListener("wheel", (e) => {
  e.preventDefault();
  const k = e.deltaY > 0 ? 1.25 : 0.8;
  const at = toWorld(e);
  setView({ x: at.x - (at.x - view.x) * k, y: at.y - (at.y - view.y) * k, w: view.w * k, h: view.h * k });
}, { passive: false });

let drag = null;
svg.addEventListener("mousedown", (e) => { drag = { x: e.clientX, y: e.clientY }; svg.classList.add("dragging"); });
window.addEventListener("mouseup", () => { drag = null; svg.classList.remove("dragging"); });
window.addEventListener("mousemove", (e) => {
  if (!drag) return;
  const p = px();
  setView({ x: view.x - (e.clientX - drag.x) * p, y: view.y - (e.clientY - drag.y) * p, w: view.w, h: view.h });
  drag = { x: e.clientX, y: e.clientY };
});
svg.addEventListener("dblclick", () => setView({ x: -BOUND, y: -BOUND, w: 2 * BOUND, h: 2 * BOUND }));

drawGrid();
connect();
requestAnimationFrame(animate);
