// The Mighty card pad: the hand tapped card by card in the hand form. Each tap is refereed by
// the server (POST /sessions/<id>/card-pad, a dry run that stores nothing): it names whose
// turn it is, decides each trick and refuses a revoke or an ignored joker call the moment it is
// proven; the refused card is not taken. The tricks live in the form's hidden `tricks` field,
// so a page swapped in by live.js (or reloaded) picks the pad up where it stood; after trick
// 10 the points, the holders and the friend below are filled in from the tricks. Any card
// played can be changed: tap it, then the right card; the server checks the tricks after it
// again and keeps those that still fit. Words come from the template's data-* attributes and
// from the server, never from here; the form is read and filled by mighty_pad_form.js and the
// tricks are drawn by mighty_pad_view.js.
(function () {
  "use strict";

  const BUTTONS =
    "[data-pad-card], [data-pad-suit], [data-pad-call], [data-pad-cancel], [data-pad-undo], " +
    "[data-pad-change]";
  const view = window.MightyPadView;
  const { contract, friend, specials, storedPlays, cardsOnly, writeTricks, fill, unfill, token } =
    window.MightyPadForm;

  function copy(plays) {
    return plays.map((trick) => trick.map((play) => Object.assign({}, play)));
  }

  function playedCards(plays) {
    const cards = new Set();
    plays.forEach((trick) => trick.forEach((play) => cards.add(play.card)));
    return cards;
  }

  function leading(plays, pad) {
    const last = plays[plays.length - 1];
    return !last || last.length >= Number(pad.dataset.plays); // the deal's players in a hand
  }

  // -- asking the server ---------------------------------------------------------------------

  async function ask(pad, plays, change) {
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
        change: change || undefined,
        out: window.MightySeats ? window.MightySeats.out(pad.closest(".mighty-form")) : undefined,
      }),
    });
    const type = response.headers.get("Content-Type") || "";
    if (!type.includes("json")) throw new Error("no answer");
    return { status: response.status, body: await response.json() };
  }

  // Send candidate tricks; keep them when the referee accepts them (or always, with force).
  // With a change, the tricks kept are the referee's: those that still fit after it.
  async function send(pad, candidate, force, change) {
    const number = (pad.padAsked || 0) + 1;
    pad.padAsked = number;
    pad.dataset.busy = "1";
    pad.padMessage = "";
    render(pad);
    let answer = null;
    try {
      answer = await ask(pad, candidate, change);
    } catch (error) {
      answer = null;
    }
    if (number !== pad.padAsked) return; // a newer question went out meanwhile
    delete pad.dataset.busy;
    if (answer && answer.status === 200) {
      pad.padPlays = change ? cardsOnly(answer.body.tricks) : candidate;
      pad.padChange = null;
      pad.padFixed = (answer.body.change && answer.body.change.lines) || null;
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
    if (pad.padChange) {
      changeTo(pad, played);
      return;
    }
    pad.padFixed = null;
    const plays = copy(pad.padPlays);
    if (leading(plays, pad)) plays.push([played]);
    else plays[plays.length - 1].push(played);
    pad.padPending = null;
    send(pad, plays, false);
  }

  function tapCard(pad, card) {
    if (pad.dataset.busy || pad.padPending || pad.padBlocked) return;
    const change = pad.padChange;
    const plays = change ? pad.padPlays.slice(0, change.trick) : pad.padPlays;
    if (!change && playedCards(plays).has(card)) return;
    if (change ? change.play === 0 : leading(plays, pad)) {
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

  // A played card tapped: the pad asks for the right one (the grid, as for entering).
  function startChange(pad, where) {
    if (pad.dataset.busy || pad.padBlocked) return;
    const [trick, position] = where.split(".").map(Number);
    const answer = pad.padAnswer || {};
    const finished = answer.finished || [];
    const plays = trick < finished.length ? finished[trick].plays : answer.current || [];
    const played = plays[position];
    if (!played) return;
    pad.padPending = null;
    pad.padMessage = "";
    pad.padFixed = null;
    pad.padChange = { trick: trick, play: position, card: played.card, player: played.player };
    render(pad); // the question stands in the sticky head: on screen without scrolling
  }

  function changeTo(pad, played) {
    const change = pad.padChange;
    pad.padPending = null;
    if (played.card === change.card && !played.suit && !played.call) {
      pad.padChange = null;
      render(pad);
      return;
    }
    const asked = Object.assign({ trick: change.trick + 1, play: change.play + 1 }, played);
    send(pad, copy(pad.padPlays), false, asked);
  }

  // The cards the change may pick: none played before the changed trick, nor elsewhere in it.
  function changeable(pad, change) {
    const taken = playedCards(pad.padPlays.slice(0, change.trick));
    (pad.padPlays[change.trick] || []).forEach((played, position) => {
      if (position !== change.play) taken.add(played.card);
    });
    return (card) => !taken.has(card) && card !== change.card;
  }

  function takeBack(pad) {
    if (pad.dataset.busy) return;
    pad.padPending = null;
    pad.padChange = null;
    pad.padFixed = null;
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
    turn.hidden = !turn.textContent || Boolean(pad.padChange);
    view.renderCurrent(pad, need ? null : answer);
    const refused = pad.querySelector("[data-pad-refused]");
    refused.textContent = pad.padMessage || "";
    refused.hidden = !pad.padMessage;
    pad.querySelectorAll("[data-pad-ask]").forEach((box) => {
      box.hidden = !pending || pending.ask !== box.dataset.padAsk;
    });
    view.renderTricks(pad, need ? null : answer);
    view.renderChange(pad);
    const lines = pad.querySelector("[data-pad-lines]");
    lines.replaceChildren(...((answer && answer.lines) || []).map((line) => listItem(line)));
    lines.hidden = !lines.children.length;
    const played = playedCards(pad.padPlays);
    const change = pad.padChange;
    const free = change ? changeable(pad, change) : (card) => !played.has(card);
    const follow = ((answer && answer.must_play) || []).find((must) => must.follow);
    const closed = busy || need || pad.padBlocked || Boolean(pending) || (complete && !change);
    pad.querySelectorAll("[data-pad-card]").forEach((button) => {
      const card = button.dataset.padCard;
      const used = played.has(card);
      // a card the table plays without (four seats) stays greyed: nobody can play it
      button.disabled = !free(card) || closed || button.hasAttribute("data-pad-out");
      button.classList.toggle("pad-played", used);
      button.classList.toggle("pad-changing", Boolean(change) && card === change.card);
      const follows = !change && Boolean(follow) && card !== "JK" && card[0] === follow.follow;
      button.classList.toggle("pad-follow", !used && follows);
    });
    pad.querySelectorAll("[data-pad-change]").forEach((button) => {
      button.disabled = busy || need || pad.padBlocked || Boolean(pending);
    });
    pad.classList.toggle("pad-fixing", Boolean(change));
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
    pad.padChange = null;
    pad.padFixed = null;
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
    } else if (target.dataset.padChange) {
      startChange(pad, target.dataset.padChange);
    } else if (target.hasAttribute("data-pad-cancel")) {
      // a pending question goes first; the change itself with the next cancel
      if (pending) pad.padPending = null;
      else pad.padChange = null;
      pad.padMessage = "";
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
