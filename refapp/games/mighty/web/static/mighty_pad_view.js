// What the Mighty card pad shows of the cards played: the finished tricks and the trick under
// way, each card a button that starts its change, and the change under way. mighty_pad.js keeps
// the state and asks the server; this file only draws (loaded first, as window.MightyPadView).
// Words come from the pad's data-* attributes and from the server, never from here.
(function () {
  "use strict";

  // The suits' symbols are the server's: the pad's data-symbols (a suit letter to its symbol).
  function symbols() {
    const holder = document.querySelector("details.card-pad[data-symbols]");
    try {
      return JSON.parse((holder && holder.dataset.symbols) || "{}");
    } catch (error) {
      return {};
    }
  }

  // A card as the table writes it (the suit's symbol and the rank), the joker by its name.
  function face(card, pad) {
    if (card === "JK") return (pad && pad.dataset.wordsJoker) || card;
    const symbol = symbols()[card[0]];
    return symbol ? symbol + card.slice(1) : card;
  }

  function cardMark(played, pad) {
    const mark = document.createElement("b");
    mark.className = played.card === "JK" ? "" : "mighty-suit-" + played.card[0];
    const named = played.suit ? " → " + (symbols()[played.suit] || played.suit) : "";
    mark.textContent = face(played.card, pad) + named;
    return mark;
  }

  // A played card: a button that starts its change (trick and play from 0, as "2.4").
  function playedButton(pad, played, trick, position) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "pad-played-card";
    button.dataset.padChange = trick + "." + position;
    const change = pad.padChange;
    const changing = Boolean(change) && change.trick === trick && change.play === position;
    button.setAttribute("aria-pressed", changing ? "true" : "false");
    const name = document.createElement("small");
    name.textContent = played.player || "";
    button.append(cardMark(played, pad), name);
    const words = pad.dataset.wordsChangeCard || "";
    button.title = words
      .replace("{card}", face(played.card, pad))
      .replace("{player}", played.player || "")
      .replace("{trick}", String(trick + 1));
    return button;
  }

  function renderTricks(pad, answer) {
    const list = pad.querySelector("[data-pad-tricks]");
    const finished = (answer && answer.finished) || [];
    const rows = finished.map((trick, index) => {
      const item = document.createElement("li");
      const cards = document.createElement("span");
      cards.className = "pad-trick-cards";
      trick.plays.forEach((played, position) => {
        cards.append(playedButton(pad, played, index, position));
      });
      const line = document.createElement("span");
      line.className = "pad-trick-line";
      line.textContent = trick.line;
      item.append(cards, line);
      return item;
    });
    list.replaceChildren(...rows.reverse()); // the latest first: <ol reversed> keeps the numbers
    const hint = pad.querySelector("[data-pad-change-hint]");
    if (hint) hint.hidden = !finished.length;
    const last = pad.querySelector("[data-pad-last]");
    const shown = finished.length && answer && !answer.complete && answer.current.length === 0;
    last.hidden = !shown;
    last.textContent = shown ? finished[finished.length - 1].line : "";
  }

  function renderCurrent(pad, answer) {
    const current = pad.querySelector("[data-pad-current]");
    const plays = (answer && answer.current) || [];
    const trick = ((answer && answer.finished) || []).length;
    current.replaceChildren(
      ...plays.map((played, position) => {
        const item = document.createElement("li");
        item.append(playedButton(pad, played, trick, position));
        return item;
      }),
    );
  }

  // The change under way ("Change <card>, Ben's card in trick 3: tap the right card.") and what
  // the last change did (which tricks were kept, which need entering again).
  function renderChange(pad) {
    const change = pad.padChange;
    const box = pad.querySelector("[data-pad-fixing]");
    box.hidden = !change;
    pad.querySelector("[data-pad-fix-cancel]").hidden = !change;
    pad.querySelector("[data-pad-undo]").hidden = Boolean(change);
    if (change) {
      box.textContent = (pad.dataset.wordsChange || "")
        .replace("{card}", face(change.card, pad))
        .replace("{player}", change.player || "")
        .replace("{trick}", String(change.trick + 1));
    }
    const fixed = pad.querySelector("[data-pad-fixed]");
    const lines = pad.padFixed || [];
    fixed.replaceChildren(
      ...lines.map((text) => {
        const item = document.createElement("li");
        item.textContent = text;
        return item;
      }),
    );
    fixed.hidden = !lines.length;
  }

  window.MightyPadView = {
    face: face,
    renderTricks: renderTricks,
    renderCurrent: renderCurrent,
    renderChange: renderChange,
  };
})();
