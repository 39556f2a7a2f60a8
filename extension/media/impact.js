// The impact view's only script (loaded with the CSP nonce). A click or Enter
// on a unit -- a list button or a node of the graph -- asks the extension to
// reveal its definition. The graph zooms (buttons, Ctrl+wheel, + - 0) and pans
// (drag, scroll), drawn at its own size times the zoom, and opens centred on
// the changed node.
(function () {
  const vscode = acquireVsCodeApi();

  // Graph nodes carry their id as data-node; Graphviz-style SVGs name the node
  // in the <title> of its <g class="node">.
  function nodeOf(target) {
    const tagged = target.closest("[data-node]");
    if (tagged) return tagged.getAttribute("data-node");
    const group = target.closest("g.node");
    const title = group && group.querySelector("title");
    return title ? title.textContent.trim() : null;
  }

  // A drag that moved the graph is a pan, not a click on the node it started on.
  let dragged = false;
  document.addEventListener("click", (event) => {
    if (dragged) return;
    const node = event.target instanceof Element ? nodeOf(event.target) : null;
    if (node) vscode.postMessage({ type: "reveal", node });
  });

  const canvas = document.querySelector(".graph-canvas");
  const svg = canvas && canvas.querySelector("svg");
  if (!canvas || !svg) return;
  const label = document.querySelector(".graph-zoom");
  const MIN = 0.1;
  const MAX = 4;
  // The graph's own size, in CSS px (Graphviz writes width/height in pt).
  const box = svg.viewBox && svg.viewBox.baseVal;
  const natural = {
    width: box && box.width ? box.width * (4 / 3) : svg.getBoundingClientRect().width,
    height: box && box.height ? box.height * (4 / 3) : svg.getBoundingClientRect().height,
  };
  let scale = 1;

  /** Sets the zoom, keeping the graph point under (x, y) of the pane where it was. */
  function zoomTo(next, x, y) {
    const clamped = Math.min(MAX, Math.max(MIN, next));
    const px = x === undefined ? canvas.clientWidth / 2 : x;
    const py = y === undefined ? canvas.clientHeight / 2 : y;
    const gx = (canvas.scrollLeft + px) / scale;
    const gy = (canvas.scrollTop + py) / scale;
    scale = clamped;
    svg.setAttribute("width", String(natural.width * scale));
    svg.setAttribute("height", String(natural.height * scale));
    canvas.scrollLeft = gx * scale - px;
    canvas.scrollTop = gy * scale - py;
    canvas.setAttribute("data-zoom", String(Math.round(scale * 100) / 100));
    if (label) label.textContent = `${Math.round(scale * 100)}%`;
  }

  function fit() {
    zoomTo(Math.min(1, (canvas.clientWidth - 8) / natural.width, (canvas.clientHeight - 8) / natural.height));
    canvas.scrollLeft = 0;
    canvas.scrollTop = 0;
  }

  /** Scrolls the pane so the node named `id` is in its middle, and marks it. */
  function centreOn(id) {
    const group = [...svg.querySelectorAll("g.node")].find((g) => {
      const title = g.querySelector("title");
      return title && title.textContent.trim() === id;
    });
    if (!group) return;
    group.classList.add("focused");
    const node = group.getBoundingClientRect();
    const pane = canvas.getBoundingClientRect();
    canvas.scrollLeft += node.left + node.width / 2 - (pane.left + canvas.clientWidth / 2);
    canvas.scrollTop += node.top + node.height / 2 - (pane.top + canvas.clientHeight / 2);
  }

  document.querySelectorAll("[data-zoom]").forEach((button) => {
    if (button === canvas) return;
    button.addEventListener("click", () => {
      const action = button.getAttribute("data-zoom");
      if (action === "in") zoomTo(scale * 1.25);
      else if (action === "out") zoomTo(scale / 1.25);
      else if (action === "reset") zoomTo(1);
      else if (action === "fit") fit();
    });
  });
  canvas.addEventListener(
    "wheel",
    (event) => {
      if (!event.ctrlKey) return; // a plain wheel scrolls (pans)
      event.preventDefault();
      const pane = canvas.getBoundingClientRect();
      zoomTo(scale * (event.deltaY < 0 ? 1.1 : 1 / 1.1), event.clientX - pane.left, event.clientY - pane.top);
    },
    { passive: false },
  );
  canvas.addEventListener("keydown", (event) => {
    if (event.key === "+" || event.key === "=") zoomTo(scale * 1.25);
    else if (event.key === "-") zoomTo(scale / 1.25);
    else if (event.key === "0") zoomTo(1);
    else return;
    event.preventDefault();
  });
  let pan = null;
  canvas.addEventListener("pointerdown", (event) => {
    if (event.button !== 0) return;
    dragged = false;
    pan = { x: event.clientX, y: event.clientY, left: canvas.scrollLeft, top: canvas.scrollTop };
  });
  window.addEventListener("pointermove", (event) => {
    if (!pan) return;
    const dx = event.clientX - pan.x;
    const dy = event.clientY - pan.y;
    if (!dragged && Math.abs(dx) + Math.abs(dy) < 4) return;
    dragged = true;
    canvas.classList.add("panning");
    canvas.scrollLeft = pan.left - dx;
    canvas.scrollTop = pan.top - dy;
  });
  window.addEventListener("pointerup", () => {
    pan = null;
    canvas.classList.remove("panning");
    // the click that ends a drag comes after pointerup: let it see `dragged`, then reset
    setTimeout(() => (dragged = false), 0);
  });

  zoomTo(1);
  const focus = canvas.getAttribute("data-focus");
  if (focus) centreOn(focus);
})();
