// Small progressive enhancements; every page works without them.
document.addEventListener("submit", (event) => {
  const message = event.target.dataset.confirm;
  if (message && !window.confirm(message)) event.preventDefault();
});

// Show stored UTC times in the phone's own time zone.
function localTimes() {
  document.querySelectorAll("time[datetime]").forEach((node) => {
    const moment = new Date(node.getAttribute("datetime"));
    if (!Number.isNaN(moment.getTime())) {
      const language = document.documentElement.lang || undefined;
      node.textContent = moment.toLocaleString(language, { dateStyle: "medium", timeStyle: "short" });
    }
  });
}
document.addEventListener("DOMContentLoaded", localTimes);
document.addEventListener("refapp:swapped", localTimes);

document.addEventListener("click", (event) => {
  if (event.target.matches("[data-print]")) window.print();
});

// Correcting two rounds: a change to the next round's fields means saving it too.
document.addEventListener("change", (event) => {
  const box = event.target.closest && event.target.closest("#next-round");
  const also = document.getElementById("also_next");
  if (box && also && event.target !== also) also.checked = true;
});
