/**
 * The look shared by the DOT and Mermaid exports, so both pictures and their
 * legends agree: one colour, line style and arrowhead per edge kind, and the
 * fills that mark origins and invalidated units.
 */
import type { EdgeKind } from "../plan/schema.js";

export interface KindStyle {
  color: string;
  /** Graphviz edge style. */
  dot: "solid" | "dashed" | "dotted" | "bold";
  arrowhead: string;
  /** SVG stroke-dasharray for Mermaid; empty for a solid line. */
  dash: string;
  /** The line drawn in text, for legends. */
  sample: string;
}

export const KIND_STYLES: Record<EdgeKind, KindStyle> = {
  content: { color: "#1f77b4", dot: "solid", arrowhead: "normal", dash: "", sample: "───▶" },
  structure: { color: "#2ca02c", dot: "dashed", arrowhead: "empty", dash: "6 3", sample: "╌╌╌▷" },
  policy: { color: "#9467bd", dot: "dotted", arrowhead: "diamond", dash: "2 3", sample: "┈┈┈◆" },
  audience: { color: "#e6550d", dot: "bold", arrowhead: "dot", dash: "10 3 2 3", sample: "━━━●" },
};

export const NODE_STYLES = {
  unit: { fill: "#ffffff", stroke: "#555555" },
  input: { fill: "#f2f2f2", stroke: "#888888" },
  origin: { fill: "#fff1c1", stroke: "#d08c00" },
  invalidated: { fill: "#fde0dc", stroke: "#c62828" },
  rule: { color: "#c62828" },
} as const;

/** Alpha suffix for edges that are not part of any explanation when a change is shown. */
export const FADED_ALPHA = "40";
export const HIGHLIGHT_WIDTH = 3;
