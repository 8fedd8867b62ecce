// The game board: an SVG picture of the position (games/play.html#board_js) and, for the seat
// deciding a placement or a warp, a tray of pieces and a ghost that shows at once whether it may
// go where it is. Legality comes only from the engine's legal actions that the server embeds for
// this step (<script id="legal">): the browser looks the ghost's squares up there and runs no
// rule of its own. A move is the usual form post (action JSON, ply, key) that the server checks
// again. Without this module the table board and its links do the same, one request per step.
// Which kind of decision it is comes from the server too (legal.action: the step's action key in
// the engine's step registry, games/engine/steps.py): the script names no step of the rules.
const COLS = "abcdefghijklmnopqrst";
const N = 20;
const S = 10; // one square, in SVG units
const L = 9; // room for the row numbers on the left
const T = 1;
const NS = "http://www.w3.org/2000/svg";
const COLOUR = { B: "blue", Y: "yellow", R: "red", G: "green" };
// A colour's letter on its squares, in the page's language (Swedish gul and grön: Gu, Gr).
const letterOf = (colour) => {
  t("");
  return (words.letters && words.letters[colour]) || colour.charAt(0).toUpperCase();
};
let memory = null; // the selection, kept when the same decision is drawn again (a refusal)
// ... and across a reload of the page in the middle of the turn: kept in the tab's session
// storage, one entry per game, read back only for the same decision (its ply, step and source).
const stored = (gameId) => {
  try {
    return JSON.parse(sessionStorage.getItem(`blokus.hand.${gameId}`) || "null");
  } catch (err) { // storage refused (a private window): the selection lives in the page only
    return null;
  }
};
const store = (gameId, value) => {
  try {
    sessionStorage.setItem(`blokus.hand.${gameId}`, JSON.stringify(value));
  } catch (err) { /* as above */ }
};
// How the player points: a touch screen's first words speak of taps before any tap is made.
let lastPointer = window.matchMedia && matchMedia("(pointer: coarse)").matches ? "touch" : "mouse";
const tapping = () => lastPointer !== "mouse";
// The player's "confirm moves" setting (on unless turned off, games/play.html): a click, a tap
// or Enter puts the ghost down; Confirm (or Enter again) sends it, Undo picks it up again.
const confirming = () => {
  const node = document.querySelector("[data-confirm-moves]");
  return !node || node.dataset.confirmMoves !== "0";
};

function svg(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const k in attrs) node.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(node);
  return node;
}

function html(tag, attrs, parent, text) {
  const node = document.createElement(tag);
  for (const k in attrs) node.setAttribute(k, attrs[k]);
  if (text) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

const name = (x, y) => COLS[x] + (y + 1);
const parse = (sq) => [COLS.indexOf(sq[0]), parseInt(sq.slice(1), 10) - 1];
const byCol = (a, b) => a[0] - b[0] || a[1] - b[1];
const squares = (cells) => cells.slice().sort(byCol).map((c) => name(c[0], c[1])).join(",");
const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);

// The words this script writes, in the page's language (games/play.html renders them as JSON,
// games/presenters/board.py's script_text): t("fits", {piece, square}) fills in {piece} ...
let words = null;
let wordsNode = null;
function t(key, values) {
  const node = document.getElementById("board-text"); // a new panel brings its own
  if (node !== wordsNode || !words) {
    wordsNode = node;
    words = node ? JSON.parse(node.textContent) : {};
  }
  let text = words[key];
  if (Array.isArray(text)) text = text[values && values.n === 1 ? 0 : 1];
  return String(text === undefined ? key : text).replace(/\{(\w+)\}/g, (all, k) => (values && k in values ? values[k] : all));
}

function normal(cells) {
  const mx = Math.min(...cells.map((c) => c[0]));
  const my = Math.min(...cells.map((c) => c[1]));
  return cells.map((c) => [c[0] - mx, c[1] - my]).sort(byCol);
}
const shapeKey = (cells) => normal(cells).join(" ");
const rotate = (cells) => normal(cells.map((c) => [c[1], -c[0]])); // a quarter turn clockwise
const flip = (cells) => normal(cells.map((c) => [-c[0], c[1]])); // mirrored left to right

// The square of a piece that follows the pointer: the middle of its bounding box.
function handle(cells) {
  const w = Math.max(...cells.map((c) => c[0])) + 1;
  const h = Math.max(...cells.map((c) => c[1])) + 1;
  return [Math.floor((w - 1) / 2), Math.floor((h - 1) / 2)];
}

function mini(cells, parent) {
  const w = Math.max(...cells.map((c) => c[0])) + 1;
  const h = Math.max(...cells.map((c) => c[1])) + 1;
  const pic = svg("svg", { viewBox: `-0.1 -0.1 ${w + 0.2} ${h + 0.2}`, "aria-hidden": "true" }, parent);
  pic.style.width = `${w * 0.6}rem`;
  for (const [x, y] of cells) svg("rect", { x, y: h - 1 - y, width: 1, height: 1 }, pic);
  return pic;
}

// A colour's name in the page's language (its key, "blue" …, stays the CSS class).
const colourName = (colour) => {
  t("");
  return (words.colours && words.colours[colour]) || colour;
};

function setUp(game) {
  const root = game.querySelector("[data-board-root]");
  const dataNode = game.querySelector("#board-data");
  if (!root || !dataNode || root.dataset.ready) return;
  root.dataset.ready = "1";
  const data = JSON.parse(dataNode.textContent);
  const legalNode = game.querySelector("#legal");
  const legal = legalNode ? JSON.parse(legalNode.textContent) : null;
  const form = game.querySelector("#board-act");
  const warp = legal && legal.action === "warp";
  const pieceColour = (src) => colourName(legal.pieces[src].colour);
  let source = warp ? legal.source : null; // the opponent piece a warp moves
  let piece = null; // the piece in hand: {name, cells (as turned now), texts, list}
  let cursor = [9, 9];
  let armed = null; // a touch put the ghost here; a second tap places it
  let spotIndex = -1;
  let busy = false;
  const colourAt = {};
  data.board.forEach((row, i) => {
    for (let x = 0; x < N; x++) if (COLOUR[row[x]]) colourAt[name(x, N - 1 - i)] = COLOUR[row[x]];
  });

  // -- the picture ------------------------------------------------------------------------
  const board = svg("svg", {
    viewBox: `0 0 ${L + N * S + 2} ${T + N * S + 9}`,
    class: "board-svg",
  });
  root.appendChild(board);
  svg("rect", { x: L, y: T, width: N * S, height: N * S, class: "bg" }, board);
  let grid = "";
  for (let i = 0; i <= N; i++) grid += `M${L + i * S} ${T}v${N * S}M${L} ${T + i * S}h${N * S}`;
  svg("path", { d: grid, class: "grid" }, board);
  const px = (x) => L + x * S;
  const py = (y) => T + (N - 1 - y) * S;
  for (let i = 0; i < N; i++) {
    svg("text", { x: px(i) + S / 2, y: T + N * S + 7, class: "coord" }, board).textContent = COLS[i];
    svg("text", { x: L - 1.2, y: py(i) + 6.8, class: "coord row" }, board).textContent = i + 1;
  }
  for (const sq in colourAt) {
    const [x, y] = parse(sq);
    const mark = data.marks[sq] || "";
    svg("rect", { x: px(x), y: py(y), width: S, height: S, class: `sq ${colourAt[sq]} ${mark}`, "data-sq": sq }, board);
    svg("text", { x: px(x) + S / 2, y: py(y) + 6.8, class: `letter ${colourAt[sq]}` }, board).textContent = letterOf(colourAt[sq]);
  }
  for (const sq in data.marks) {
    const [x, y] = parse(sq);
    if (data.marks[sq] === "first" || data.marks[sq] === "pick") {
      svg("rect", { x: px(x) + 1, y: py(y) + 1, width: S - 2, height: S - 2, class: `mark ${data.marks[sq]}` }, board);
    }
  }
  for (const sq of data.last) {
    const [x, y] = parse(sq);
    svg("rect", { x: px(x) + 0.8, y: py(y) + 0.8, width: S - 1.6, height: S - 1.6, class: "last" }, board);
  }
  for (const sq of data.anchors) {
    const [x, y] = parse(sq);
    const cx = px(x) + S / 2;
    const cy = py(y) + S / 2;
    svg("path", { d: `M${cx} ${cy - 3}l3 3l-3 3l-3 -3z`, class: `anchor ${data.toMove}` }, board);
  }
  const spotLayer = svg("g", { class: "spots" }, board);
  const ghost = svg("g", { class: "ghost" }, board);
  const cursorBox = svg("rect", { width: S, height: S, class: "cursor", visibility: "hidden" }, board);

  const legend = html("p", { class: "board-legend" }, root);
  if (data.toMove && data.anchors.length) {
    html("span", { class: `key-anchor ${data.toMove}`, "aria-hidden": "true" }, legend, "◆");
    legend.append(` ${t("anchorLegend", { colour: cap(data.toMoveName || data.toMove) })}`);
    if (data.last.length) legend.append(" · ");
  }
  if (data.last.length) {
    html("span", { class: "key-last", "aria-hidden": "true" }, legend, "▢");
    legend.append(` ${t("lastLegend")}`);
  }

  // Screen readers read the table board (kept in the page, off screen); its links stay usable
  // there but leave the tab order to this board.
  game.querySelectorAll(".nojs-board a, .nojs-board button").forEach((e) => { e.tabIndex = -1; });
  // On the layout, not on #game: htmx settles #game's own attributes after a swap.
  (game.querySelector(".game-layout") || game).classList.add("enhanced");

  if (!legal) {
    board.setAttribute("aria-hidden", "true");
    tray(null);
    return;
  }

  // -- the decision: tray, ghost, keys ------------------------------------------------------
  // Said next to the decision (in the phone's bottom sheet too), else under the board.
  const statusBox = game.querySelector("[data-tray-slot]") || root;
  const status = html("p", { class: "board-status", role: "status", "aria-live": "polite" }, statusBox);
  board.setAttribute("tabindex", "0");
  board.setAttribute("role", "application");
  board.setAttribute("aria-roledescription", "board");
  board.setAttribute("aria-label", t("boardLabel"));
  const decisionKey = `${data.ply}/${legal.step}/${source || ""}`;
  if (legal.action === "recycle") {
    recycleOnBoard(game, legal, board, status, form, cellAt);
    return;
  }

  function choicesFor(pieceName) {
    if (warp) return source ? legal.moves[source] || [] : [];
    return (legal.placements[pieceName] || []);
  }

  function select(pieceName, keep) {
    const texts = choicesFor(pieceName);
    const base = (warp ? legal.shapes : data.shapes)[pieceName];
    const list = texts.map((text) => {
      const cells = text.split(",").map(parse);
      const n = normal(cells);
      const mx = Math.min(...cells.map((c) => c[0]));
      const my = Math.min(...cells.map((c) => c[1]));
      return { text, key: n.join(" "), mx, my };
    });
    piece = { name: pieceName, texts: new Set(texts), list, cells: normal(base) };
    // Start in the orientation kept from before, else the first one (R then F) that fits.
    const tries = [];
    let c = piece.cells;
    for (let side = 0; side < 2; side++) {
      for (let r = 0; r < 4; r++) { tries.push(c); c = rotate(c); }
      c = flip(c);
    }
    const wanted = keep && tries.find((t) => t.join(" ") === keep);
    piece.cells = wanted || tries.find((t) => list.some((p) => p.key === t.join(" "))) || piece.cells;
    spotIndex = -1;
    armed = null;
    remember();
    drawTray();
    drawSpots();
    draw();
  }

  function remember() {
    memory = {
      decisionKey,
      source,
      piece: piece && piece.name,
      cells: piece && piece.cells.join(" "),
      cursor: piece ? cursor : null,
      armed: Boolean(armed),
    };
    store(game.dataset.game, memory);
  }

  function spots() {
    if (!piece) return [];
    const key = piece.cells.join(" ");
    const [hx, hy] = handle(piece.cells);
    return piece.list.filter((p) => p.key === key).map((p) => [p.mx + hx, p.my + hy]);
  }

  function drawSpots() {
    spotLayer.replaceChildren();
    for (const [x, y] of spots()) {
      svg("circle", { cx: px(x) + S / 2, cy: py(y) + S / 2, r: 1.6, class: "spot" }, spotLayer);
    }
  }

  function ghostCells() {
    const [hx, hy] = handle(piece.cells);
    return piece.cells.map(([x, y]) => [cursor[0] - hx + x, cursor[1] - hy + y]);
  }

  function fits() {
    if (!piece) return false;
    const cells = ghostCells();
    if (cells.some(([x, y]) => x < 0 || y < 0 || x >= N || y >= N)) return false;
    return piece.texts.has(squares(cells));
  }

  function draw(say) {
    if (piece) remember(); // the spot too
    ghost.replaceChildren();
    cursorBox.setAttribute("x", px(cursor[0]));
    cursorBox.setAttribute("y", py(cursor[1]));
    cursorBox.setAttribute("visibility", "visible");
    const here = name(cursor[0], cursor[1]);
    placeButton.disabled = !fits();
    undoButton.hidden = !armed;
    placeButton.textContent = armed ? t("confirm") : (warp ? t("moveHere") : t("place"));
    if (!piece) {
      if (say) {
        status.textContent = warp && !source ? warpHint(here)
          : (colourAt[here] ? t("squareColour", { square: here, colour: colourName(colourAt[here]) }) : t("squareFree", { square: here }));
      }
      return;
    }
    const ok = fits();
    const colour = warp ? legal.pieces[source].colour : data.toMove;
    ghost.setAttribute("class", `ghost ${colour} ${ok ? "ok" : "bad"}${armed ? " armed" : ""}`);
    for (const [x, y] of ghostCells()) {
      svg("rect", { x: px(x) + 0.5, y: py(y) + 0.5, width: S - 1, height: S - 1 }, ghost);
      if (!ok) svg("path", { d: `M${px(x) + 2.5} ${py(y) + 2.5}l5 5m0 -5l-5 5` }, ghost);
    }
    board.dataset.ghost = squares(ghostCells());
    board.dataset.fits = ok ? "yes" : "no";
    if (say !== false) {
      // A finger is told of taps (a tap always puts the ghost down first), a mouse of clicks.
      const touch = lastPointer !== "mouse";
      let next = touch ? t("hintTouch") : t("nextClick");
      if (armed) {
        next = touch ? t("nextTap") : t("nextConfirm");
      } else if (confirming() && !touch) {
        next = t("nextPut");
      }
      status.textContent = ok ? `${t("fits", { piece: piece.name, square: here })} ${next}`
        : t("fitsNot", { piece: piece.name, square: here });
    }
  }

  function warpHint(here) {
    const src = Object.keys(legal.moves).find((s) => s.split(",").includes(here));
    if (!src) return t("warpNone", { square: here });
    return t("warpPick", { square: here, colour: pieceColour(src), piece: legal.pieces[src].piece });
  }

  function turn(f) {
    if (!piece || busy) return;
    piece.cells = f(piece.cells);
    spotIndex = -1;
    armed = null;
    remember();
    drawTray();
    drawSpots();
    draw();
  }

  function nextSpot(step) {
    const all = spots();
    if (!all.length) {
      status.textContent = t("noSpot", { piece: piece.name });
      return;
    }
    spotIndex = (spotIndex + step + all.length) % all.length;
    cursor = all[spotIndex];
    draw();
  }

  function arm() {
    if (!piece || !fits()) {
      if (piece) status.textContent = t("notAt", { piece: piece.name, square: name(cursor[0], cursor[1]) });
      return;
    }
    armed = cursor.slice();
    draw();
    status.textContent = t("armed", { piece: piece.name, squares: squares(ghostCells()) });
  }

  function undo() {
    armed = null;
    draw(false);
    status.textContent = piece ? t("undone", { piece: piece.name }) : t("undoneAny");
  }

  function submit() {
    if (!piece || busy) return;
    if (!fits()) {
      status.textContent = t("notAt", { piece: piece.name, square: name(cursor[0], cursor[1]) });
      return;
    }
    const text = squares(ghostCells());
    form.elements.action.value = JSON.stringify(warp ? { warp: source, to: text } : { place: text });
    busy = true;
    status.textContent = t("placing", { piece: piece.name, squares: text });
    form.requestSubmit();
  }

  function pickSource(sq) {
    const src = Object.keys(legal.moves).find((s) => s.split(",").includes(sq));
    if (!src) return false;
    source = src;
    for (const rect of board.querySelectorAll(".sq")) {
      rect.classList.toggle("lifted", src.split(",").includes(rect.dataset.sq));
    }
    select(legal.pieces[src].piece);
    nextSpot(1);
    status.textContent = t("moving", { colour: pieceColour(src), piece: legal.pieces[src].piece, squares: src });
    return true;
  }

  function cellAt(evt) {
    const box = board.getBoundingClientRect();
    const vb = board.viewBox.baseVal;
    const x = Math.floor((((evt.clientX - box.left) * vb.width) / box.width - L) / S);
    const y = N - 1 - Math.floor((((evt.clientY - box.top) * vb.height) / box.height - T) / S);
    return x >= 0 && y >= 0 && x < N && y < N ? [x, y] : null;
  }

  board.addEventListener("pointermove", (e) => {
    if (e.pointerType !== "mouse" || !piece || armed) return;
    const cell = cellAt(e);
    if (cell && (cell[0] !== cursor[0] || cell[1] !== cursor[1])) {
      cursor = cell;
      draw();
    }
  });
  board.addEventListener("contextmenu", (e) => { // a right click turns the piece in hand
    if (!piece) return;
    e.preventDefault();
    turn(rotate);
  });
  board.addEventListener("click", (e) => {
    const cell = cellAt(e);
    if (!cell || busy) return;
    const touch = lastPointer !== "mouse";
    if (warp && !source) {
      pickSource(name(cell[0], cell[1]));
      return;
    }
    if (!piece) return;
    if (touch || confirming()) {
      // A tap (or, confirming, a click) puts the ghost down there; a second tap on the same
      // square or Confirm places it. A mouse's second click only moves the ghost: no slip of
      // the mouse places a piece.
      const same = armed && armed[0] === cell[0] && armed[1] === cell[1];
      cursor = cell;
      if (touch && same && fits()) { submit(); return; }
      armed = fits() ? cell : null;
      draw();
      return;
    }
    cursor = cell;
    draw();
    submit();
  });

  root.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || busy) return;
    const onBoard = e.target === board;
    const move = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
    if (move && onBoard) {
      cursor = [Math.min(N - 1, Math.max(0, cursor[0] + move[0])), Math.min(N - 1, Math.max(0, cursor[1] + move[1]))];
      armed = null;
      draw();
    } else if (e.key === "r" || e.key === "R") {
      turn(rotate);
    } else if (e.key === "f" || e.key === "F") {
      turn(flip);
    } else if ((e.key === "n" || e.key === "N") && piece) {
      nextSpot(e.shiftKey ? -1 : 1);
    } else if ((e.key === "Enter" || e.key === " ") && onBoard) {
      if (warp && !source) pickSource(name(cursor[0], cursor[1]));
      else if (confirming() && !armed) arm();
      else submit();
    } else if (e.key === "Escape" && armed) {
      undo();
    } else if (e.key === "Escape" && piece && !(warp && legal.source)) {
      piece = null;
      if (warp) source = null;
      board.querySelectorAll(".lifted").forEach((r) => r.classList.remove("lifted"));
      remember();
      ghost.replaceChildren();
      spotLayer.replaceChildren();
      drawTray();
      status.textContent = t("putBack");
    } else {
      return;
    }
    e.preventDefault();
  });

  // -- the tray -----------------------------------------------------------------------------
  // Beside the board, under the decision (games/play.html's tray slot), else under the board.
  const slot = game.querySelector("[data-tray-slot]") || root;
  const tools = html("div", { class: "tray-tools" }, slot);
  const trayBox = html("div", { class: "tray-box" }, slot);
  const rotateButton = html("button", { type: "button", "aria-keyshortcuts": "R" }, tools, t("rotate"));
  const flipButton = html("button", { type: "button", "aria-keyshortcuts": "F" }, tools, t("flip"));
  const placeButton = html("button", { type: "button", class: "primary" }, tools, warp ? t("moveHere") : t("place"));
  const undoButton = html("button", { type: "button", class: "undo" }, tools, t("undo"));
  rotateButton.addEventListener("click", () => turn(rotate));
  flipButton.addEventListener("click", () => turn(flip));
  placeButton.addEventListener("click", () => {
    if (confirming() && !armed) arm();
    else submit();
  });
  undoButton.addEventListener("click", undo);
  placeButton.disabled = true;
  undoButton.hidden = true;

  function drawTray() {
    // Drawn again on every pick and turn: the tray keeps where it was scrolled to (a phone's
    // shows a few pieces at once) and the key focus stays on the same piece.
    const was = trayBox.querySelector(".tray");
    const left = was ? was.scrollLeft : 0;
    const focused = was && was.contains(document.activeElement) ? document.activeElement.dataset.piece : null;
    trayBox.replaceChildren();
    if (warp) {
      if (!source) {
        html("p", { class: "tray-note" }, trayBox, t(tapping() ? "warpNoteTouch" : "warpNote"));
      } else {
        const info = legal.pieces[source];
        tray([info.piece], info.colour);
      }
    } else {
      tray(legal.tray || data.tray, data.toMove);
    }
    rotateButton.disabled = flipButton.disabled = !piece;
    const list = trayBox.querySelector(".tray");
    if (!list) return;
    list.scrollLeft = left;
    const chosen = list.querySelector(".tray-piece[aria-pressed=true]");
    if (chosen) keepInView(list, chosen);
    const again = focused && list.querySelector(`.tray-piece[data-piece="${focused}"]`);
    if (again) again.focus({ preventScroll: true });
  }

  function tray(names, colour) {
    const box = legal ? trayBox : html("div", { class: "tray-box" }, game.querySelector("[data-tray-slot]") || root);
    colour = colour || data.toMove;
    names = names || data.tray;
    if (!colour || !names.length) return;
    const shown = colour === data.toMove ? (data.toMoveName || colour) : colourName(colour);
    const label = cap(t("trayLabel", { colour: shown }));
    if (!legal) {
      // Not this reader's placement (another player's turn, a card to choose first): the tray
      // says whose pieces it shows, in words, not by their colour alone.
      const caption = html("p", { class: "tray-caption" }, box);
      html("span", { class: `swatch ${colour}`, "aria-hidden": "true" }, caption, letterOf(colour));
      const player = t("trayPlayer");
      caption.append(` ${player && player !== "trayPlayer" ? cap(t("trayOf", { colour: shown, player })) : label}`);
    }
    const row = html("div", { class: "tray-row" }, box);
    const list = html("ul", { class: `tray ${colour}`, "aria-label": label }, row);
    for (const pieceName of names) {
      const item = html("li", {}, list);
      const selected = piece && piece.name === pieceName;
      const cells = selected ? piece.cells : normal((warp ? legal.shapes : data.shapes)[pieceName]);
      if (!legal) {
        mini(cells, item);
        html("span", { class: "tray-name" }, item, pieceName);
        continue;
      }
      const count = choicesFor(pieceName).length;
      const button = html("button", {
        type: "button",
        class: "tray-piece",
        "aria-pressed": selected ? "true" : "false",
        "aria-label": t("spots", { piece: pieceName, n: count }),
        "data-piece": pieceName,
        tabindex: "-1",
      }, item);
      if (!count) button.setAttribute("aria-disabled", "true");
      mini(cells, button);
      html("span", { class: "tray-name" }, button, pieceName);
      button.addEventListener("click", (e) => {
        if (!count || busy) {
          status.textContent = t("fitsNowhere", { piece: pieceName });
          return;
        }
        select(pieceName);
        nextSpot(1); // the ghost starts on a spot where it fits
        const spots = `${t("spotsDots", { piece: pieceName, n: count })} `;
        if (e.detail === 0) { // a key, not a pointer, pressed the button
          board.focus();
        } else if (lastPointer === "mouse") {
          status.textContent = spots + t("hintMouse");
        } else {
          status.textContent = spots + t("hintTouch");
        }
      });
    }
    if (legal) {
      // One stop of the Tab key: the piece in hand, else the first that can be placed; the
      // arrow keys move along the tray.
      const buttons = [...list.querySelectorAll(".tray-piece")];
      const stop = buttons.find((b) => b.getAttribute("aria-pressed") === "true")
        || buttons.find((b) => !b.hasAttribute("aria-disabled")) || buttons[0];
      if (stop) stop.tabIndex = 0;
      roving(list, ".tray-piece");
    }
    scrollHints(row, list);
  }

  drawTray();
  const kept = memory && memory.decisionKey === decisionKey ? memory : stored(game.dataset.game);
  const reloaded = kept !== memory;
  if (kept && kept.decisionKey === decisionKey) {
    if (warp && kept.source && !source) pickSource(kept.source.split(",")[0]);
    if (kept.piece && choicesFor(kept.piece).length) {
      select(kept.piece, kept.cells);
      if (kept.cursor) { // the spot it was on; put down again after a reload if it was (after a
        // refusal the player moves it first)
        cursor = kept.cursor;
        armed = reloaded && kept.armed && fits() ? cursor.slice() : null;
        draw();
      }
    }
  } else if (warp && source) {
    select(legal.pieces[source].piece);
  }
  game.addEventListener("htmx:afterRequest", () => { busy = false; });
}

// A row that scrolls sideways (the phone's tray): the item is brought fully into view inside
// the row, clear of the hints at its ends, without scrolling the page.
function keepInView(list, item) {
  const row = list.getBoundingClientRect();
  const box = item.getBoundingClientRect();
  const pad = list.scrollWidth > list.clientWidth ? 36 : 0; // the width of a hint
  if (box.left < row.left + pad) list.scrollLeft -= row.left + pad - box.left;
  else if (box.right > row.right - pad) list.scrollLeft += box.right - (row.right - pad);
}

// A row of choices is one stop of the Tab key; the arrow keys, Home and End move within it
// (a roving tabindex: the item last reached keeps tabindex 0).
function roving(list, selector) {
  if (list.dataset.roving) return;
  list.dataset.roving = "1";
  const items = () => [...list.querySelectorAll(selector)];
  const all = items();
  if (!all.some((b) => b.getAttribute("tabindex") === "0")) {
    all.forEach((b, i) => { b.tabIndex = i ? -1 : 0; });
  }
  list.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const all = items();
    const at = all.indexOf(document.activeElement);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1, Home: 0, End: all.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = all[Math.max(0, Math.min(all.length - 1, to))];
    all.forEach((b) => { b.tabIndex = b === next ? 0 : -1; });
    next.focus({ preventScroll: true });
    keepInView(list, next);
  });
}

// A row that is wider than the screen says so: a fading edge and an arrow with the number of
// pieces beyond it, at each end where there is more; a tap on the arrow scrolls the row.
function scrollHints(box, list) {
  const more = html("button", { type: "button", class: "tray-more next", tabindex: "-1", "aria-hidden": "true" }, box);
  const less = html("button", { type: "button", class: "tray-more prev", tabindex: "-1", "aria-hidden": "true" }, box, "‹");
  const update = () => {
    const over = list.scrollWidth - list.clientWidth > 1;
    const row = list.getBoundingClientRect();
    const beyond = [...list.children].filter((li) => li.getBoundingClientRect().left >= row.right - 8).length;
    box.classList.toggle("scrolls", over);
    less.hidden = !over || list.scrollLeft < 2;
    more.hidden = !over || list.scrollLeft + list.clientWidth >= list.scrollWidth - 2;
    more.textContent = beyond ? `+${beyond} ›` : "›";
    box.classList.toggle("more-next", !more.hidden);
    box.classList.toggle("more-prev", !less.hidden);
  };
  const page = (sign) => list.scrollBy({ left: sign * list.clientWidth * 0.8, behavior: "smooth" });
  more.addEventListener("click", () => page(1));
  less.addEventListener("click", () => page(-1));
  list.addEventListener("scroll", update, { passive: true });
  if (window.ResizeObserver) new ResizeObserver(update).observe(list); // a turned phone, say
  update();
}

// The cards on a phone (the decision in its sheet, where a card shows the start of its effect):
// a first tap opens the card whole, and nothing is played; Play, or a second tap on it, plays
// it. Elsewhere the whole card is on the screen and a click plays it.
function cardsToRead(game) {
  const sheet = game.querySelector(".decision-sheet");
  const list = sheet && sheet.querySelector(".controls .card-list");
  if (!list || list.dataset.reading) return;
  list.dataset.reading = "1";
  const tools = html("div", { class: "card-tools", hidden: "" });
  list.after(tools);
  const play = html("button", { type: "button", class: "primary" }, tools);
  const hint = html("p", { role: "status" }, tools);
  let open = null;
  const phone = () => getComputedStyle(sheet).position === "fixed";
  list.addEventListener("click", (e) => {
    const card = e.target.closest("button.card");
    if (!card || !phone() || card === open) return; // a second tap plays it
    e.preventDefault();
    open = card;
    list.querySelectorAll("button.card").forEach((b) => b.setAttribute("aria-pressed", b === card ? "true" : "false"));
    list.classList.add("reading");
    const name = card.querySelector("strong").textContent;
    play.textContent = t("playCard", { card: name });
    hint.textContent = t("playHint");
    tools.hidden = false;
    fitSheet();
    keepInView(list, card);
    const below = tools.getBoundingClientRect().bottom - sheet.getBoundingClientRect().bottom;
    if (below > 0) sheet.scrollTop += below; // Play stays on the screen
  });
  play.addEventListener("click", () => { if (open) open.click(); });
}

// Recycle (R6.7): click or tap one of your pieces (marked) to take it back; with "confirm
// moves" it is lifted first, and Recycle it (or a second tap on it) sends it. The list of the
// pieces under the step does the same from the keyboard.
function recycleOnBoard(game, legal, board, status, form, cellAt) {
  const slot = game.querySelector("[data-tray-slot]") || board.parentNode;
  const tools = html("div", { class: "tray-tools" }, slot);
  const go = html("button", { type: "button", class: "primary" }, tools, t("recycleIt"));
  const back = html("button", { type: "button", class: "undo" }, tools, t("undo"));
  let chosen = null;
  let busy = false;
  go.disabled = true;
  back.hidden = true;
  const lift = (src) => {
    for (const rect of board.querySelectorAll(".sq")) {
      rect.classList.toggle("lifted", Boolean(src) && src.split(",").includes(rect.dataset.sq));
    }
  };
  const send = () => {
    if (!chosen || busy) return;
    busy = true;
    form.elements.action.value = JSON.stringify({ recycle: chosen });
    status.textContent = t("takingBack", { piece: legal.pieces[chosen].piece, squares: chosen });
    form.requestSubmit();
  };
  const pick = (sq) => {
    const src = Object.keys(legal.pieces).find((s) => s.split(",").includes(sq));
    if (!src) {
      status.textContent = t("recycleNone", { square: sq });
      return;
    }
    if (src === chosen && lastPointer !== "mouse") { send(); return; }
    chosen = src;
    lift(src);
    go.disabled = false;
    back.hidden = false;
    const info = legal.pieces[src];
    status.textContent = `${cap(t("recyclePicked", { colour: colourName(info.colour), piece: info.piece, squares: src }))} `
      + (lastPointer === "mouse" ? t("recycleMouse") : t("recycleTouch"))
      + ` ${t("recycleAgain")}`;
    if (!confirming()) send();
  };
  board.addEventListener("click", (e) => {
    const cell = cellAt(e);
    if (cell && !busy) pick(name(cell[0], cell[1]));
  });
  go.addEventListener("click", send);
  back.addEventListener("click", () => {
    chosen = null;
    lift(null);
    go.disabled = true;
    back.hidden = true;
    status.textContent = t("recycleChoose");
  });
  game.addEventListener("htmx:afterRequest", () => { busy = false; });
  status.textContent = t(tapping() ? "recycleStartTouch" : "recycleStart");
}

// After each update of the game (a move, a nudge from the socket), focus goes to what the player
// does next: a card, a colour, the tray; else to the line saying whose turn it is. It stays put
// when the player was busy elsewhere (the chat, say).
function refocus(game) {
  const active = document.activeElement; // htmx gives the focus back to an element with an id
  if (active && active !== document.body && !game.contains(active)) return;
  const target = game.querySelector(".tray-piece[aria-pressed=true]")
    || game.querySelector(".tray-piece:not([aria-disabled])")
    || game.querySelector(".controls button:not([disabled]), .controls a")
    || game.querySelector("#turn");
  if (target) target.focus({ preventScroll: true });
}

// On a phone the decision is a sheet fixed at the bottom of the screen (play.css): it takes the
// room under the board (and its legend), never the board, and the page's end makes room for it
// so that what lies under it can still be scrolled to.
function fitSheet() {
  const game = document.getElementById("game");
  const sheet = game && game.querySelector(".decision-sheet");
  const page = document.querySelector(".play-page");
  if (!sheet || !page) {
    if (page) page.style.paddingBottom = "";
    return;
  }
  if (getComputedStyle(sheet).position !== "fixed") {
    sheet.style.maxHeight = page.style.paddingBottom = "";
    return;
  }
  const above = game.querySelector("[data-board-root]") || game.querySelector(".game-main");
  const bottom = above.getBoundingClientRect().bottom + window.scrollY;
  const room = Math.max(window.innerHeight - bottom, window.innerHeight * 0.3);
  sheet.style.maxHeight = `${Math.floor(room)}px`;
  page.style.paddingBottom = `${sheet.offsetHeight}px`;
}
window.addEventListener("resize", fitSheet);

function start(node, swapped) {
  const game = node.id === "game" ? node : node.querySelector && node.querySelector("#game");
  if (!game) return;
  setUp(game);
  game.querySelectorAll(".controls .card-list").forEach((list) => roving(list, "button.card"));
  cardsToRead(game);
  game.querySelectorAll(".controls .colour-list").forEach((list) => roving(list, "button.colour-button"));
  fitSheet();
  if (swapped) refocus(game);
}

// Drawn as soon as new content is in (no blank frame while htmx settles it); the focus moves once
// it has settled, after htmx has given it back to an element with an id.
document.addEventListener("htmx:afterSwap", () => start(document.body, false));
document.addEventListener("pointerdown", (e) => { lastPointer = e.pointerType || "mouse"; }, true);
document.addEventListener("htmx:load", (e) => start(e.target, e.target !== document.body));
start(document.body, false);

// -- clocks: the time left on the running turn counts down; its deadline reads in the player's
// time zone (their setting, else the browser's).
function span(ms) {
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return t("days", { d, h });
  if (h) return t("hours", { h, m: String(m).padStart(2, "0") });
  return t("minutes", { m, s: String(s % 60).padStart(2, "0") });
}

function tickClocks() {
  const zone = (document.querySelector("[data-time-zone]") || { dataset: {} }).dataset.timeZone;
  for (const t of document.querySelectorAll("time.local-time:not([data-local])")) {
    // In the page's language (<html lang>), not the browser's: a Japanese page says 11月24日(火).
    const lang = document.documentElement.lang || undefined;
    const options = { weekday: "short", day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZoneName: "short" };
    try {
      t.textContent = new Intl.DateTimeFormat(lang, { ...options, timeZone: zone || undefined }).format(new Date(t.dateTime));
    } catch (err) { // an unknown zone name: the browser's own
      t.textContent = new Intl.DateTimeFormat(lang, options).format(new Date(t.dateTime));
    }
    t.dataset.local = "1";
  }
  for (const clock of document.querySelectorAll(".clock[data-deadline]")) {
    const left = Date.parse(clock.dataset.deadline) - Date.now();
    const out = clock.querySelector(".clock-left");
    if (out) out.textContent = left > 0 ? span(left) : t("noTime");
    clock.classList.toggle("urgent", left < 3600 * 1000);
  }
}
tickClocks();
setInterval(tickClocks, 1000);
document.addEventListener("htmx:load", tickClocks);
