// Keyboard shortcuts: / search (the run picker's on a page without its
// own), j/k move through a list, Enter opens, g r runs, g m modes, ? help.
// Lists opt in with data-list; rows carry data-href.
const rows = () => [...document.querySelectorAll("table[data-list] tbody tr[data-href]")];
let current = -1;
let pendingG = false;

function select(i) {
  const list = rows();
  if (list.length === 0) return;
  current = Math.max(0, Math.min(i, list.length - 1));
  list.forEach((r, j) => r.classList.toggle("selected", j === current));
  list[current].scrollIntoView({ block: "nearest" });
}

function typing(e) {
  const t = e.target;
  return t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || t.isContentEditable;
}

document.addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey || typing(e)) return;
  if (pendingG) {
    pendingG = false;
    if (e.key === "r") { location.href = "/"; return; }
    if (e.key === "m") {
      const modes = document.querySelector("[data-nav=modes]");
      location.href = modes ? modes.getAttribute("href") : "/";
      return;
    }
  }
  switch (e.key) {
    case "/": {
      // A page without a search of its own searches the run picker.
      const s = document.getElementById("search");
      const picker = document.querySelector(".run-picker");
      if (s) { e.preventDefault(); s.focus(); }
      else if (picker) { e.preventDefault(); picker.open = true; picker.querySelector("input[type=search]").focus(); }
      break;
    }
    case "j": select(current + 1); break;
    case "k": select(current - 1); break;
    case "Enter": {
      const r = rows()[current];
      if (r) location.href = r.dataset.href;
      break;
    }
    case "g": pendingG = true; setTimeout(() => { pendingG = false; }, 1000); break;
    case "?": {
      const d = document.getElementById("shortcuts");
      if (d && !d.open) d.showModal();
      break;
    }
  }
});
