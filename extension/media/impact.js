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
  // Half the pane of empty room on every side of the graph, so any node -- one
  // on the graph's edge too -- can be scrolled into the middle of the pane.
  const pad = { x: 0, y: 0 };

  /** The graph point (unscaled px) at the pane point (x, y). */
  function graphPoint(x, y) {
    return { x: (canvas.scrollLeft + x - pad.x) / scale, y: (canvas.scrollTop + y - pad.y) / scale };
  }

  /** Scrolls so the graph point `g` is at the pane point (x, y). */
  function place(g, x, y) {
    canvas.scrollLeft = pad.x + g.x * scale - x;
    canvas.scrollTop = pad.y + g.y * scale - y;
  }

  function layout() {
    pad.x = Math.round(canvas.clientWidth / 2);
    pad.y = Math.round(canvas.clientHeight / 2);
    svg.style.margin = `${pad.y}px ${pad.x}px`;
    svg.setAttribute("width", String(natural.width * scale));
    svg.setAttribute("height", String(natural.height * scale));
  }

  /** Sets the zoom, keeping the graph point under (x, y) of the pane where it was. */
  function zoomTo(next, x, y) {
    const px = x === undefined ? canvas.clientWidth / 2 : x;
    const py = y === undefined ? canvas.clientHeight / 2 : y;
    const g = graphPoint(px, py);
    scale = Math.min(MAX, Math.max(MIN, next));
    layout();
    place(g, px, py);
    canvas.setAttribute("data-zoom", String(Math.round(scale * 100) / 100));
    if (label) label.textContent = `${Math.round(scale * 100)}%`;
  }

  /** The whole graph in the pane (never enlarged past its own size), centred. */
  function fit() {
    zoomTo(Math.min(1, (canvas.clientWidth - 8) / natural.width, (canvas.clientHeight - 8) / natural.height));
    place({ x: natural.width / 2, y: natural.height / 2 }, canvas.clientWidth / 2, canvas.clientHeight / 2);
  }

  /** Scrolls the pane so the node named `id` is in its middle, and marks it. */
  function centreOn(id) {
    const group = [...svg.querySelectorAll("g.node")].find((g) => {
      const title = g.querySelector("title");
      return title && title.textContent.trim() === id;
    });
    if (!group) return false;
    group.classList.add("focused");
    const node = group.getBoundingClientRect();
    const pane = canvas.getBoundingClientRect();
    canvas.scrollLeft += node.left + node.width / 2 - (pane.left + canvas.clientLeft + canvas.clientWidth / 2);
    canvas.scrollTop += node.top + node.height / 2 - (pane.top + canvas.clientTop + canvas.clientHeight / 2);
    return true;
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

  // The first view, once the pane has a size (a webview can run this script
  // before it is laid out): actual size, where labels are as legible as the
  // editor's text, centred on the changed node (else the whole graph, fitted).
  // Later resizes keep the graph point in the middle of the pane there.
  let shown = false;
  let middle = null;
  new ResizeObserver(() => {
    if (canvas.clientWidth === 0 || canvas.clientHeight === 0) return;
    if (!shown) {
      shown = true;
      zoomTo(1);
      const focus = canvas.getAttribute("data-focus");
      if (!(focus && centreOn(focus))) fit();
    } else if (middle) {
      layout();
      place(middle, canvas.clientWidth / 2, canvas.clientHeight / 2);
    }
    middle = graphPoint(canvas.clientWidth / 2, canvas.clientHeight / 2);
  }).observe(canvas);
  canvas.addEventListener("scroll", () => {
    if (shown) middle = graphPoint(canvas.clientWidth / 2, canvas.clientHeight / 2);
  });
})();
