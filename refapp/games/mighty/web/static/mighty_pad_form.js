// The Mighty card pad's side of the hand form: what the form holds (the contract, the friend, the
// tricks in the hidden field) and what the pad fills in after trick 10. Loaded before
// mighty_pad.js, which keeps the pad's state and asks the server (as window.MightyPadForm).
(function () {
  "use strict";

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
    return cardsOnly(tricks);
  }

  function cardsOnly(tricks) {
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

  // -- the token the server asks for ---------------------------------------------------------

  function token(pad) {
    const input = formOf(pad).querySelector("input[name$='csrf_token']");
    return input ? input.value : "";
  }

  window.MightyPadForm = {
    contract: contract,
    friend: friend,
    specials: specials,
    storedPlays: storedPlays,
    cardsOnly: cardsOnly,
    writeTricks: writeTricks,
    fill: fill,
    unfill: unfill,
    token: token,
  };
})();
