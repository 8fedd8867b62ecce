// Settings > Notifications: this device's Web Push subscription (via the service worker at
// /sw.js), the optional "your turn" sound (kept in this browser only) and its "play it now",
// and the test notices to a device or the chat webhook, whose outcome is shown beside them.
(function () {
  "use strict";
  const box = document.getElementById("push");
  if (!box) return;
  const status = document.getElementById("push-status");
  const enable = document.getElementById("push-enable");
  const disable = document.getElementById("push-disable");
  const csrf = JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"];

  function say(key) {
    status.textContent = box.dataset[key] || "";
  }

  function keyBytes(text) {
    const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    const raw = atob(padded);
    return Uint8Array.from(raw, function (c) { return c.charCodeAt(0); });
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    }).then(function (response) {
      if (response.ok) return response.json();
      // The server's refusal names the reason (another account's device, too many devices):
      // it is shown instead of "That did not work".
      return response.json().catch(function () { return {}; }).then(function (body) {
        const error = new Error(String(response.status));
        error.reason = body && body.error;
        throw error;
      });
    });
  }

  // The service worker also makes the site installable (with the manifest): register it even
  // where this site or browser has no Web Push.
  const registered = "serviceWorker" in navigator
    ? navigator.serviceWorker.register("/sw.js", { scope: "/" })
    : Promise.reject(new Error("no service worker"));
  // An iPhone's Safari has Web Push only for a site opened from the home screen.
  const ios = /iPhone|iPad|iPod/.test(navigator.userAgent) ||
    (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1);
  const standalone = navigator.standalone === true ||
    (window.matchMedia && window.matchMedia("(display-mode: standalone)").matches);
  if (!("PushManager" in window) || !box.dataset.key) {
    registered.catch(function () {});
    if (!box.dataset.key) status.textContent = status.textContent || box.dataset.unsupported;
    else say(ios && !standalone ? "ios" : "unsupported");
    enable.disabled = true;
    disable.disabled = true;
  } else {
    registered.then(function (registration) {
      return registration.pushManager.getSubscription();
    }).then(function (subscription) {
      say(subscription ? "on" : "off");
    }).catch(function () { say("failed"); });

    enable.addEventListener("click", function () {
      Notification.requestPermission().then(function (permission) {
        if (permission !== "granted") { say("denied"); return null; }
        return navigator.serviceWorker.ready.then(function (registration) {
          return registration.pushManager.subscribe({
            userVisibleOnly: true,
            applicationServerKey: keyBytes(box.dataset.key),
          });
        }).then(function (subscription) {
          return post(box.dataset.subscribe, subscription.toJSON());
        }).then(function () { say("on"); window.location.reload(); });
      }).catch(function (error) {
        if (error && error.reason) status.textContent = error.reason;
        else say("failed");
      });
    });

    disable.addEventListener("click", function () {
      navigator.serviceWorker.ready.then(function (registration) {
        return registration.pushManager.getSubscription();
      }).then(function (subscription) {
        if (!subscription) return null;
        const endpoint = subscription.endpoint;
        return subscription.unsubscribe().then(function () {
          return post(box.dataset.unsubscribe, { endpoint: endpoint });
        });
      }).then(function () { say("off"); window.location.reload(); })
        .catch(function () { say("failed"); });
    });
  }

  const sound = document.getElementById("turn-sound");
  if (sound) {
    sound.checked = localStorage.getItem("blokus.turnSound") === "1";
    sound.addEventListener("change", function () {
      localStorage.setItem("blokus.turnSound", sound.checked ? "1" : "0");
      if (sound.checked && window.blokusTurnSound) window.blokusTurnSound();
    });
  }

  // "Play the sound now": the chime the game's pages play (static/js/live.js), and whether it did.
  const soundTest = document.getElementById("sound-test");
  const soundResult = document.getElementById("sound-result");
  if (soundTest && soundResult) {
    soundTest.addEventListener("click", function () {
      const played = window.blokusTurnSound ? window.blokusTurnSound() : false;
      soundResult.textContent = played ? soundTest.dataset.played : soundTest.dataset.silent;
    });
  }

  // "Send me a test": posted here instead of reloading the page, its outcome written beside the
  // button, asked again every two seconds while a worker sends it (a minute at most).
  function answer(response) {
    return response.json().catch(function () { return {}; }).then(function (body) {
      if (!response.ok) throw new Error((body && body.error) || box.dataset.failed);
      return body;
    });
  }

  function follow(result, body, tries) {
    result.textContent = body.text || "";
    if (body.done || tries <= 0) return;
    setTimeout(function () {
      fetch(body.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(answer)
        .then(function (next) { follow(result, next, tries - 1); })
        .catch(function (error) { result.textContent = error.message; });
    }, 2000);
  }

  document.querySelectorAll("form.notice-test").forEach(function (form) {
    const result = form.querySelector(".test-result");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      const button = form.querySelector("button");
      button.disabled = true;
      fetch(form.action, {
        method: "POST",
        credentials: "same-origin",
        headers: { Accept: "application/json", "X-CSRFToken": csrf },
        body: new FormData(form),
      }).then(answer).then(function (body) {
        follow(result, body, 30);
      }).catch(function (error) {
        result.textContent = error.message;
      }).then(function () { button.disabled = false; });
    });
  });
})();
