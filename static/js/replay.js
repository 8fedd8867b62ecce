// The replay's keys: ← → one action, ↑ ↓ one turn, Home and End. Each follows the step link of
// the controls (htmx swaps the position in; without htmx the link loads the page). The current
// turn of the list is scrolled into view after each step.
const KEYS = {
  ArrowLeft: 'a[rel="prev"]',
  ArrowRight: 'a[rel="next"]',
  ArrowUp: 'a[data-rel="prev-turn"]',
  ArrowDown: 'a[data-rel="next-turn"]',
  PageUp: 'a[data-rel="prev-turn"]',
  PageDown: 'a[data-rel="next-turn"]',
  Home: 'a[rel="first"]',
  End: 'a[rel="last"]',
};

document.addEventListener("keydown", (e) => {
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  if (e.target.closest("input, textarea, select")) return;
  const selector = KEYS[e.key];
  const link = selector && document.querySelector(`.replay-controls ${selector}`);
  if (!link) return;
  e.preventDefault();
  link.click();
});

function showCurrent() {
  const row = document.querySelector(".turn-list .current");
  const list = document.querySelector(".turn-list");
  if (row && list) list.scrollTop = row.offsetTop - list.offsetTop - list.clientHeight / 2;
}
document.addEventListener("htmx:afterSettle", showCurrent);
showCurrent();
