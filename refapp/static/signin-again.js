// A write whose sign-in or CSRF token lapsed (the server marks its answer X-Refapp-Again) keeps
// its entry: with a lapsed token a fresh one is fetched; with a lapsed sign-in a small password
// box in the form's area signs in through /signin as JSON. Then what waited is sent again.
(function () {
  "use strict";

  const live = window.refapp;
  if (!live || !window.fetch) return;
  //: how soon what waits is tried again: the app's RETRY_MS (body data-retry-ms)
  const RETRY_MS = Number(document.body.dataset.retryMs) || 4000;
  //: what the sign-in needs before anything is sent again ("sign-in", "token"), if anything
  let need = "";
  //: what to send again once signed in
  const after = [];
  //: who keeps copies of the token (queue.js's waiting rounds)
  const listeners = [];

  // Ask the sign-in route, as JSON, whether a password is needed and for a fresh CSRF token.
  async function signInState(body) {
    const response = await fetch(live.words("signIn"), {
      method: body ? "POST" : "GET",
      body: body,
      headers: { "X-Refapp-Live": "1", Accept: "application/json" },
      credentials: "same-origin",
    });
    let data = {};
    try {
      data = await response.json();
    } catch (error) {
      /* not JSON: treated as a refusal below */
    }
    return { ok: response.ok, data: data };
  }

  // The new session's token goes into every waiting round and every form of the page.
  function useToken(token) {
    if (!token) return;
    listeners.forEach((listener) => listener(token));
    document.querySelectorAll("input[name=csrf_token]").forEach((input) => {
      input.value = token;
    });
  }

  async function askAgain(kind, then) {
    const first = !need;
    need = kind;
    if (then) after.push(then);
    if (!first) return;
    if (kind === "token") {
      try {
        const state = await signInState(null);
        if (state.ok && !state.data.password_needed) {
          useToken(state.data.csrf_token);
          resume();
          return;
        }
      } catch (error) {
        window.setTimeout(resume, RETRY_MS); // no connection: what waits is tried again
        return;
      }
      need = "sign-in";
    }
    showPasswordBox();
  }

  function resume() {
    need = "";
    const box = document.getElementById("sign-in-again");
    if (box) box.remove();
    after.splice(0).forEach((then) => then());
  }

  function showPasswordBox(message) {
    let box = document.getElementById("sign-in-again");
    if (!box) {
      box = document.createElement("form");
      box.id = "sign-in-again";
      box.className = "sign-in-again card";
      box.setAttribute("role", "alert");
      const ask = document.createElement("p");
      ask.textContent = live.words("againAsk");
      const label = document.createElement("label");
      label.textContent = live.words("againPassword");
      const input = document.createElement("input");
      input.type = "password";
      input.name = "password";
      input.autocomplete = "current-password";
      label.append(input);
      const error = document.createElement("p");
      error.className = "error";
      error.hidden = true;
      const button = document.createElement("button");
      button.type = "submit";
      button.textContent = live.words("againButton");
      box.append(ask, label, error, button);
      box.addEventListener("submit", signIn);
    }
    const section = document.getElementById("record");
    const form = document.querySelector("#main form[data-keep]");
    if (form) form.before(box);
    else if (section) section.prepend(box);
    else document.getElementById("main").prepend(box);
    const error = box.querySelector(".error");
    error.textContent = message || "";
    error.hidden = !message;
    box.scrollIntoView({ block: "nearest" });
    box.querySelector("input").focus({ preventScroll: true });
  }

  async function signIn(event) {
    event.preventDefault();
    const box = event.currentTarget;
    const password = box.querySelector("input").value;
    try {
      const state = await signInState(null);
      if (!state.data.password_needed) {
        useToken(state.data.csrf_token);
        resume();
        return;
      }
      const body = new FormData();
      body.append("password", password);
      body.append("csrf_token", state.data.csrf_token || "");
      const answer = await signInState(body);
      if (!answer.ok || answer.data.password_needed) {
        showPasswordBox(answer.data.error || live.words("againAsk"));
        return;
      }
      useToken(answer.data.csrf_token);
      resume();
    } catch (error) {
      showPasswordBox(live.words("offlineTap"));
    }
  }

  // a background refresh replaced <main>: the password box is still needed
  document.addEventListener("refapp:swapped", () => {
    if (need === "sign-in" && !document.getElementById("sign-in-again")) showPasswordBox();
  });

  live.signInAgain = {
    ask: askAgain,
    needed: () => need !== "",
    onToken: (listener) => listeners.push(listener),
  };
})();
