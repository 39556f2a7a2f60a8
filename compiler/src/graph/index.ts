export { toDot } from "./dot.js";
export { toMermaid } from "./mermaid.js";
export { KIND_STYLES } from "./styles.js";
export type { GraphView } from "./layout.js";
