// mighty pages: progressive enhancements only; every page works without them.
(function () {
  "use strict";

  function root() {
    return document.querySelector(".mighty-form");
  }

  // The auction pad: show the chosen count on each trump button ("♠ 14").
  function labelBids() {
    const count = document.querySelector("select[data-mighty-count]");
    if (!count) return;
    document.querySelectorAll(".mighty-bid").forEach((button) => {
      button.textContent = button.dataset.symbol + " " + count.value;
    });
  }

  // Before the first bid, the auction starts with the dealer: follow the dealer select.
  function followDealer(select) {
    const bidder = document.getElementById("bidder");
    if (!bidder || document.querySelector(".mighty-log") || !select.value) return;
    bidder.value = select.value;
  }

  // The friend card only matters when the friend is named by a card.
  function showFriendCard() {
    const box = document.querySelector(".mighty-friend-card");
    const checked = document.querySelector("input[data-mighty-friend-kind]:checked");
    if (box && checked) box.hidden = checked.value !== "card";
  }

  // Quick picks for the friend card: the joker and the mighty under the chosen trump.
  function cardChips() {
    const form = root();
    const input = document.getElementById("friend_card");
    if (!form || !input || form.querySelector(".mighty-chips")) return;
    let cards = {};
    try {
      cards = JSON.parse(form.dataset.mightyCards || "{}");
    } catch (error) {
      return;
    }
    const chips = document.createElement("div");
    chips.className = "mighty-chips";
    const pick = (label, card) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "secondary";
      button.dataset.card = card;
      button.textContent = label + " " + card;
      button.addEventListener("click", () => {
        input.value = button.dataset.card;
        input.dispatchEvent(new Event("change", { bubbles: true }));
      });
      chips.appendChild(button);
      return button;
    };
    pick("Joker", "JK");
    const mighty = pick("Mighty", "SA");
    const update = () => {
      const trump = document.querySelector("input[data-mighty-trump]:checked");
      const card = (cards[trump ? trump.value : "NT"] || {}).mighty || "SA";
      mighty.dataset.card = card;
      mighty.textContent = "Mighty " + card;
    };
    update();
    input.insertAdjacentElement("afterend", chips);
    document.addEventListener("change", (event) => {
      if (event.target.matches("input[data-mighty-trump]")) update();
    });
  }

  document.addEventListener("change", (event) => {
    const target = event.target;
    if (target.matches("select[data-mighty-count]")) labelBids();
    if (target.matches("select[data-mighty-dealer]")) followDealer(target);
    if (target.matches("input[data-mighty-friend-kind]")) showFriendCard();
  });

  document.addEventListener("DOMContentLoaded", () => {
    if (!root()) return;
    labelBids();
    showFriendCard();
    cardChips();
  });
})();
