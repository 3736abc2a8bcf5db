// crfdeid review: the page. Vanilla JS, no external code. Offsets from the server count Unicode
// code points (Python's str); the page converts with Array.from, never with UTF-16 indexes.
"use strict";

const TOKEN = document.querySelector('meta[name="review-token"]').content;
const $ = (id) => document.getElementById(id);
const S = { notes: [], version: -1, labels: [], current: null, view: null, selected: null, detected: 0, total: 0,
            order: [], info: {} };

async function api(path, body) {
  const options = { headers: { "X-Review-Token": TOKEN }, credentials: "same-origin" };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const response = await fetch(path, options);
  const data = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

function toast(message, error) {
  const t = $("toast");
  t.textContent = message;
  t.className = error ? "error" : "";
  t.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { t.hidden = true; }, error ? 6000 : 2500);
}

function hue(label) {
  let h = 0;
  for (const c of label) h = (h * 31 + c.codePointAt(0)) % 360;
  return (h * 7) % 360;
}

// ---- the list of notes ---------------------------------------------------------------------
function rank(n) {
  if (n.status === "failed") return 0;
  if (n.status === "done") return 6;
  if (n.leftovers || (n.held && n.held.length)) return 1;
  if (n.low) return 2;
  if (n.status === "in progress") return 3;
  if (n.status === "new") return 5;
  return 4;
}

function sortedNotes() {
  const filter = $("filter").value.trim().toLowerCase();
  let notes = S.notes.filter((n) => !filter || n.id.toLowerCase().includes(filter));
  if ($("sort").value === "attention") {
    notes = notes.slice().sort((a, b) => rank(a) - rank(b) || (b.low || 0) - (a.low || 0) || a.index - b.index);
  }
  return notes;
}

function badge(text, cls, title) {
  const b = document.createElement("span");
  b.className = "badge " + (cls || "");
  b.textContent = text;
  if (title) b.title = title;
  return b;
}

function renderList() {
  const ul = $("notes");
  const fragment = document.createDocumentFragment();
  const notes = sortedNotes();
  S.order = notes.map((n) => n.id);
  for (const n of notes) {
    const li = document.createElement("li");
    li.dataset.id = n.id;
    if (n.id === S.current) li.className = "current";
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = n.id;
    const meta = document.createElement("div");
    meta.className = "meta";
    if (n.status === "failed") meta.append(badge("failed", "failed", n.error));
    else if (n.status === "new") meta.append(badge("not detected yet", "new"));
    else {
      if (n.status === "done") meta.append(badge("reviewed", "done"));
      if (n.leftovers) meta.append(badge(`${n.leftovers} leftover`, "leftover", "an original string is still in the output"));
      else if (n.held && n.held.length) meta.append(badge(n.held.join(", "), "held"));
      if (n.low) meta.append(badge(`${n.low} low`, "low", "CRF spans of low confidence, not decided yet"));
      meta.append(badge(`${n.spans} spans`, "", Object.entries(n.counts || {}).map(([k, v]) => `${k}: ${v}`).join("\n")));
      if (n.pending && n.status !== "done") meta.append(badge(`${n.pending} pending`));
    }
    li.append(name, meta);
    fragment.append(li);
  }
  ul.replaceChildren(fragment);
  $("progress").textContent = `${S.detected} / ${S.total} notes detected`;
}

async function refreshList(force) {
  const data = await api("/api/notes" + (force ? "" : `?since=${S.version}`));
  S.detected = data.detected;
  S.total = data.total;
  if (!data.unchanged) {
    S.notes = data.notes;
    S.version = data.version;
    if (data.labels) S.labels = data.labels;
    if (data.reviewer) S.info = data;
    renderList();
  } else {
    $("progress").textContent = `${S.detected} / ${S.total} notes detected`;
  }
}

function poll() {
  refreshList(false).catch(() => {}).finally(() => {
    setTimeout(poll, S.detected < S.total ? 1500 : 5000);
  });
}

// ---- one note ------------------------------------------------------------------------------
async function openNote(id) {
  try {
    const view = await api("/api/note?id=" + encodeURIComponent(id));
    S.current = id;
    S.selected = null;
    showNote(view);
    for (const li of $("notes").children) li.classList.toggle("current", li.dataset.id === id);
  } catch (e) { toast(e.message, true); }
}

function showNote(view) {
  S.view = view;
  $("note-title").textContent = view.id;
  $("note-status").replaceChildren();
  $("held").textContent = "";
  if (view.status === "failed") {
    $("note-status").append(badge("failed", "failed"));
    $("orig").textContent = view.error;
    $("deid").textContent = "";
    selectSpan(null);
    return;
  }
  $("note-status").append(badge(view.done ? "reviewed" : view.status, view.done ? "done" : ""));
  $("done").textContent = view.done ? "Reopen" : "Mark reviewed";
  if (view.held.length) {
    $("held").textContent = "Held back: " + view.held.map((h) => h.detail).join("; ")
      + (view.deid.leftovers.length ? " (red in both panes; select it in the original and add it)" : "");
  }
  renderOriginal(view);
  renderDeid(view);
  const row = S.selected && view.spans.find((s) => s.id === S.selected);
  selectSpan(row ? row.id : null);
  updateListEntry(view.summary);
}

function updateListEntry(summary) {
  const at = S.notes.findIndex((n) => n.id === summary.id);
  if (at >= 0) {
    S.notes[at] = { ...S.notes[at], ...summary };
    renderList();
  }
}

// Segments of a text between every span boundary; each covered segment is shown as the shortest
// span covering it (a second mention widened over a name does not hide the name).
function segments(length, items) {
  const cuts = new Set([0, length]);
  for (const it of items) { cuts.add(it.start); cuts.add(it.end); }
  const points = [...cuts].filter((x) => x >= 0 && x <= length).sort((a, b) => a - b);
  const out = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i], b = points[i + 1];
    let best = null;
    for (const it of items) {
      if (it.start <= a && b <= it.end && (!best || it.end - it.start < best.end - best.start)) best = it;
    }
    out.push({ start: a, end: b, item: best });
  }
  return out;
}

function renderText(pane, text, items, decorate) {
  const cps = Array.from(text);
  const fragment = document.createDocumentFragment();
  for (const seg of segments(cps.length, items)) {
    const piece = cps.slice(seg.start, seg.end).join("");
    let el;
    if (seg.item) {
      el = document.createElement("mark");
      decorate(el, seg.item);
    } else {
      el = document.createElement("span");
    }
    el.dataset.start = seg.start;
    el.textContent = piece;
    fragment.append(el);
  }
  pane.replaceChildren(fragment);
}

function renderOriginal(view) {
  const items = view.spans.map((s) => ({ ...s, kindItem: "span" }));
  for (const l of view.deid.leftovers) {
    items.push({ start: l.orig_start, end: l.orig_end, label: l.label, kindItem: "leftover" });
  }
  renderText($("orig"), view.text, items, (el, it) => {
    el.style.setProperty("--hue", hue(it.label));
    if (it.kindItem === "leftover") {
      el.className = "leftover";
      el.title = `leftover: "${it.label}" text still in the output; select it and press n to add it`;
      return;
    }
    el.dataset.id = it.id;
    el.className = [it.status, it.kind, it.low ? "low" : "", it.kept ? "kept" : ""].join(" ");
    el.title = `${it.label} · ${it.why}${it.score != null ? ` · ${it.score.toFixed(2)}` : ""} · ${it.status}`;
  });
}

function renderDeid(view) {
  const byOut = new Map();
  for (const s of view.spans) if (s.out) byOut.set(`${s.out.start}-${s.out.end}`, s);
  const items = view.deid.marks.map((m) => ({ ...m, row: byOut.get(`${m.start}-${m.end}`) }));
  for (const l of view.deid.leftovers) items.push({ ...l, leftover: true });
  renderText($("deid"), view.deid.text, items, (el, it) => {
    el.style.setProperty("--hue", hue(it.label));
    if (it.leftover) {
      el.className = "leftover";
      el.title = `leftover: an original ${it.label} string still in the output`;
      return;
    }
    if (it.row) el.dataset.id = it.row.id;
    el.className = [it.kept ? "kept" : "accepted", it.source === "propagated" ? "propagated" : ""].join(" ");
    el.title = `${it.label} · ${it.kept ? "kept" : "replaced"}${it.source === "propagated" ? " · second mention" : ""}`;
  });
}

// ---- the selected span -------------------------------------------------------------------
function rowOf(id) { return S.view && S.view.spans ? S.view.spans.find((s) => s.id === id) : null; }

function selectSpan(id) {
  S.selected = id;
  for (const m of document.querySelectorAll("mark.selected")) m.classList.remove("selected");
  const row = id && rowOf(id);
  $("span-panel").hidden = !row;
  $("span-empty").hidden = !!row;
  if (!row) return;
  for (const m of document.querySelectorAll(`mark[data-id="${CSS.escape(id)}"]`)) m.classList.add("selected");
  const mark = document.querySelector(`#orig mark[data-id="${CSS.escape(id)}"]`);
  if (mark) mark.scrollIntoView({ block: "nearest" });
  $("span-text").textContent = row.text;
  $("span-status").textContent = row.status + (row.kind === "propagated" ? " (second mention)" : "");
  $("span-source").textContent = row.why;
  const select = $("label");
  select.replaceChildren(...S.labels.map((l) => new Option(l, l, false, l === row.label)));
  $("surrogate").textContent = row.out
    ? Array.from(S.view.deid.text).slice(row.out.start, row.out.end).join("") : "(not replaced)";
  $("edit").value = "";
  $("span-note").textContent = [row.strategy && row.strategy !== "pseudonymise" ? `strategy: ${row.strategy}` : "",
    row.kept ? "kept on purpose" : "", row.note || "", row.reroll ? `rerolled ${row.reroll}×` : "",
    row.edited ? "surrogate typed by hand" : ""].filter(Boolean).join(" · ");
  $("why").textContent = "…";
  const note = S.current;
  api(`/api/why?id=${encodeURIComponent(note)}&span=${encodeURIComponent(id)}`)
    .then((why) => { if (S.selected === id && S.current === note) showWhy(why); })
    .catch((e) => { $("why").textContent = e.message; });
}

function table(rows) {
  const t = document.createElement("table");
  for (const [a, b] of rows) {
    const tr = t.insertRow();
    const c1 = tr.insertCell();
    c1.textContent = a;
    const c2 = tr.insertCell();
    c2.className = "w";
    c2.textContent = b;
  }
  return t;
}

function h4(text) { const h = document.createElement("h4"); h.textContent = text; return h; }
function p(text) { const e = document.createElement("div"); e.textContent = text; return e; }

function showWhy(why) {
  const box = $("why");
  box.replaceChildren();
  if (why.detected_label && why.detected_label !== why.label) box.append(p(`Proposed as ${why.detected_label}.`));
  if (why.rule) {
    box.append(h4(`Rule ${why.rule.id}`));
    box.append(p(why.rule.description || ""));
    box.append(p(`${why.rule.file || ""}${why.rule.line ? ":" + why.rule.line : ""} · label ${why.rule.label}`));
  }
  if (why.crf) {
    box.append(h4(`CRF${why.score != null ? ": mean marginal " + why.score.toFixed(3) : ""}`));
    box.append(table(why.crf.tokens.map((t) => [`${t.text}  ${t.tag}`, `p=${t.marginal.toFixed(3)}  P(O)=${t.p_o.toFixed(3)}`])));
    box.append(h4("Strongest features"));
    box.append(table(why.crf.strongest.map((f) => [f.feature, f.weight.toFixed(3)])));
  }
  if (why.text) box.append(p(why.text));
  if (!box.childNodes.length) box.append(p(`source: ${why.source}`));
}

async function act(action, extra) {
  if (!S.selected || !S.view) return;
  try {
    const view = await api("/api/act", { note: S.current, span: S.selected, action, ...(extra || {}) });
    if (S.selected.startsWith("p") && action !== "reject" && action !== "pending") {
      // a second mention became a span of its own: follow it
      const was = rowOf(S.selected);
      const now = view.spans.find((s) => was && s.start === was.start && s.end === was.end && s.kind !== "propagated");
      if (now) S.selected = now.id;
    }
    showNote(view);
    if (action === "reroll") toast("new surrogate drawn");
  } catch (e) { toast(e.message, true); }
}

function moveSpan(step) {
  if (!S.view || !S.view.spans || !S.view.spans.length) return;
  const spans = S.view.spans;
  let at = spans.findIndex((s) => s.id === S.selected);
  at = at < 0 ? (step > 0 ? 0 : spans.length - 1) : Math.min(spans.length - 1, Math.max(0, at + step));
  selectSpan(spans[at].id);
}

function moveNote(step) {
  if (!S.order.length) return;
  let at = S.order.indexOf(S.current);
  at = at < 0 ? 0 : Math.min(S.order.length - 1, Math.max(0, at + step));
  openNote(S.order[at]);
}

// ---- adding a span from a selection ----------------------------------------------------------
function offsetIn(node, offset) {
  // code-point offset of a DOM position inside #orig
  const pane = $("orig");
  let el = node.nodeType === Node.TEXT_NODE ? node.parentElement : node;
  if (el === pane) {
    const child = pane.childNodes[offset];
    return child ? Number(child.dataset.start) : Array.from(S.view.text).length;
  }
  while (el && el.parentElement !== pane) el = el.parentElement;
  if (!el) return null;
  const base = Number(el.dataset.start);
  if (node.nodeType !== Node.TEXT_NODE) return base;
  return base + Array.from(node.data.slice(0, offset)).length;
}

function selectionRange() {
  const sel = window.getSelection();
  if (!sel || sel.isCollapsed || !S.view || !S.view.text) return null;
  const range = sel.getRangeAt(0);
  if (!$("orig").contains(range.commonAncestorContainer)) return null;
  const start = offsetIn(range.startContainer, range.startOffset);
  const end = offsetIn(range.endContainer, range.endOffset);
  if (start == null || end == null || end <= start) return null;
  return { start, end };
}

function showAdd() {
  const range = selectionRange();
  if (!range) return false;
  const popup = $("add-popup");
  popup.range = range;
  $("add-text").textContent = Array.from(S.view.text).slice(range.start, range.end).join("");
  const select = $("add-label");
  if (!select.options.length || select.options.length !== S.labels.length) {
    select.replaceChildren(...S.labels.map((l) => new Option(l, l)));
  }
  const rect = window.getSelection().getRangeAt(0).getBoundingClientRect();
  popup.style.left = `${Math.max(8, Math.min(rect.left, window.innerWidth - 420))}px`;
  popup.style.top = `${rect.bottom + 6}px`;
  popup.hidden = false;
  select.focus();
  return true;
}

async function addSpan() {
  const popup = $("add-popup");
  const range = popup.range;
  popup.hidden = true;
  if (!range) return;
  try {
    const view = await api("/api/add", { note: S.current, start: range.start, end: range.end, label: $("add-label").value });
    const added = view.spans.filter((s) => s.kind === "added" && s.start >= range.start && s.end <= range.end);
    S.selected = added.length ? added[added.length - 1].id : S.selected;
    window.getSelection().removeAllRanges();
    showNote(view);
    toast("span added");
  } catch (e) { toast(e.message, true); }
}

// ---- wiring ---------------------------------------------------------------------------------
function typing(event) {
  const t = event.target;
  return t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA");
}

document.addEventListener("keydown", (event) => {
  if (event.key === "Escape") {
    $("help").hidden = true;
    $("add-popup").hidden = true;
    if (typing(event)) event.target.blur();
    return;
  }
  if (event.ctrlKey || event.metaKey || event.altKey || typing(event)) return;
  const keys = {
    j: () => moveSpan(1), k: () => moveSpan(-1),
    a: () => act("accept"), r: () => act("reject"),
    l: () => { if (S.selected) $("label").focus(); },
    s: () => act("reroll"),
    e: () => { if (S.selected) $("edit").focus(); },
    n: () => { if (!showAdd()) toast("select some text in the original first", true); },
    d: () => markDone(),
    "]": () => moveNote(1), "[": () => moveNote(-1),
    "/": () => $("filter").focus(),
    "?": () => { $("help").hidden = !$("help").hidden; },
  };
  const run = keys[event.key];
  if (run) { event.preventDefault(); run(); }
});

async function markDone() {
  if (!S.current || !S.view || S.view.status === "failed") return;
  try {
    const view = await api("/api/done", { note: S.current, done: !S.view.done });
    showNote(view);
    toast(view.done ? "note marked reviewed" : "note reopened");
  } catch (e) { toast(e.message, true); }
}

$("notes").addEventListener("click", (event) => {
  const li = event.target.closest("li");
  if (li) openNote(li.dataset.id);
});
for (const pane of ["orig", "deid"]) {
  $(pane).addEventListener("click", (event) => {
    const mark = event.target.closest("mark[data-id]");
    if (mark && window.getSelection().isCollapsed) selectSpan(mark.dataset.id);
  });
  $(pane).addEventListener("mouseover", (event) => {
    const mark = event.target.closest("mark[data-id]");
    for (const m of document.querySelectorAll("mark.hover")) m.classList.remove("hover");
    if (mark) for (const m of document.querySelectorAll(`mark[data-id="${CSS.escape(mark.dataset.id)}"]`)) m.classList.add("hover");
  });
}
$("orig").addEventListener("mouseup", () => { setTimeout(() => { if (selectionRange()) showAdd(); }, 0); });
$("add-ok").addEventListener("click", addSpan);
$("add-cancel").addEventListener("click", () => { $("add-popup").hidden = true; });
$("add-label").addEventListener("keydown", (event) => { if (event.key === "Enter") { event.preventDefault(); addSpan(); } });
$("accept").addEventListener("click", () => act("accept"));
$("reject").addEventListener("click", () => act("reject"));
$("undecide").addEventListener("click", () => act("pending"));
$("reroll").addEventListener("click", () => act("reroll"));
$("label").addEventListener("change", (event) => { act("label", { label: event.target.value }); event.target.blur(); });
$("save-edit").addEventListener("click", () => act("surrogate", { value: $("edit").value }));
$("edit").addEventListener("keydown", (event) => {
  if (event.key === "Enter") { event.preventDefault(); act("surrogate", { value: $("edit").value }); event.target.blur(); }
});
$("done").addEventListener("click", markDone);
$("prev-note").addEventListener("click", () => moveNote(-1));
$("next-note").addEventListener("click", () => moveNote(1));
$("filter").addEventListener("input", renderList);
$("sort").addEventListener("change", renderList);
$("help-button").addEventListener("click", () => { $("help").hidden = !$("help").hidden; });
$("export").addEventListener("click", async () => {
  try {
    const r = await api("/api/export", {});
    toast(`exported ${r.reviewed} reviewed note(s) to ${r.folder}: ${r.released} released, ${r.held} held, ${r.failed} failed`);
  } catch (e) { toast(e.message, true); }
});

refreshList(true).then(() => {
  $("who").textContent = S.info.reviewer ? `reviewer: ${S.info.reviewer}` : "";
  poll();
}).catch((e) => toast(e.message, true));
