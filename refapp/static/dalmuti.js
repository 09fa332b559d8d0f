// dalmuti pages: progressive enhancements only; every page works without them.
(() => {
  // Who went out: tap the names in the order players go out; they fill the place selects.
  function setUpFinish(fieldset) {
    const selects = Array.from(fieldset.querySelectorAll("select[data-place]"));
    if (!selects.length) return;
    const names = Array.from(selects[0].options).map((o) => o.value).filter((v) => v);
    const bar = document.createElement("div");
    bar.className = "dal-tap";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", "Tap the players as they go out");
    const buttons = names.map((name) => {
      const button = document.createElement("button");
      button.type = "button";
      button.textContent = name;
      button.dataset.name = name;
      button.addEventListener("click", () => tap(name));
      bar.appendChild(button);
      return button;
    });
    const undo = document.createElement("button");
    undo.type = "button";
    undo.className = "dal-undo";
    undo.textContent = "Undo";
    undo.addEventListener("click", () => {
      const filled = selects.filter((s) => s.value);
      if (filled.length) filled[filled.length - 1].value = "";
      refresh();
    });
    bar.appendChild(undo);
    const places = fieldset.querySelector(".dal-places");
    fieldset.insertBefore(bar, places);

    function chosen() {
      return selects.map((s) => s.value).filter((v) => v);
    }
    function tap(name) {
      const empty = selects.find((s) => !s.value);
      if (!empty || chosen().includes(name)) return;
      empty.value = name;
      const left = names.filter((n) => !chosen().includes(n));
      const open = selects.filter((s) => !s.value);
      if (left.length === 1 && open.length === 1) open[0].value = left[0];
      refresh();
    }
    function refresh() {
      const taken = chosen();
      buttons.forEach((button) => {
        const place = taken.indexOf(button.dataset.name);
        button.disabled = place >= 0;
        button.textContent = place >= 0 ? `${place + 1}. ${button.dataset.name}` : button.dataset.name;
      });
      undo.disabled = taken.length === 0;
    }
    fieldset.addEventListener("change", refresh);
    refresh();
  }

  // A revolution cancels the tax: set the tribute fields aside (disabled fields are not sent).
  function syncRevolution() {
    const select = document.querySelector("select[data-revolution]");
    if (!select) return;
    const tribute = document.querySelector("fieldset[data-tribute]");
    const kind = document.querySelector("select[name=revolution_kind]");
    if (tribute) tribute.disabled = Boolean(select.value);
    if (kind) kind.disabled = !select.value;
  }

  // New session: show the expected lines for the way the first ranks are decided.
  function syncFirstRanks() {
    const picked = document.querySelector("[data-first-ranks] input:checked");
    const players = document.querySelector("textarea[name=players]");
    if (!picked || !players) return;
    players.placeholder = picked.value === "draw" ? "Ann 7\nBen 1\nCy J\nDee 3" : "Ann\nBen\nCy\nDee";
  }

  document.addEventListener("change", (event) => {
    if (event.target.matches("select[data-revolution]")) syncRevolution();
    if (event.target.closest("[data-first-ranks]")) syncFirstRanks();
  });
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("fieldset[data-finish]").forEach(setUpFinish);
    syncRevolution();
    syncFirstRanks();
  });
})();
