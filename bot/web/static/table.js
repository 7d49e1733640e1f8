// The table in a browser (issue 29): draws a game from the server's state and sends the
// player's moves over the WebSocket. The contract: /work/notes/web_contract.md (server and page).
// Plain JavaScript, no build step. The server decides every move; the page only shows and asks.
//
// Words come from the state's `words` (English below is only the fallback); the status line from
// the game's `line` (its title, deal, score... in the member's language), else its title, label and score.
"use strict";

(() => {
  const FALLBACK = {
    draw: "Draw", undo: "Undo", hint: "Hint", auto: "Auto", resign: "Resign", type_here: "Type moves, such as wt4",
    send: "Send", score: "Score", over: "This game is over.", reconnecting: "Connection lost: reconnecting…",
    language: "en",
  };
  // The boards' geometry (render/board.py Geometry, a 90 x 126 card), in card widths or heights.
  const GAP = 10 / 90, MARGIN = 12 / 90, LABEL = 28 / 90, WASTE_FAN = 50 / 90, DEPTH_STEP = 2 / 90;
  const FAN = 34 / 126, TIGHT_FAN = 22 / 126, ROOMY_CARDS = 8;
  const SHADOW = 3 / 78; // render/sprites.py SHADOW, in the sprites' widths (bot/web/sprites.py: 72 + 2 x 3 pixels)
  const MAX_SCALE = 1.25; // the cards grow at most this much past the sprites' size
  const DRAG_START = 6; // pixels a press moves before it is a drag, not a tap
  const MOVE_RE = /^(s|w|r\d?|f\d?|t\d)(s|w|r\d?|f\d?|t\d)(?::(\d+))?$/;

  const $ = (id) => document.getElementById(id);
  const board = $("board"), said = $("said"), banner = $("banner"), input = $("notation");
  const match = location.pathname.match(/^(.*)\/(table|view)\/([^/]+)\/?$/);
  const base = match ? match[1] : "";
  // Inside a Discord Activity, activity.js has set the game, its session and its WebSocket's address.
  const activity = window.PE_TABLE;
  const gameId = activity ? String(activity.game) : match && match[2] === "table" ? match[3] : "";
  const viewing = match && match[2] === "view" ? match[3] : null; // a replay or a watched game: look, not play

  let words = FALLBACK, game = null, sheet = null, socket = null, retry = 500, pending = null;
  let press = null, selected = null, resignArmed = null, typed = null;

  // --- the connection -----------------------------------------------------------------

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(activity ? activity.wsUrl : `${scheme}//${location.host}${base}/ws/${gameId}`);
    socket.onopen = () => { retry = 500; document.body.dataset.connected = "yes"; $("status").classList.remove("offline"); };
    socket.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (message.type === "state") show(message);
      else if (message.type === "error") say(message.said);
      else if (message.type === "others") showOthers(message.players || []);
    };
    socket.onclose = () => {
      document.body.dataset.connected = "no";
      $("status").classList.add("offline");
      $("status").dataset.offline = words.reconnecting || FALLBACK.reconnecting;
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    };
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  function sendMove(text) {
    clearSelection();
    if (send({ type: "move", text })) {
      clearTimeout(pending);
      pending = setTimeout(() => { pending = null; draw(); }, 3000); // no answer: show the cards back
    }
  }

  function act(action) {
    if (game && game.over) return;
    clearSelection();
    send({ type: "action", action });
  }

  // --- the state ----------------------------------------------------------------------

  function show(message) {
    words = { ...FALLBACK, ...(message.words || {}) };
    if (typed !== null && message.ok !== false && input.value.trim() === typed) input.value = "";
    typed = null;
    game = message.game;
    clearTimeout(pending);
    pending = null;
    cancelDrag();
    selected = null;
    applyWords();
    say(message.said);
    draw();
  }

  function say(text) { said.textContent = text || ""; }

  function applyWords() {
    document.documentElement.lang = words.language || "en";
    for (const element of document.querySelectorAll("button[data-action]")) {
      element.textContent = words[element.dataset.action];
      element.disabled = game.over || (element.dataset.action === "undo" && !game.undo);
    }
    button("resign").classList.remove("armed");
    clearTimeout(resignArmed);
    resignArmed = null;
    input.placeholder = words.type_here;
    input.setAttribute("aria-label", words.type_here);
    input.disabled = game.over;
    $("send").textContent = words.send;
    $("send").disabled = game.over;
    const line = game.line || "", lead = `${game.title} · `;
    $("title").textContent = game.title;
    $("label").textContent = line ? (line.startsWith(lead) ? line.slice(lead.length) : line) : game.label || "";
    $("score").textContent = line ? "" : `${words.score}: ${game.score}`;
    document.title = [game.title, game.label].filter(Boolean).join(" · ");
    banner.hidden = !game.over;
    banner.textContent = (game.status === "won" && words.won) || words.over;
    banner.className = `banner ${game.status}`;
  }

  const button = (action) => document.querySelector(`button[data-action="${action}"]`);

  // --- drawing ------------------------------------------------------------------------

  // The card size and fan offset: the table as wide as the window lets it be, then smaller, down
  // to a point, until its piles fit the height between the status line and the controls.
  function geometry() {
    const card = sheet.places.card;
    const room = window.innerHeight - $("status").offsetHeight - document.querySelector(".controls").offsetHeight;
    const wide = board.parentElement.clientWidth / (game.columns * (1 + GAP) - GAP + 2 * MARGIN);
    const longest = Math.max(0, ...game.piles.filter((pile) => pile.fan === "down").map((pile) => pile.cards.length));
    const widest = Math.max(28, Math.min(card.w * MAX_SCALE, wide));
    let geo = null;
    for (let w = widest; ; w *= 0.92) {
      const h = w * card.h / card.w;
      const roomy = longest <= ROOMY_CARDS ? FAN : Math.max(TIGHT_FAN, FAN * (ROOMY_CARDS - 1) / (longest - 1));
      for (let fan = roomy; fan >= TIGHT_FAN - 1e-9; fan -= (FAN - TIGHT_FAN) / 4) {
        geo = { w, h, fan: h * fan, gap: w * GAP, margin: w * MARGIN, label: Math.max(22, w * LABEL), scale: w / card.w };
        if (height(geo) <= room) return geo;
      }
      if (w * 0.92 < Math.max(36, widest * 0.6)) return geo; // no smaller: the page scrolls
    }
  }

  function height(geo) {
    let lowest = 0;
    for (const box of boxes(geo).values()) lowest = Math.max(lowest, box.top + box.height);
    return lowest + geo.margin;
  }

  // Each pile's box: its place on the grid, a row pushed down under a `down` pile above it that has grown into it.
  function boxes(geo) {
    const x = (column) => geo.margin + column * (geo.w + geo.gap);
    const size = (pile) => {
      if (pile.fan === "down") return [geo.w, geo.h + Math.max(0, pile.cards.length - 1) * geo.fan];
      if (pile.fan === "right3") return [geo.w * (1 + 2 * WASTE_FAN), geo.h];
      return [geo.w, geo.h];
    };
    const found = new Map();
    for (const row of [...new Set(game.piles.map((pile) => pile.row))].sort((a, b) => a - b)) {
      const piles = game.piles.filter((pile) => pile.row === row);
      let top = geo.label + row * (geo.h + geo.gap + geo.label);
      for (const pile of piles) {
        const left = x(pile.column), right = left + size(pile)[0];
        for (const [name, above] of found) {
          const other = game.piles.find((p) => p.name === name);
          if (other.fan === "down" && above.left < right && left < above.left + above.width) {
            top = Math.max(top, above.top + above.height + geo.gap + geo.label);
          }
        }
      }
      for (const pile of piles) {
        const [width, height] = size(pile);
        found.set(pile.name, { left: x(pile.column), top, width, height });
      }
    }
    return found;
  }

  function draw() {
    if (!game || !sheet) return;
    const geo = geometry(), places = boxes(geo);
    board.replaceChildren();
    for (const pile of game.piles) {
      const box = places.get(pile.name);
      board.append(tag(pile, box, geo), pileElement(pile, box, geo));
    }
    board.style.width = `${geo.margin * 2 + game.columns * (geo.w + geo.gap) - geo.gap}px`;
    board.style.height = `${height(geo)}px`;
    banner.style.top = `${board.offsetTop + height(geo) + geo.gap}px`; // in the felt under the piles, covering none
    board.style.setProperty("--radius", `${Math.max(3, geo.w * 0.09)}px`);
    if (game.hint) light(hintPiles(game.hint), "hinted");
    document.body.dataset.version = String(game.version); // what a test waits for: this state is drawn
    document.body.dataset.status = game.status;
  }

  function tag(pile, box, geo) {
    const element = document.createElement("div");
    element.className = "tag";
    element.textContent = pile.counted ? `${pile.name} · ${pile.count}` : pile.name;
    element.style.left = `${box.left}px`;
    element.style.top = `${box.top - geo.label + 2}px`;
    element.style.height = `${geo.label - 6}px`;
    element.style.fontSize = `${Math.max(11, Math.round((geo.label - 6) * 0.72))}px`;
    return element;
  }

  function pileElement(pile, box, geo) {
    const element = document.createElement("div");
    element.className = `pile fan-${pile.fan}`;
    element.dataset.pile = pile.name;
    element.setAttribute("role", "group");
    element.setAttribute("aria-label", pile.counted ? `${pile.name} · ${pile.count}` : pile.name);
    Object.assign(element.style, { left: `${box.left}px`, top: `${box.top}px`, width: `${box.width}px`, height: `${box.height}px` });
    const cards = pile.cards;
    if (!cards.length) {
      element.append(sprite("empty", 0, 0, geo));
      return element;
    }
    if (pile.fan === "down") {
      cards.forEach((card, index) => element.append(cardElement(card, index, 0, index * geo.fan, geo)));
    } else if (pile.fan === "right3") {
      const shown = cards.slice(-3);
      shown.forEach((card, index) => element.append(
        cardElement(card, cards.length - shown.length + index, index * geo.w * WASTE_FAN, 0, geo)));
    } else {
      const depth = pile.fan === "stack" ? Math.min(3, Math.floor((pile.count + 3) / 5)) : 0;
      for (let layer = depth; layer > 0; layer--) {
        const step = layer * geo.w * DEPTH_STEP;
        element.append(sprite("??", step, step, geo));
      }
      element.append(cardElement(cards[cards.length - 1], cards.length - 1, 0, 0, geo));
    }
    return element;
  }

  function cardElement(card, index, left, top, geo) {
    const element = sprite(card, left, top, geo);
    element.dataset.index = String(index);
    if (card !== "??") {
      element.dataset.card = card;
      element.setAttribute("role", "img");
      element.setAttribute("aria-label", card);
    }
    return element;
  }

  // An element showing one sprite of the sheet, its card's top left corner at left, top in its pile.
  function sprite(name, left, top, geo) {
    const element = document.createElement("div");
    const card = sheet.places.card, s = geo.scale, place = sheet.places[name];
    element.className = name === "??" ? "card back" : name === "empty" ? "card empty" : "card";
    if (!place) { // no sprite (a sheet without the empty pile's outline): the card's shape, drawn by CSS
      const pad = geo.w * SHADOW; // inside the sprites' room for their shadow, as wide as the cards' faces
      element.classList.add("outline");
      Object.assign(element.style, {
        left: `${left + pad}px`, top: `${top + pad}px`, width: `${geo.w - 2 * pad}px`, height: `${geo.h - 2 * pad}px`,
      });
      return element;
    }
    const w = place.w || card.w, h = place.h || card.h; // a sprite's own size, where the sheet says one
    Object.assign(element.style, {
      left: `${left - (w - card.w) / 2 * s}px`,
      top: `${top - (h - card.h) / 2 * s}px`,
      width: `${w * s}px`,
      height: `${h * s}px`,
      backgroundImage: `url("${sheet.url}")`,
      backgroundSize: `${sheet.width * s}px ${sheet.height * s}px`,
      backgroundPosition: `${-place.x * s}px ${-place.y * s}px`,
    });
    return element;
  }

  function light(names, kind) {
    for (const name of names) board.querySelector(`[data-pile="${name}"]`)?.classList.add(kind);
  }

  function unlight(kind) {
    for (const element of board.querySelectorAll(`.${kind}`)) element.classList.remove(kind);
  }

  function hintPiles(hint) {
    const text = typeof hint === "string" ? hint : hint && hint.move;
    if (text === "d") return ["s"];
    const parts = MOVE_RE.exec(text || "");
    return parts ? [parts[1], parts[2]] : [];
  }

  // The piles a legal move takes `n` cards of `src` to.
  function targets(src, n) {
    const found = [];
    for (const move of game.moves) {
      const parts = MOVE_RE.exec(move);
      if (parts && parts[1] === src && Number(parts[3] || 1) === n) found.push(parts[2]);
    }
    return found;
  }

  // --- pointing: drag, tap then tap, tap the stock --------------------------------------

  // What a press on `target` grabs: the pile, and for a face-up card the cards from it to the top.
  function grabbed(target) {
    const pileElement = target.closest("[data-pile]");
    if (!pileElement) return null;
    const pile = game.piles.find((p) => p.name === pileElement.dataset.pile);
    const card = target.closest("[data-card]");
    if (!card || pile.name === "s") return { pile, n: 0 };
    const index = Number(card.dataset.index);
    const n = pile.fan === "down" ? pile.cards.length - index : 1;
    const from = pile.fan === "down" ? index : pile.cards.length - 1;
    const elements = [...pileElement.querySelectorAll("[data-index]")].filter((e) => Number(e.dataset.index) >= from);
    return { pile, n, elements };
  }

  board.addEventListener("pointerdown", (event) => {
    if (!game || game.over || event.button > 0 || press) return;
    const grab = grabbed(event.target);
    if (!grab) return;
    event.preventDefault();
    board.setPointerCapture(event.pointerId);
    press = { id: event.pointerId, grab, x: event.clientX, y: event.clientY, ghost: null };
  });

  board.addEventListener("pointermove", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const dx = event.clientX - press.x, dy = event.clientY - press.y;
    if (!press.ghost) {
      if (Math.hypot(dx, dy) < DRAG_START || !press.grab.n) return;
      startDrag();
    }
    press.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
    unlight("over");
    const over = dropTarget(event);
    if (over) light([over], "over");
  });

  board.addEventListener("pointerup", (event) => {
    if (!press || event.pointerId !== press.id) return;
    const { grab, ghost } = press;
    if (!ghost) {
      press = null;
      tap(grab);
      return;
    }
    const dst = dropTarget(event);
    if (dst) {
      press.ghost.remove();
      press = null;
      unlight("target");
      unlight("over");
      sendMove(grab.pile.name + dst + (grab.n > 1 ? `:${grab.n}` : ""));
    } else {
      cancelDrag();
    }
  });

  board.addEventListener("pointercancel", cancelDrag);

  function startDrag() {
    clearSelection();
    const ghost = document.createElement("div");
    ghost.className = "ghost";
    for (const element of press.grab.elements) {
      const rect = element.getBoundingClientRect(), copy = element.cloneNode(false);
      delete copy.dataset.card; // a copy to drag about: the page's cards stay one of each
      copy.removeAttribute("role");
      Object.assign(copy.style, { left: `${rect.left}px`, top: `${rect.top}px` });
      ghost.append(copy);
      element.classList.add("lifted");
    }
    document.body.append(ghost);
    press.ghost = ghost;
    light(targets(press.grab.pile.name, press.grab.n), "target");
  }

  function cancelDrag() {
    if (!press) return;
    press.ghost?.remove();
    for (const element of press.grab.elements || []) element.classList.remove("lifted");
    press = null;
    unlight("target");
    unlight("over");
  }

  // The pile a dragged run is over: the one under the pointer, else the lit one its first card overlaps most.
  function dropTarget(event) {
    const src = press.grab.pile.name;
    const under = document.elementFromPoint(event.clientX, event.clientY)?.closest("[data-pile]");
    if (under && under.dataset.pile !== src) return under.dataset.pile;
    const first = press.ghost.firstElementChild.getBoundingClientRect();
    let best = null, most = 0;
    for (const element of board.querySelectorAll(".target")) {
      const rect = element.getBoundingClientRect();
      const area = Math.max(0, Math.min(first.right, rect.right) - Math.max(first.left, rect.left))
        * Math.max(0, Math.min(first.bottom, rect.bottom) - Math.max(first.top, rect.top));
      if (area > most) [best, most] = [element.dataset.pile, area];
    }
    return best;
  }

  function tap(grab) {
    const name = grab.pile.name;
    if (name === "s") {
      sendMove("d");
    } else if (selected && selected.pile.name !== name) {
      sendMove(selected.pile.name + name + (selected.n > 1 ? `:${selected.n}` : ""));
    } else if (grab.n && !(selected && selected.elements[0] === grab.elements[0])) {
      clearSelection();
      selected = grab;
      for (const element of grab.elements) element.classList.add("chosen");
      light(targets(name, grab.n), "target");
    } else {
      clearSelection();
    }
  }

  function clearSelection() {
    if (!selected) return;
    for (const element of selected.elements) element.classList.remove("chosen");
    selected = null;
    unlight("target");
  }

  // --- buttons, typing, keys ------------------------------------------------------------

  for (const element of document.querySelectorAll("button[data-action]")) {
    element.addEventListener("click", () => {
      const action = element.dataset.action;
      if (action !== "resign") return act(action);
      if (resignArmed) return act("resign"); // a second press within a few seconds resigns
      element.classList.add("armed");
      element.textContent = `${words.resign}?`;
      resignArmed = setTimeout(() => {
        resignArmed = null;
        element.classList.remove("armed");
        element.textContent = words.resign;
      }, 4000);
    });
  }

  $("typed").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || (game && game.over)) return;
    sendMove(text);
    typed = text; // cleared when the answer plays it, kept to mend when it is refused
  });

  const KEYS = { d: "draw", u: "undo", h: "hint", a: "auto" };
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      cancelDrag();
      clearSelection();
      return;
    }
    if (event.ctrlKey || event.metaKey || event.altKey || event.target.closest("input, textarea")) return;
    const action = KEYS[event.key.toLowerCase()];
    if (action && game && !game.over && !(action === "undo" && !game.undo)) {
      event.preventDefault();
      act(action);
    }
  });

  window.addEventListener("resize", () => {
    if (press) return;
    clearSelection();
    draw();
  });

  // --- start ----------------------------------------------------------------------------

  async function loadSheet() {
    const url = `${base}/sprites/classic.png`;
    const [places, image] = await Promise.all([
      fetch(`${base}/sprites/classic.json`).then((response) => response.json()),
      new Promise((resolve, reject) => {
        const image = new Image();
        image.onload = () => resolve(image);
        image.onerror = reject;
        image.src = url;
      }),
    ]);
    sheet = { places, url, width: image.naturalWidth, height: image.naturalHeight };
    draw();
    if (others) showOthers(others);
  }

  // --- the others at an Activity's table -----------------------------------------------------

  let others = null; // the others last heard of: drawn again once the sprites are in

  function showOthers(players) {
    others = players;
    let panel = $("others");
    if (!panel) {
      panel = document.createElement("ul");
      panel.id = "others";
      panel.className = "others";
      panel.setAttribute("aria-label", "others");
      document.querySelector(".controls").prepend(panel);
    }
    panel.replaceChildren(...players.map((player) => {
      const item = document.createElement("li");
      item.dataset.member = String(player.member);
      const line = document.createElement("div");
      line.textContent = [player.name, player.game, `${player.score}`, `${player.foundations}/${player.cards}`,
                          player.status].filter((part) => part !== undefined).join(" · ");
      item.append(line);
      if (player.board && sheet) item.append(miniBoard(player.board)); // only where they may see its cards
      return item;
    }));
  }

  // Another member's board, small: each pile's top card (no data-card: it is not this table's).
  function miniBoard(shown) {
    const card = sheet.places.card, scale = 0.3;
    const geo = { scale, w: card.w * scale, h: card.h * scale };
    const element = document.createElement("div");
    element.className = "mini";
    element.style.width = `${shown.columns * geo.w * 1.1}px`;
    element.style.height = `${(1 + Math.max(0, ...shown.piles.map((pile) => pile.row))) * geo.h * 1.1}px`;
    for (const pile of shown.piles) {
      const top = pile.cards.length ? pile.cards[pile.cards.length - 1] : "empty";
      element.append(sprite(top, pile.column * geo.w * 1.1, pile.row * geo.h * 1.1, geo));
    }
    return element;
  }

  // --- a replay, or a watched game: the moves one by one ------------------------------------

  let replay = null, shown = 0, timer = null;

  async function loadReplay() {
    const response = await fetch(`${base}/view/${viewing}/data`);
    const data = await response.json();
    if (!response.ok) { say(data.said); return; }
    const first = replay === null;
    replay = data.replay;
    words = { ...FALLBACK, ...(data.words || {}) };
    document.documentElement.lang = words.language || "en";
    for (const element of document.querySelectorAll("button[data-step]")) {
      element.textContent = words[element.dataset.step] || element.textContent;
    }
    $("speed-label").textContent = words.speed || "Speed";
    if (first) shown = replay.steps.length;
    showStep(Math.min(shown, replay.steps.length));
    if (replay.status === "playing") setTimeout(loadReplay, 3000); // a watched game: follow it
  }

  function showStep(index) {
    shown = Math.max(0, Math.min(index, replay.steps.length));
    const cards = new Map(replay.piles.map((pile) => [pile.name, pile.cards]));
    for (const step of replay.steps.slice(0, shown)) {
      for (const [name, pileCards] of Object.entries(step.piles)) cards.set(name, pileCards);
    }
    const score = shown ? replay.steps[shown - 1].score : null;
    game = { ...replay, version: shown, over: true, moves: [], hint: shown ? replay.steps[shown - 1].move : null,
             piles: replay.piles.map((pile) => ({ ...pile, cards: cards.get(pile.name), count: cards.get(pile.name).length })) };
    $("title").textContent = `${replay.title} · ${replay.player}`;
    $("label").textContent = replay.label;
    $("score").textContent = score === null ? "" : `${words.score || FALLBACK.score}: ${score}`;
    say((words.move || "{number} / {moves}").replace("{number}", shown).replace("{moves}", replay.steps.length));
    draw();
  }

  function playing(on) {
    clearInterval(timer);
    timer = null;
    const button = document.querySelector('button[data-step="play"]');
    if (on) {
      if (shown >= replay.steps.length) showStep(0);
      const speed = Number($("speed").value) || 2;
      timer = setInterval(() => {
        showStep(shown + 1);
        if (shown >= replay.steps.length) playing(false);
      }, 1000 / speed);
    }
    if (button) button.textContent = on ? words.pause || "Pause" : words.play || "Play";
  }

  // A replay's controls in place of the player's: the same page, to look and not to play.
  function replayControls() {
    document.querySelector(".buttons").hidden = true;
    $("typed").hidden = true;
    const steps = document.createElement("div");
    steps.className = "buttons steps";
    for (const [step, label] of [["start", "To the deal"], ["back", "Step back"], ["play", "Play"],
                                 ["forward", "Step forward"], ["end", "To the end"]]) {
      const element = document.createElement("button");
      element.type = "button";
      element.dataset.step = step;
      element.textContent = label;
      steps.append(element);
    }
    const speed = document.createElement("label");
    speed.className = "speed";
    speed.innerHTML = '<span id="speed-label">Speed</span> <select id="speed"><option value="1">1×</option>' +
      '<option value="2" selected>2×</option><option value="4">4×</option><option value="10">10×</option></select>';
    steps.append(speed);
    said.after(steps);
  }

  if (viewing) {
    replayControls();
    for (const element of document.querySelectorAll("button[data-step]")) {
      element.addEventListener("click", () => {
        if (!replay) return;
        const step = element.dataset.step;
        if (step === "play") playing(timer === null);
        else {
          playing(false);
          showStep({ start: 0, back: shown - 1, forward: shown + 1, end: replay.steps.length }[step]);
        }
      });
    }
    $("speed").addEventListener("change", () => { if (timer !== null) playing(true); });
    loadSheet();
    loadReplay();
  } else {
    loadSheet();
    connect();
  }
})();
