// Live updates over websockets (Channels). Messages are nudges, never state: on a nudge the page
// fetches its own partial again through the normal views, which apply the per-seat view.
//   - <section id="game" data-live="/ws/games/<id>/" data-ply="N" data-refresh="<panel url>">:
//     the game (and its waiting room). "game.changed" carries the ply it reached; the page
//     refreshes to the newest ply it has heard of: a nudge that arrives while a refresh is in
//     flight is followed by one more refresh, and a response older than the newest ply heard of
//     (a refresh answered after the next nudge, say) is followed by another. A move's own POST
//     answers 204 with the ply it reached ("game-moved"), which refreshes the same way. Every
//     socket open (the first one too), a page restored from the back/forward cache (pageshow
//     with persisted) and a tab shown again (visibilitychange) re-sync. "game.seats": a seat of
//     the waiting room changed or the game started.
//     "chat.posted": the chat log refetches the lines its viewer may read.
//   - <section data-lobby-socket="/ws/lobby/">: the lobby's tables looking for players
//     ("lobby.changed": refetch the list, at most once a second); the same for a tournament's
//     standings and rounds (data-tournament-socket, "tournament.changed").
//   - <body data-user-socket="/ws/me/">: "Play now" ("seek.changed": the waiting page refetches
//     its table, or opens the game it became; another page shows a notice), "your turn"
//     notices on any page, and presence: its pings say whether this page is visible and how long ago it had input ({"type": "ping",
//     "visible": true, "active_ms_ago": 1200}), and it reports at once when it opens, when the
//     page is hidden or shown and on the first input after a quiet spell; the server emails a
//     turn only to a player who was not at the board (games/live/presence.py).
// Keepalive: every socket pings every 25 s and expects a pong within 10 s; a socket that stays
// silent is closed and reopened (proxies cut idle connections; a dead one loses nudges).
(function () {
  "use strict";
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  const PING_EVERY = 25000;
  const PONG_WITHIN = 10000;

  const sockets = [];

  // The player's last input on this page: loading it or bringing it to the front counts too.
  let lastInput = Date.now();
  function attention() {
    return {
      visible: document.visibilityState === "visible",
      active_ms_ago: Math.max(0, Date.now() - lastInput),
    };
  }

  function socket(path, onMessage, onOpen, report) {
    let delay = 1000;
    let ws;
    let pinger = null;
    let deadline = null;
    let retry = null;
    let sent = 0;
    function stopTimers() {
      clearInterval(pinger);
      clearTimeout(deadline);
      pinger = deadline = null;
    }
    function ping() {
      if (ws.readyState !== WebSocket.OPEN) return;
      ws.send(JSON.stringify(Object.assign({ type: "ping" }, report ? report() : {})));
      sent = Date.now();
      if (!deadline) deadline = setTimeout(function () { ws.close(); }, PONG_WITHIN);
    }
    function open() {
      retry = null;
      ws = new WebSocket(scheme + location.host + path);
      ws.onopen = function () {
        delay = 1000;
        pinger = setInterval(ping, PING_EVERY);
        if (report) ping(); // say at once whether the player is here
        if (onOpen) onOpen(ws);
      };
      ws.onmessage = function (event) {
        clearTimeout(deadline); // anything heard proves the socket alive
        deadline = null;
        const message = JSON.parse(event.data);
        if (message.type !== "pong") onMessage(message, ws);
      };
      ws.onclose = function (event) {
        stopTimers();
        if (event.code >= 4000) return; // refused (not allowed): do not hammer the server
        retry = setTimeout(open, delay);
        delay = Math.min(delay * 2, 30000);
      };
    }
    open();
    // The page is looked at again (a tab woken up, a page back from the back/forward cache):
    // a socket waiting to reconnect does so now, an open one proves itself within PONG_WITHIN.
    sockets.push(function wake() {
      if (retry) {
        clearTimeout(retry);
        delay = 1000;
        open();
      } else {
        ping();
      }
    });
    // Tell the server now (hidden, or input after a quiet spell), at most every few seconds
    // for input.
    return {
      report: function (always) {
        if (ws && ws.readyState === WebSocket.OPEN && (always || Date.now() - sent > 15000)) ping();
      },
    };
  }

  function shownPly() {
    const game = document.getElementById("game");
    return game ? Number(game.dataset.ply) : 0;
  }

  let latest = 0; // the newest ply heard of
  let inFlight = false;
  let again = false;
  let againMode; // what the deferred refresh was asked for (the strongest of the asks)
  let reset = false; // a take back moved the game back: take the next response whatever its ply

  function plyOf(html) {
    const found = /id="game"[^>]*?data-ply="(\d+)"/.exec(html);
    return found ? Number(found[1]) : null;
  }

  // fetch + htmx.swap rather than htmx.ajax: a request whose target was swapped out meanwhile
  // (by a move's own response, say) is dropped by htmx without settling its promise, which would
  // leave "in flight" set for ever. A response older than what the page shows is not swapped in.
  // ``resync``: a check that the page is current (the socket opened, the page is shown again),
  // not a nudge: the same position is not drawn again (a piece in hand stays in hand), except
  // in the waiting room, whose seats change without a new ply. ``"redraw"``: the position is the
  // same but the table changed (seats, a take back asked): the same ply is drawn again. Any other
  // call (a nudge, a move's own answer) wants a newer ply only: the position on the screen is
  // never drawn again under a player's fingers (a late second fetch for the same ply did, in the
  // middle of a placement).
  function refreshGame(mode) {
    const game = document.getElementById("game");
    if (!game || !window.htmx) return;
    if (inFlight) {
      again = true; // one more as soon as this one is in
      if (mode === "redraw" || againMode === "redraw") againMode = "redraw";
      else if (mode === true || againMode === true) againMode = true;
      return;
    }
    inFlight = true;
    again = false;
    const redraw = mode === "redraw";
    const control = new AbortController();
    const watchdog = setTimeout(function () { control.abort(); }, 8000);
    let failed = false;
    fetch(game.dataset.refresh, {
      headers: { "HX-Request": "true" },
      credentials: "same-origin",
      signal: control.signal,
    })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
        return response.text();
      })
      .then(function (html) {
        const ply = plyOf(html);
        const game = document.getElementById("game");
        if (ply === null || !game) return;
        const waiting = !game.querySelector(".game-layout");
        if (reset || ply > shownPly() || (ply === shownPly() && (redraw || waiting))) {
          reset = false;
          htmx.swap("#game", html, { swapStyle: "outerHTML" });
        }
      })
      .catch(function () { failed = true; })
      .finally(function () {
        clearTimeout(watchdog);
        inFlight = false;
        if (again || latest > shownPly()) {
          const mode = again ? againMode : undefined;
          againMode = undefined;
          setTimeout(function () { refreshGame(mode); }, failed ? 2000 : 0);
        }
      });
  }

  function refreshChat() {
    const log = document.getElementById("chat-log");
    if (!log || !window.htmx) return;
    htmx.ajax("GET", log.dataset.refresh, { target: "#chat-log", swap: "outerHTML" });
  }

  // Whatever swapped the game in (a refresh, a move's own POST, a poll): if a newer ply was
  // heard of meanwhile, this is already stale.
  document.addEventListener("htmx:afterSettle", function (event) {
    if (event.target && event.target.id === "game" && latest > shownPly()) refreshGame();
    if (event.target && event.target.id === "game" && shownPly() > loadedPly) closeNotices();
  });

  // A success notice ("Your game is ready.", "Rematch: the other players are invited.") is
  // about the moment the page was loaded: once the game has moved on it goes, instead of
  // staying above the board for the whole game (the page is never reloaded while playing).
  let loadedPly = 0;
  function closeNotices() {
    document.querySelectorAll(".messages .message.success").forEach(function (notice) {
      notice.remove();
    });
    const list = document.querySelector(".messages");
    if (list && !list.children.length) list.remove();
  }

  function watchGame() {
    const game = document.getElementById("game");
    if (!game || !game.dataset.live) return;
    latest = shownPly();
    socket(game.dataset.live, function (message) {
      if (message.type === "game.changed") {
        latest = Math.max(latest, Number(message.ply));
        if (latest !== shownPly()) refreshGame();
      } else if (message.type === "game.reset") {
        latest = Number(message.ply);
        reset = true;
        refreshGame();
      } else if (message.type === "game.seats") {
        refreshGame("redraw");
      } else if (message.type === "chat.posted") {
        refreshChat();
      }
    }, function () {
      // Every open, the first one too: a move made between the page's render and this moment
      // (or while the page sat in a cache, or the socket was down) sent a nudge nobody heard.
      // The server answers the open with the game's ply ("game.changed"), so a current page
      // fetches nothing; the waiting room's seats change without a new ply: re-sync it.
      if (!document.querySelector("#game .game-layout")) refreshGame(true);
      refreshChat();
    });
  }

  // Shown again: restored whole from the back/forward cache (its socket was closed meanwhile),
  // or a tab brought back to the front after sleeping. Check at once, not at the next nudge.
  function wake() {
    sockets.forEach(function (poke) { poke(); });
    if (document.getElementById("game")) { refreshGame(true); refreshChat(); }
  }
  window.addEventListener("pageshow", function (event) { if (event.persisted) wake(); });
  let userSocket = null;
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      lastInput = Date.now();
      wake();
    } else if (userSocket) {
      userSocket.report(true); // hidden: no longer at the board
    }
  });
  ["keydown", "pointerdown", "pointermove", "wheel", "touchstart"].forEach(function (name) {
    document.addEventListener(name, function () {
      lastInput = Date.now();
      if (userSocket) userSocket.report(false);
    }, { passive: true, capture: true });
  });

  // A short optional chime when a notice arrives (Settings > Notifications: kept per browser).
  // Drawn with WebAudio: no sound file to download.
  // Whether it played (Settings > Notifications' "Play the sound now" says so).
  function turnSound(force) {
    if (!force && localStorage.getItem("blokus.turnSound") !== "1") return false;
    const Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return false;
    try {
      const audio = new Context();
      [660, 880].forEach(function (pitch, i) {
        const tone = audio.createOscillator();
        const level = audio.createGain();
        const start = audio.currentTime + i * 0.12;
        tone.frequency.value = pitch;
        level.gain.setValueAtTime(0.08, start);
        level.gain.exponentialRampToValueAtTime(0.0001, start + 0.25);
        tone.connect(level).connect(audio.destination);
        tone.start(start);
        tone.stop(start + 0.26);
      });
      setTimeout(function () { audio.close(); }, 800);
      return true;
    } catch (e) { return false; /* a browser that refuses audio: stay silent */ }
  }
  window.blokusTurnSound = function () { return turnSound(true); };

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
    userSocket = socket(path, function (message) {
      if (message.type === "seek.changed") {
        // "Play now": the table forming around this player changed, or became a game.
        const waiting = document.getElementById("seek");
        if (waiting) {
          if (message.game) {
            waiting.remove(); // no refetch of the table races the navigation
            window.location.assign("/games/" + encodeURIComponent(message.game) + "/");
          } else {
            document.body.dispatchEvent(new Event("seek-changed"));
          }
        } else if (message.game) {
          turnSound();
          toast(message.title, "/games/" + encodeURIComponent(message.game) + "/");
        }
        return;
      }
      if (message.type !== "your.turn") return;
      turnSound();
      const here = document.getElementById("game");
      if (here && here.dataset.game === message.game) return; // the board already shows it
      document.title = "(●) " + title;
      toast(message.title, "/games/" + encodeURIComponent(message.game) + "/");
    }, function () {
      // Every open: a "Play now" table that changed (or became a game) while this page had no
      // socket sent a nudge nobody heard; the waiting page asks again.
      if (document.getElementById("seek")) document.body.dispatchEvent(new Event("seek-changed"));
    }, attention);
  }

  // A move's own POST answers 204 and names the ply it reached (HX-Trigger "game-moved"): the
  // page fetches its panel for that ply, as after a nudge (games/views/game.py, ``moved``).
  document.addEventListener("game-moved", function (event) {
    const ply = Number(event.detail && event.detail.ply);
    if (ply) latest = Math.max(latest, ply);
    if (!ply || ply > shownPly()) refreshGame(); // its nudge may have brought it already
  });

  // A form's "Cancel" link closes the form in place when scripts run (a plain link otherwise).
  document.addEventListener("click", function (event) {
    const link = event.target.closest("[data-dismiss-form]");
    if (!link) return;
    event.preventDefault();
    link.closest("form").remove();
  });

  // The lobby: the tables looking for players changed. A burst of changes (many players asking
  // at once) refetches the list once a second at most.
  function watchList(attribute, type, eventName) {
    const section = document.querySelector("[" + attribute + "]");
    if (!section) return;
    let pending = null;
    socket(section.getAttribute(attribute), function (message) {
      if (message.type !== type || pending) return;
      pending = setTimeout(function () {
        pending = null;
        document.body.dispatchEvent(new Event(eventName));
      }, 1000);
    }, function () { document.body.dispatchEvent(new Event(eventName)); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    loadedPly = shownPly();
    watchGame();
    watchUser();
    watchList("data-lobby-socket", "lobby.changed", "lobby-changed");
    watchList("data-tournament-socket", "tournament.changed", "tournament-changed");
  });
})();
