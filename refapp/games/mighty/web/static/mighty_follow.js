// A correction's next round follows the round corrected: when a change there moves who deals
// next and the rotation names one dealer (the last hand's friend, or boss; the misdeal's
// declarer), the next round's dealer and its hint take that player at once, so saving both is
// not refused first (corrections.js saves the next round too once its fields change). Rotations
// that need the score (the boss after a win, the friend after a loss) or the seats' order are
// left to the table. The form's fields stay what is sent; this only fills them in.
(function () {
  "use strict";

  const NAMES = ["boss", "friend_player", "friend_kind", "misdeal_player"];

  function field(form, name) {
    return form.elements.namedItem(name);
  }

  function valueOf(form, name) {
    const found = field(form, name);
    if (!found) return "";
    if (typeof RadioNodeList !== "undefined" && found instanceof RadioNodeList) return found.value || "";
    return String(found.value || "").trim();
  }

  // Who deals after the corrected round, by the rotation, or "" when it cannot be told here.
  function nextDealer(form, at, rule) {
    const declarer = valueOf(form, at + "misdeal_player");
    const boss = valueOf(form, at + "boss");
    if (declarer && !boss) return declarer;
    if (!boss) return "";
    if (rule === "previous_boss") return boss;
    if (rule !== "previous_friend") return "";
    if (valueOf(form, at + "friend_kind") === "none") return boss;
    return valueOf(form, at + "friend_player") || boss;
  }

  function follow(box) {
    const form = box.closest("form");
    const select = box.querySelector("select[data-mighty-dealer]");
    const dealer = form && select && nextDealer(form, box.dataset.follow, box.dataset.followRule);
    if (!dealer || dealer === select.value) return;
    if (!Array.from(select.options).some((option) => option.value === dealer && !option.disabled)) return;
    select.value = dealer;
    const hint = box.querySelector("p.hint");
    // one hint per player, its particle fitted to the name on the server (서연이, 철이)
    const hints = JSON.parse(box.dataset.followHints || "{}");
    if (hint && hints[dealer]) hint.textContent = hints[dealer];
    select.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("change", (event) => {
    const name = event.target && event.target.name;
    const form = event.target.closest && event.target.closest("form");
    if (!form || !name) return;
    form.querySelectorAll("[data-follow]").forEach((box) => {
      if (NAMES.some((one) => name === box.dataset.follow + one)) follow(box);
    });
  });
})();
