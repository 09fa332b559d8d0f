// The Mighty card pad: the hand tapped card by card in the hand form. Each tap is refereed by
// the server (POST /sessions/<id>/card-pad, a dry run that stores nothing): it names whose
// turn it is, decides each trick and refuses a revoke or an ignored joker call the moment it is
// proven; the refused card is not taken. The tricks live in the form's hidden `tricks` field,
// so a page swapped in by live.js (or reloaded) picks the pad up where it stood; after trick
// 10 the points, the holders and the friend below are filled in from the tricks. Words come
// from the template's data-* attributes and from the server, never from here.
(function () {
  "use strict";

  const PLAYS = 5;
  const BUTTONS = "[data-pad-card], [data-pad-suit], [data-pad-call], [data-pad-cancel], [data-pad-undo]";

  // The suits' symbols are the server's: the pad's data-symbols (a suit letter to its symbol).
  function symbols() {
    const holder = document.querySelector("details.card-pad[data-symbols]");
    try {
      return JSON.parse((holder && holder.dataset.symbols) || "{}");
    } catch (error) {
      return {};
    }
  }

  function face(card) {
    const symbol = card !== "JK" ? symbols()[card[0]] : null;
    return symbol ? symbol + card.slice(1) : card;
  }

  function field(pad, key) {
    const id = pad.dataset[key];
    return id ? document.getElementById(id) : null;
  }

  function formOf(pad) {
    return pad.closest("form") || document;
  }

  function checked(pad, name) {
    if (!name) return null;
    const chosen = Array.from(formOf(pad).querySelectorAll("input[type=radio]:checked")).find(
      (input) => input.name === name,
    );
    return chosen ? chosen.value : null;
  }

  // -- what the form holds -----------------------------------------------------------------

  function contract(pad) {
    const boss = field(pad, "boss");
    return {
      boss: boss ? boss.value : "",
      trump: checked(pad, pad.dataset.trump) || "",
    };
  }

  function friend(pad) {
    const kind = checked(pad, pad.dataset.friendKind) || pad.dataset.friendDefault || "card";
    const card = field(pad, "friendCard");
    return { kind: kind, card: card ? card.value.trim() : "" };
  }

  function specials(pad) {
    try {
      return JSON.parse(pad.dataset.specials || "{}");
    } catch (error) {
      return {};
    }
  }

  // The tricks in the hidden field, as the pad keeps them: cards only (the server names players).
  function storedPlays(pad) {
    const hidden = field(pad, "tricks");
    let tricks = [];
    try {
      tricks = JSON.parse((hidden && hidden.value) || "[]");
    } catch (error) {
      tricks = [];
    }
    if (!Array.isArray(tricks)) return [];
    return tricks
      .filter((trick) => Array.isArray(trick) && trick.length)
      .map((trick) =>
        trick.map((play) => {
          const kept = { card: String((play && play.card) || "") };
          if (play && play.suit) kept.suit = play.suit;
          if (play && play.call === true) kept.call = true;
          return kept;
        }),
      );
  }

  function copy(plays) {
    return plays.map((trick) => trick.map((play) => Object.assign({}, play)));
  }

  function playedCards(plays) {
    const cards = new Set();
    plays.forEach((trick) => trick.forEach((play) => cards.add(play.card)));
    return cards;
  }

  function leading(plays) {
    const last = plays[plays.length - 1];
    return !last || last.length >= PLAYS;
  }

  // -- the form's fields --------------------------------------------------------------------

  function setValue(node, value) {
    if (!node || node.value === value) return;
    if (node.tagName === "SELECT" && !Array.from(node.options).some((o) => o.value === value)) return;
    node.value = value;
    node.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function writeTricks(pad, tricks) {
    const hidden = field(pad, "tricks");
    if (!hidden) return;
    const text = tricks && tricks.length ? JSON.stringify(tricks) : "";
    if (hidden.value !== text) {
      hidden.value = text;
      hidden.dispatchEvent(new Event("change", { bubbles: true }));
    }
  }

  const FILLED = {
    opposition_points: "points",
    mighty_holder: "mightyHolder",
    joker_holder: "jokerHolder",
    friend_player: "friendPlayer",
  };

  // After trick 10: the points, the holders and the friend as the tricks prove them.
  function fill(pad, values) {
    const filled = {};
    Object.keys(FILLED).forEach((key) => {
      if (values[key] === null || values[key] === undefined) return;
      const node = field(pad, FILLED[key]);
      setValue(node, String(values[key]));
      if (node) filled[key] = node.value;
    });
    pad.padFilled = filled;
  }

  // Before trick 10 again (a card taken back): clear what the pad filled in and nobody changed.
  function unfill(pad) {
    const filled = pad.padFilled || {};
    Object.keys(filled).forEach((key) => {
      const node = field(pad, FILLED[key]);
      if (node && node.value === filled[key]) setValue(node, "");
    });
    pad.padFilled = null;
  }

  // -- asking the server ---------------------------------------------------------------------

  function token(pad) {
    const input = formOf(pad).querySelector("input[name$='csrf_token']");
    return input ? input.value : "";
  }

  async function ask(pad, plays) {
    const terms = contract(pad);
    const response = await fetch(pad.dataset.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": token(pad) },
      body: JSON.stringify({
        boss: terms.boss,
        trump: terms.trump,
        friend: friend(pad),
        tricks: plays,
      }),
    });
    const type = response.headers.get("Content-Type") || "";
    if (!type.includes("json")) throw new Error("no answer");
    return { status: response.status, body: await response.json() };
  }

  // Send candidate tricks; keep them when the referee accepts them (or always, with force).
  async function send(pad, candidate, force) {
    const number = (pad.padAsked || 0) + 1;
    pad.padAsked = number;
    pad.dataset.busy = "1";
    pad.padMessage = "";
    render(pad);
    let answer = null;
    try {
      answer = await ask(pad, candidate);
    } catch (error) {
      answer = null;
    }
    if (number !== pad.padAsked) return; // a newer question went out meanwhile
    delete pad.dataset.busy;
    if (answer && answer.status === 200) {
      pad.padPlays = candidate;
      pad.padAnswer = answer.body;
      pad.padBlocked = false;
      writeTricks(pad, answer.body.tricks);
      if (answer.body.fill) fill(pad, answer.body.fill);
      else if (pad.padFilled) unfill(pad);
    } else if (answer && answer.body && answer.body.message) {
      pad.padMessage = answer.body.message;
      if (force) {
        // the tricks as they stand break a rule (the contract changed): take cards back
        pad.padPlays = candidate;
        pad.padAnswer = null;
        pad.padBlocked = true;
        if (answer.body.tricks) writeTricks(pad, answer.body.tricks);
        if (pad.padFilled) unfill(pad);
      }
    } else {
      pad.padMessage = pad.dataset.wordsOffline || "";
    }
    pad.dataset.answers = String(Number(pad.dataset.answers || 0) + 1);
    render(pad);
    if (pad.padMessage) {
      const note = pad.querySelector("[data-pad-refused]");
      if (note) note.scrollIntoView({ block: "nearest" });
    }
  }

  function refresh(pad) {
    const terms = contract(pad);
    if (!terms.boss || !terms.trump) {
      pad.padAnswer = null;
      render(pad);
      return;
    }
    send(pad, copy(pad.padPlays), true);
  }

  // -- taps ------------------------------------------------------------------------------------

  function play(pad, played) {
    const plays = copy(pad.padPlays);
    if (leading(plays)) plays.push([played]);
    else plays[plays.length - 1].push(played);
    pad.padPending = null;
    send(pad, plays, false);
  }

  function tapCard(pad, card) {
    if (pad.dataset.busy || pad.padPending || pad.padBlocked) return;
    const plays = pad.padPlays;
    if (playedCards(plays).has(card)) return;
    if (leading(plays)) {
      const number = plays.length + 1;
      const call = (specials(pad)[contract(pad).trump] || {}).joker_call;
      if (card === "JK") {
        pad.padPending = { card: card, ask: "suit" };
        render(pad);
        return;
      }
      if (card === call && number > 1 && !playedCards(plays).has("JK")) {
        pad.padPending = { card: card, ask: "call" };
        render(pad);
        return;
      }
    }
    play(pad, { card: card });
  }

  function takeBack(pad) {
    if (pad.dataset.busy) return;
    pad.padPending = null;
    const plays = copy(pad.padPlays);
    if (!plays.length) return;
    plays[plays.length - 1].pop();
    if (!plays[plays.length - 1].length) plays.pop();
    send(pad, plays, true);
  }

  // -- what the pad shows ----------------------------------------------------------------------

  function listItem(text, cls) {
    const item = document.createElement("li");
    if (cls) item.className = cls;
    item.textContent = text;
    return item;
  }

  function playChip(played) {
    const item = document.createElement("li");
    const name = document.createElement("bdi");
    name.textContent = played.player || "";
    const card = document.createElement("b");
    card.className = played.card === "JK" ? "" : "mighty-suit-" + played.card[0];
    card.textContent = face(played.card) + (played.suit ? " → " + (symbols()[played.suit] || played.suit) : "");
    item.append(name, " ", card);
    return item;
  }

  function renderTricks(pad, answer) {
    const list = pad.querySelector("[data-pad-tricks]");
    const finished = (answer && answer.finished) || [];
    list.replaceChildren(
      ...finished.map((trick) => {
        const item = document.createElement("li");
        const cards = document.createElement("span");
        cards.className = "pad-trick-cards";
        trick.plays.forEach((played) => {
          const card = document.createElement("b");
          card.className = played.card === "JK" ? "" : "mighty-suit-" + played.card[0];
          card.textContent = face(played.card);
          cards.append(card, " ");
        });
        item.append(cards, document.createTextNode(trick.line));
        return item;
      }),
    );
    const last = pad.querySelector("[data-pad-last]");
    const shown = finished.length && answer && !answer.complete && answer.current.length === 0;
    last.hidden = !shown;
    last.textContent = shown ? finished[finished.length - 1].line : "";
  }

  function render(pad) {
    const answer = pad.padAnswer;
    const terms = contract(pad);
    const need = !terms.boss || !terms.trump;
    const busy = Boolean(pad.dataset.busy);
    const pending = pad.padPending;
    const complete = Boolean(answer && answer.complete);
    pad.querySelector("[data-pad-need]").hidden = !need;
    const turn = pad.querySelector("[data-pad-turn]");
    turn.textContent = need || !answer ? "" : complete ? pad.dataset.wordsDone : answer.next_line;
    turn.hidden = !turn.textContent;
    const current = pad.querySelector("[data-pad-current]");
    current.replaceChildren(...(answer && !need ? answer.current || [] : []).map(playChip));
    const refused = pad.querySelector("[data-pad-refused]");
    refused.textContent = pad.padMessage || "";
    refused.hidden = !pad.padMessage;
    pad.querySelectorAll("[data-pad-ask]").forEach((box) => {
      box.hidden = !pending || pending.ask !== box.dataset.padAsk;
    });
    renderTricks(pad, need ? null : answer);
    const lines = pad.querySelector("[data-pad-lines]");
    lines.replaceChildren(...((answer && answer.lines) || []).map((line) => listItem(line)));
    lines.hidden = !lines.children.length;
    const played = playedCards(pad.padPlays);
    const follow = ((answer && answer.must_play) || []).find((must) => must.follow);
    pad.querySelectorAll("[data-pad-card]").forEach((button) => {
      const card = button.dataset.padCard;
      const used = played.has(card);
      button.disabled = used || busy || need || pad.padBlocked || complete || Boolean(pending);
      button.classList.toggle("pad-played", used);
      const follows = Boolean(follow) && card !== "JK" && card[0] === follow.follow;
      button.classList.toggle("pad-follow", !used && follows);
    });
    pad.querySelector("[data-pad-undo]").disabled = busy || !pad.padPlays.length;
    pad.setAttribute("aria-busy", busy ? "true" : "false");
  }

  // -- wiring ----------------------------------------------------------------------------------

  function setup(pad) {
    pad.dataset.ready = "1";
    const nojs = pad.querySelector("[data-pad-nojs]");
    if (nojs) nojs.hidden = true;
    pad.querySelector("[data-pad-body]").hidden = false;
    pad.padPlays = storedPlays(pad);
    pad.padAnswer = null;
    pad.padPending = null;
    pad.padMessage = "";
    pad.padBlocked = false;
    render(pad);
    if (pad.open || pad.padPlays.length) refresh(pad);
  }

  function init() {
    document.querySelectorAll("details.card-pad[data-url]:not([data-ready])").forEach(setup);
  }

  document.addEventListener("click", (event) => {
    const target = event.target.closest && event.target.closest(BUTTONS);
    const pad = target && target.closest("details.card-pad");
    if (!pad || !pad.dataset.ready || target.disabled) return;
    event.preventDefault();
    const pending = pad.padPending;
    if (target.dataset.padCard) {
      tapCard(pad, target.dataset.padCard);
    } else if (target.dataset.padSuit && pending) {
      play(pad, { card: pending.card, suit: target.dataset.padSuit });
    } else if (target.dataset.padCall && pending) {
      const called = target.dataset.padCall === "1";
      play(pad, called ? { card: pending.card, call: true } : { card: pending.card });
    } else if (target.hasAttribute("data-pad-cancel")) {
      pad.padPending = null;
      render(pad);
    } else if (target.hasAttribute("data-pad-undo")) takeBack(pad);
  });

  // The pad opened, or the contract or the friend changed: ask the referee again.
  document.addEventListener(
    "toggle",
    (event) => {
      const pad = event.target;
      if (pad.matches && pad.matches("details.card-pad[data-ready]") && pad.open && !pad.padAnswer) {
        refresh(pad);
      }
    },
    true,
  );

  document.addEventListener("change", (event) => {
    const target = event.target;
    const form = target.form || (target.closest && target.closest("form"));
    if (!form) return;
    form.querySelectorAll("details.card-pad[data-ready]").forEach((pad) => {
      const watched =
        target.id === pad.dataset.boss ||
        target.id === pad.dataset.friendCard ||
        (target.name && (target.name === pad.dataset.trump || target.name === pad.dataset.friendKind));
      if (watched && (pad.open || pad.padPlays.length)) refresh(pad);
    });
  });

  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("refapp:swapped", init);
})();
