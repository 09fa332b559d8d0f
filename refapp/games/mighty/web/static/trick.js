// "Who takes this trick?": taps on the card grid build the GET form, then submit it.
// The page works without this script (each tap is then a round trip).
(function () {
  "use strict";

  const form = document.getElementById("trick-form");
  if (!form) return;
  const input = document.getElementById("cards");
  const most = Number(form.dataset.most); // the plays of a trick: the server's, never this script's
  let specials = {};
  let symbols = {}; // the suits' symbols are the server's: the form's data-symbols
  try {
    specials = JSON.parse(form.dataset.specials || "{}");
    symbols = JSON.parse(form.dataset.symbols || "{}");
  } catch (error) {
    specials = {};
  }

  function cards() {
    return input.value.split(/[\s,;]+/).filter(Boolean).map((card) => card.toUpperCase());
  }

  function face(card) {
    return symbols[card[0]] && card !== "JK" ? symbols[card[0]] + card.slice(1) : card;
  }

  function trump() {
    const checked = form.querySelector("input[name=trump]:checked");
    return checked ? checked.value : "";
  }

  function hasError(box) {
    return Boolean(box && box.querySelector("p.error"));
  }

  function show() {
    const played = cards();
    const full = played.length >= most;
    form.querySelectorAll("button[name=add]").forEach((button) => {
      const used = played.includes(button.value);
      button.disabled = used || full;
      button.setAttribute("aria-pressed", used ? "true" : "false");
    });
    const undo = form.querySelector("button[name=undo]");
    if (undo) undo.disabled = played.length === 0;
    const list = form.querySelector(".trick-played");
    if (list && list.children.length !== played.length) {
      list.replaceChildren(...played.map((card) => {
        const item = document.createElement("li");
        item.textContent = face(card);
        return item;
      }));
    }
    const special = specials[trump()];
    const hint = form.querySelector(".trick-specials");
    if (hint && special) {
      hint.hidden = false;
      hint.querySelector("[data-special=mighty]").textContent = face(special.mighty);
      hint.querySelector("[data-special=joker_call]").textContent = face(special.joker_call);
    }
    const lead = played[0] || "";
    const suit = document.getElementById("trick-suit");
    if (suit) suit.hidden = lead !== "JK" && !hasError(suit);
    const call = document.getElementById("trick-call");
    if (call) call.hidden = !(special && lead === special.joker_call) && !hasError(call);
  }

  function changed() {
    const verdict = document.getElementById("verdict");
    if (verdict) verdict.hidden = true;
    show();
  }

  function ready() {
    const played = cards();
    if (played.length < most) return false;
    return played[0] !== "JK" || Boolean(form.querySelector("input[name=suit]:checked"));
  }

  form.addEventListener("click", (event) => {
    const button = event.target.closest("button[name=add], button[name=undo]");
    if (!button) return;
    event.preventDefault();
    const played = cards();
    if (button.name === "undo") played.pop();
    else if (played.length < most && !played.includes(button.value)) played.push(button.value);
    input.value = played.join(",");
    changed();
    if (button.name === "add" && ready()) form.submit();
  });
  form.addEventListener("change", (event) => {
    changed();
    if (event.target.name === "suit" && ready()) form.submit();
  });
  input.addEventListener("input", changed);
  show();
})();
