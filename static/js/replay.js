// The replay's keys: Left/Right one action; Up/Down, PageUp/PageDown or Shift+Left/Right one
// turn; Home and End the first and the last position. Each key follows a step link of the
// controls: htmx swaps the position in (the links work without this script, and without htmx a
// key loads the link's page). Keys pressed while a step is loading wait their turn, so that five
// presses go five steps. After each step the current turn of the list is scrolled into view
// (inside the list only) and the keyboard focus stays on the control it was on.
const KEYS = {
  ArrowLeft: "prev",
  ArrowRight: "next",
  ArrowUp: "prev-turn",
  ArrowDown: "next-turn",
  PageUp: "prev-turn",
  PageDown: "next-turn",
  Home: "first",
  End: "last",
};
const SHIFTED = { ArrowLeft: "prev-turn", ArrowRight: "next-turn" };
const MAX_QUEUED = 20;

const section = () => document.getElementById("replay-position");

function control(step) {
  const root = section();
  return root && root.querySelector(`.replay-controls a[rel="${step}"], .replay-controls a[data-rel="${step}"]`);
}

let busy = false;
const queued = [];

function go(step) {
  if (busy) {
    if (queued.length < MAX_QUEUED) queued.push(step);
    return true;
  }
  const link = control(step);
  if (!link) return false; // the first or last position has no link back or on: nothing to do
  if (window.htmx) busy = true; // until the new position has settled
  link.click();
  return true;
}

document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
  if (e.target.closest && e.target.closest("input, textarea, select, [contenteditable]")) return;
  if (!section()) return;
  const step = (e.shiftKey && SHIFTED[e.key]) || (!e.shiftKey && KEYS[e.key]);
  if (!step) return;
  e.preventDefault();
  go(step);
});

// -- one step at a time; focus and the list's scroll carried over the swap --------------------
let focused = null; // how to find the focused element again in the new position
let listScroll = 0;

function inPosition(el) {
  return el && section() && section().contains(el);
}

document.addEventListener("htmx:beforeRequest", (e) => {
  if (inPosition(e.target)) busy = true;
});

document.addEventListener("htmx:afterRequest", (e) => {
  if (inPosition(e.target) && !e.detail.successful) {
    busy = false; // a failed step: drop what was queued behind it
    queued.length = 0;
  }
});

document.addEventListener("htmx:beforeSwap", (e) => {
  if (e.detail.target !== section()) return;
  const active = document.activeElement;
  focused = null;
  if (inPosition(active)) {
    const rel = active.getAttribute("rel") || active.dataset.rel;
    focused = rel ? { rel } : { href: active.getAttribute("href") };
  }
  const list = section().querySelector(".turn-list");
  listScroll = list ? list.scrollTop : 0;
});

document.addEventListener("htmx:afterSwap", () => {
  const list = section() && section().querySelector(".turn-list");
  if (list) list.scrollTop = listScroll;
  showCurrent();
  restoreFocus();
});

document.addEventListener("htmx:afterSettle", () => {
  showCurrent();
  busy = false;
  while (queued.length && !go(queued.shift()));
});

document.addEventListener("htmx:historyRestore", showCurrent);

function restoreFocus() {
  const root = section();
  if (!root || !focused) return;
  let target = null;
  if (focused.rel) target = control(focused.rel);
  else if (focused.href) {
    target = [...root.querySelectorAll("a[href]")].find(
      (a) => a.getAttribute("href") === focused.href,
    );
  }
  if (!target) {
    // The control is switched off at the first or last position: keep the focus in the replay.
    root.setAttribute("tabindex", "-1");
    target = root;
  }
  target.focus({ preventScroll: true });
  focused = null;
}

// -- the current turn, in view inside the list ------------------------------------------------
function showCurrent() {
  const root = section();
  const list = root && root.querySelector(".turn-list");
  if (!list) return;
  const row = list.querySelector("a.current") || list.querySelector(".turn-row.current");
  if (!row) return;
  const box = list.getBoundingClientRect();
  const at = row.getBoundingClientRect();
  const turn = row.closest(".turn-row") || row;
  const head = turn.getBoundingClientRect();
  // Fully in view (with its turn's heading): leave the list still; otherwise centre it.
  if (head.top >= box.top && at.bottom <= box.bottom) return;
  list.scrollTop += head.top - box.top - Math.max(0, (list.clientHeight - (at.bottom - head.top)) / 2);
}

showCurrent();
