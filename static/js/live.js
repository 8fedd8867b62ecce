// Live updates over websockets (Channels). Messages are nudges, never state: on a nudge the page
// fetches its own partial again through the normal views, which apply the per-seat view.
//   - <section id="game" data-live="/ws/games/<id>/" data-ply="N" data-refresh="<panel url>">:
//     a nudge with another ply re-fetches the panel; a reconnect re-syncs the same way.
//   - <body data-user-socket="/ws/me/">: "your turn" notices on any page, and presence.
(function () {
  "use strict";
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";

  function socket(path, onMessage, onOpen) {
    let delay = 1000;
    let ws;
    function open() {
      ws = new WebSocket(scheme + location.host + path);
      ws.onopen = function () { delay = 1000; if (onOpen) onOpen(ws); };
      ws.onmessage = function (event) { onMessage(JSON.parse(event.data), ws); };
      ws.onclose = function (event) {
        if (event.code >= 4000) return; // refused (not allowed): do not hammer the server
        setTimeout(open, delay);
        delay = Math.min(delay * 2, 30000);
      };
    }
    open();
  }

  function refreshGame() {
    const game = document.getElementById("game");
    if (!game || !window.htmx) return;
    htmx.ajax("GET", game.dataset.refresh, { target: "#game", swap: "outerHTML" });
  }

  function watchGame() {
    const game = document.getElementById("game");
    if (!game || !game.dataset.live) return;
    let first = true;
    socket(game.dataset.live, function (message) {
      const current = document.getElementById("game");
      if (message.type === "game.changed" && current && String(message.ply) !== current.dataset.ply) {
        refreshGame();
      }
    }, function () {
      if (!first) refreshGame(); // missed nudges while away: re-sync
      first = false;
    });
  }

  function toast(text, href) {
    const box = document.createElement("a");
    box.className = "toast";
    box.href = href;
    box.setAttribute("role", "status");
    box.textContent = text;
    document.body.appendChild(box);
    setTimeout(function () { box.remove(); }, 15000);
  }

  function watchUser() {
    const path = document.body.dataset.userSocket;
    if (!path) return;
    const title = document.title;
    socket(path, function (message) {
      if (message.type !== "your.turn") return;
      const here = document.getElementById("game");
      if (here && here.dataset.game === message.game) return; // the board already shows it
      document.title = "(●) " + title;
      toast(message.title, "/games/" + encodeURIComponent(message.game) + "/");
    }, function (ws) {
      setInterval(function () {
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "alive" }));
      }, 30000);
    });
  }

  // A form's "Cancel" link closes the form in place when scripts run (a plain link otherwise).
  document.addEventListener("click", function (event) {
    const link = event.target.closest("[data-dismiss-form]");
    if (!link) return;
    event.preventDefault();
    link.closest("form").remove();
  });

  document.addEventListener("DOMContentLoaded", function () { watchGame(); watchUser(); });
})();
