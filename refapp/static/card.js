/* A result card as a picture: the page's card data (<script type="application/json"
   id="card-data">) drawn on a canvas with the phone's own fonts, made a PNG, and shared through
   the phone's share sheet (the Web Share API with files) or, where that cannot take files,
   downloaded. [data-copy-card-text] copies the card's plain text. The server draws nothing. */
(function () {
  "use strict";

  var WIDTH = 1080;
  var HEIGHT = 1350;
  var PAD = 60;
  var FONT = 'system-ui, -apple-system, "Segoe UI", "Noto Sans KR", "Apple SD Gothic Neo", ' +
    '"Malgun Gothic", "Noto Sans CJK KR", sans-serif';
  var COLOURS = {
    page: "#f4f1ea", band: "#263238", bandText: "#ffffff", bandMuted: "#cfd8dc",
    text: "#1d2125", muted: "#5f6b73", rule: "#e0e4e7", gold: "#c89b00", goldText: "#1d2125",
    green: "#1f6f4a", card: "#ffffff"
  };
  var made = { key: null, file: null };

  function cardData() {
    var node = document.getElementById("card-data");
    if (!node) return null;
    try { return JSON.parse(node.textContent); } catch (error) { return null; }
  }

  function font(size, weight) { return (weight || "400") + " " + size + "px " + FONT; }

  /* the text's lines within width: at spaces, or inside a word longer than a line */
  function wrap(ctx, text, width) {
    var lines = [];
    var line = "";
    String(text).split(/\s+/).forEach(function (word) {
      var tried = line ? line + " " + word : word;
      if (ctx.measureText(tried).width <= width) { line = tried; return; }
      if (line) lines.push(line);
      line = "";
      Array.from(word).forEach(function (letter) {
        if (ctx.measureText(line + letter).width > width && line) { lines.push(line); line = ""; }
        line += letter;
      });
    });
    if (line) lines.push(line);
    return lines;
  }

  /* the text cut to width, ending in an ellipsis when it was longer */
  function cut(ctx, text, width) {
    var letters = Array.from(String(text));
    if (ctx.measureText(letters.join("")).width <= width) return letters.join("");
    while (letters.length && ctx.measureText(letters.join("") + "…").width > width) letters.pop();
    return letters.join("") + "…";
  }

  /* draw at most ``most`` lines of text from y; return the y below them */
  function lines(ctx, text, y, height, most) {
    var found = wrap(ctx, text, WIDTH - 2 * PAD);
    if (found.length > most) {
      found = found.slice(0, most);
      found[most - 1] = cut(ctx, found[most - 1] + " …", WIDTH - 2 * PAD);
    }
    found.forEach(function (line) { ctx.fillText(line, PAD, y + height * 0.78); y += height; });
    return y;
  }

  function head(ctx, data) {
    ctx.fillStyle = COLOURS.band;
    ctx.font = font(64, "700");
    var title = wrap(ctx, data.title, WIDTH - 2 * PAD).length;
    ctx.font = font(34);
    var sub = data.subtitle ? Math.min(wrap(ctx, data.subtitle, WIDTH - 2 * PAD).length, 3) : 0;
    var bottom = 56 + Math.min(title, 2) * 78 + sub * 46 + 40;
    ctx.fillRect(0, 0, WIDTH, bottom);
    ctx.fillStyle = COLOURS.bandText;
    ctx.font = font(64, "700");
    var y = lines(ctx, data.title, 56, 78, 2);
    ctx.fillStyle = COLOURS.bandMuted;
    ctx.font = font(34);
    if (data.subtitle) lines(ctx, data.subtitle, y, 46, 3);
    return bottom;
  }

  function standings(ctx, rows, top) {
    var height = Math.max(56, Math.min(96, Math.floor(600 / Math.max(rows.length, 1))));
    var size = Math.round(height * 0.45);
    var y = top + 24;
    rows.forEach(function (row) {
      var middle = y + height / 2;
      if (row.winner) {
        ctx.fillStyle = COLOURS.gold;
        ctx.beginPath();
        ctx.arc(PAD + height * 0.4, middle, height * 0.36, 0, 2 * Math.PI);
        ctx.fill();
      }
      ctx.textBaseline = "middle";
      ctx.fillStyle = row.winner ? COLOURS.goldText : COLOURS.muted;
      ctx.font = font(size, "700");
      ctx.textAlign = "center";
      ctx.fillText(row.place, PAD + height * 0.4, middle);
      ctx.textAlign = "right";
      ctx.fillStyle = COLOURS.text;
      ctx.font = font(size + 4, "700");
      ctx.fillText(row.value, WIDTH - PAD, middle);
      var valueWidth = ctx.measureText(row.value).width;
      ctx.textAlign = "left";
      ctx.font = font(size + 2, row.winner ? "700" : "400");
      var left = PAD + height * 0.9;
      ctx.fillText(cut(ctx, row.name, WIDTH - PAD - valueWidth - 30 - left), left, middle);
      ctx.textBaseline = "alphabetic";
      ctx.fillStyle = COLOURS.rule;
      ctx.fillRect(PAD, y + height - 2, WIDTH - 2 * PAD, 2);
      y += height;
    });
    return y + 24;
  }

  function facts(ctx, list, top, bottom) {
    var y = top;
    ctx.font = font(32);
    var height = 44;
    for (var index = 0; index < list.length; index += 1) {
      var found = wrap(ctx, list[index], WIDTH - 2 * PAD - 36);
      for (var at = 0; at < found.length; at += 1) {
        if (y + height > bottom) return;
        var last = y + 2 * height > bottom && (at < found.length - 1 || index < list.length - 1);
        var text = last ? cut(ctx, found[at] + " …", WIDTH - 2 * PAD - 36) : found[at];
        if (at === 0) {
          ctx.fillStyle = COLOURS.green;
          ctx.beginPath();
          ctx.arc(PAD + 10, y + height * 0.52, 7, 0, 2 * Math.PI);
          ctx.fill();
        }
        ctx.fillStyle = COLOURS.text;
        ctx.fillText(text, PAD + 36, y + height * 0.78);
        y += height;
        if (last) return;
      }
      y += 10;
    }
  }

  /* the card drawn on a new canvas of WIDTH x HEIGHT */
  function draw(data) {
    var canvas = document.createElement("canvas");
    canvas.width = WIDTH;
    canvas.height = HEIGHT;
    var ctx = canvas.getContext("2d");
    ctx.fillStyle = COLOURS.page;
    ctx.fillRect(0, 0, WIDTH, HEIGHT);
    var top = head(ctx, data);
    var below = standings(ctx, data.rows || [], top);
    var footer = HEIGHT - 40;
    facts(ctx, data.facts || [], below, footer - 50);
    ctx.fillStyle = COLOURS.muted;
    ctx.font = font(28);
    ctx.fillText(cut(ctx, data.footer || "", WIDTH - 2 * PAD), PAD, footer);
    return canvas;
  }

  /* the card as a PNG file, made once per card data (before the tap where it can be) */
  function picture(data) {
    var key = JSON.stringify(data);
    if (made.key === key && made.file) return made.file;
    var ready = document.fonts && document.fonts.ready ? document.fonts.ready : Promise.resolve();
    made.key = key;
    made.file = ready.then(function () {
      return new Promise(function (resolve, reject) {
        draw(data).toBlob(function (blob) {
          if (blob) resolve(new File([blob], data.file || "refapp.png", { type: "image/png" }));
          else reject(new Error("the card could not be drawn"));
        }, "image/png");
      });
    });
    return made.file;
  }

  function say(words) {
    var status = document.querySelector("[data-card-status]");
    if (status && words) status.textContent = words;
  }

  function download(file) {
    var link = document.createElement("a");
    link.href = URL.createObjectURL(file);
    link.download = file.name;
    link.hidden = true;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000);
  }

  function share(button, data) {
    return picture(data).then(function (file) {
      var files = { files: [file] };
      if (navigator.share && navigator.canShare && navigator.canShare(files)) {
        return navigator.share({ files: [file], title: data.title }).catch(function (error) {
          if (!error || error.name !== "AbortError") { download(file); say(button.dataset.savedWords); }
        });
      }
      download(file);
      say(button.dataset.savedWords);
      return undefined;
    });
  }

  function copyText(button, data) {
    var done = function () { say(button.dataset.copiedWords); };
    var fallback = function () {
      var area = document.querySelector("[data-card-text]");
      if (!area) return;
      var details = area.closest("details");
      if (details) details.open = true;
      area.focus();
      area.select();
      try { if (document.execCommand("copy")) done(); } catch (error) { /* selected to copy by hand */ }
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(data.text || "").then(done, fallback);
    } else {
      fallback();
    }
  }

  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    var shareButton = target && target.closest("[data-share-card]");
    var copyButton = target && target.closest("[data-copy-card-text]");
    var data = (shareButton || copyButton) ? cardData() : null;
    if (!data) return;
    if (shareButton) {
      shareButton.disabled = true;
      share(shareButton, data).then(
        function () { shareButton.disabled = false; },
        function () { shareButton.disabled = false; }
      );
    } else {
      copyText(copyButton, data);
    }
  });

  function prepare() {
    var data = cardData();
    if (data && document.querySelector("[data-share-card]")) picture(data).catch(function () {});
  }
  document.addEventListener("DOMContentLoaded", prepare);
  document.addEventListener("refapp:swapped", prepare);
  if (document.readyState !== "loading") prepare();
})();
