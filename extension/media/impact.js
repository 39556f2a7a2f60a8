// The impact view's only script (loaded with the CSP nonce). A click or Enter
// on a unit -- a list button or a node of the graph -- asks the extension to
// reveal its definition.
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

  document.addEventListener("click", (event) => {
    const node = event.target instanceof Element ? nodeOf(event.target) : null;
    if (node) vscode.postMessage({ type: "reveal", node });
  });
})();
