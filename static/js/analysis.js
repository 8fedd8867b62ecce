// The post-game analysis on the replay page. While the analysis runs, the section
// <section id="analysis" data-running data-live="/ws/games/<id>/" data-refresh="<section url>">
// listens on the game's websocket: each "analysis.progress" nudge (counts only) fills the bar;
// the last one ("finished") fetches the section again through its view, which swaps the chart
// and the mistakes in. After an "Analyse this game" click, htmx swaps in a running section:
// watching starts then. A socket that closes is opened again; on reopening the section is
// fetched once, in case the analysis finished meanwhile.
const section = () => document.getElementById("analysis");
let socket = null;

function refresh() {
  const box = section();
  if (!box || !window.htmx) return;
  htmx.ajax("GET", box.dataset.refresh, { target: "#analysis", swap: "outerHTML" });
}

// ``second``: every decision is judged and the biggest drops are judged again, deeper: how many
// is not known in advance, so the bar shows work going on (no value) instead of sitting full.
function progress(done, total, second) {
  const bar = document.getElementById("analysis-bar");
  const count = document.getElementById("analysis-count");
  const again = document.getElementById("analysis-second");
  if (bar) {
    bar.max = total;
    if (second) bar.removeAttribute("value");
    else bar.value = done;
  }
  if (again) again.hidden = !second;
  const place = document.getElementById("analysis-place");
  if (place) place.hidden = true; // it runs: no longer waiting in the queue
  if (count) count.textContent = count.textContent.replace(/\d+(\D+)\d+/, `${done}$1${total}`);
}

function watch() {
  const box = section();
  if (!box || box.dataset.running === undefined || socket) return;
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  let reopened = false;
  const open = () => {
    socket = new WebSocket(scheme + location.host + box.dataset.live);
    socket.onopen = () => {
      if (reopened) refresh();
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type !== "analysis.progress") return;
      progress(message.done, message.total, message.second);
      if (message.finished) {
        socket.onclose = null;
        socket.close();
        socket = null;
        refresh();
      }
    };
    socket.onclose = (event) => {
      socket = null;
      if (event.code >= 4000 || !section() || section().dataset.running === undefined) return;
      reopened = true;
      setTimeout(() => {
        if (!socket) open();
      }, 2000);
    };
  };
  open();
}

// While the analysis waits in the queue, its place is fetched again every half minute.
let placeTimer = null;
function followPlace() {
  if (placeTimer || !document.getElementById("analysis-place")) return;
  placeTimer = setTimeout(() => {
    placeTimer = null;
    const place = document.getElementById("analysis-place");
    if (place && !place.hidden) refresh();
  }, 30000);
}

document.addEventListener("htmx:afterSettle", watch);
document.addEventListener("htmx:afterSettle", followPlace);
watch();
followPlace();
