// The new-session form: choosing another preset (or saved rules) refills every house-rule field
// the player has not changed; a changed field keeps the player's value. Without this script the
// server compares the fields with the preset they were filled from (the hidden filled_from).
(function () {
  const form = document.querySelector("form[data-preset-fills]");
  if (!form) return;
  const fills = JSON.parse(form.dataset.presetFills);
  const filledFrom = form.querySelector("input[name=filled_from]");

  function inputs(name) {
    return Array.from(form.querySelectorAll("[name='" + name + "']"));
  }

  function read(name, value) {
    const found = inputs(name);
    if (Array.isArray(value)) return found.filter((box) => box.checked).map((box) => box.value);
    if (typeof value === "boolean") return found.some((box) => box.checked);
    return found.length ? found[0].value : null;
  }

  function same(a, b) {
    if (Array.isArray(a) && Array.isArray(b)) {
      return a.length === b.length && a.every((item) => b.includes(item));
    }
    return a === b;
  }

  function write(name, value) {
    inputs(name).forEach((input) => {
      if (Array.isArray(value)) input.checked = value.includes(input.value);
      else if (typeof value === "boolean") input.checked = value;
      else input.value = value;
    });
  }

  form.addEventListener("change", (event) => {
    if (!event.target.matches("input[data-preset]")) return;
    const before = fills[filledFrom.value] || {};
    const after = fills[event.target.value];
    if (!after) return;
    Object.keys(after).forEach((name) => {
      if (name in before && same(read(name, before[name]), before[name])) {
        write(name, after[name]);
      }
    });
    filledFrom.value = event.target.value;
  });
})();
