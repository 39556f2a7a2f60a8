/**
 * Graphviz DOT for a plan: units clustered by phase, inputs in their own
 * cluster, one edge per declared kind styled by kind, and a legend. Given an
 * impact report it marks the origins and invalidated units, draws the
 * explanation hops thick (rule hops as extra red edges) and fades the rest.
 */
import { EDGE_KINDS } from "../plan/schema.js";
import { formatChange } from "../impact/parse-change.js";
import type { ImpactReport } from "../impact/types.js";
import { edgeKey, highlightOf, type Highlight } from "./highlight.js";
import { captionOf, phaseGroups, type GraphView } from "./layout.js";
import { FADED_ALPHA, HIGHLIGHT_WIDTH, KIND_STYLES, NODE_STYLES } from "./styles.js";

const quote = (text: string) => `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
const pairs = (a: Record<string, string | number>) => Object.entries(a).map(([k, v]) => `${k}=${typeof v === "number" ? v : quote(v)}`);
/** An attribute list, `[k="v", ...]`, for a node, an edge or a default. */
const attrs = (a: Record<string, string | number>) => `[${pairs(a).join(", ")}]`;
/** Attribute statements, `k="v"; ...`, for the body of a subgraph. */
const statements = (a: Record<string, string | number>) =>
  pairs(a)
    .map((p) => `${p};`)
    .join(" ");

export function toDot(plan: GraphView, report?: ImpactReport): string {
  const mark = report ? highlightOf(report) : undefined;
  const caption = captionOf(plan, report && { changes: report.changes.map(formatChange), invalidated: report.invalidated.length });
  const lines = [
    "digraph taskspec {",
    `  graph ${attrs({ rankdir: "TB", fontname: "Helvetica", fontsize: 12, label: caption, labelloc: "t", newrank: "true", nodesep: 0.25, ranksep: 0.6 })};`,
    `  node ${attrs({ shape: "box", style: "rounded,filled", fontname: "Helvetica", fontsize: 11, fillcolor: NODE_STYLES.unit.fill, color: NODE_STYLES.unit.stroke })};`,
    `  edge ${attrs({ fontname: "Helvetica", fontsize: 9, arrowsize: 0.7 })};`,
  ];

  for (const input of plan.inputs) lines.push(`  ${quote(input.name)} ${attrs(nodeAttrs(input.name, "input", mark))};`);
  phaseGroups(plan).forEach((group, g) => {
    lines.push(
      `  subgraph cluster_${g} {`,
      `    ${statements({ label: group.label, style: "rounded,dashed", color: "#bbbbbb", fontcolor: "#555555" })}`,
    );
    for (const unit of group.units) lines.push(`    ${quote(unit)} ${attrs(nodeAttrs(unit, "unit", mark))};`);
    lines.push("  }");
  });

  for (const edge of plan.edges) {
    for (const kind of edge.kinds) {
      const style = KIND_STYLES[kind];
      const on = mark?.edges.has(edgeKey(edge.from, edge.to, kind));
      const color = mark && !on ? style.color + FADED_ALPHA : style.color;
      lines.push(
        `  ${quote(edge.from)} -> ${quote(edge.to)} ${attrs({
          color,
          style: style.dot,
          arrowhead: style.arrowhead,
          tooltip: `${edge.from} --${kind}--> ${edge.to}`,
          ...(on ? { penwidth: HIGHLIGHT_WIDTH } : {}),
        })};`,
      );
    }
  }
  for (const hop of mark?.ruleHops ?? []) {
    lines.push(
      `  ${quote(hop.from)} -> ${quote(hop.to)} ${attrs({
        color: NODE_STYLES.rule.color,
        style: "dashed",
        penwidth: HIGHLIGHT_WIDTH,
        label: `${hop.on} rule`,
        fontcolor: NODE_STYLES.rule.color,
        constraint: "false",
      })};`,
    );
  }

  lines.push(...legend(mark !== undefined), "}");
  return lines.join("\n") + "\n";
}

function nodeAttrs(id: string, type: "unit" | "input", mark: Highlight | undefined): Record<string, string | number> {
  const base: Record<string, string | number> =
    type === "input" ? { shape: "ellipse", fillcolor: NODE_STYLES.input.fill, color: NODE_STYLES.input.stroke } : {};
  if (mark?.invalidated.has(id))
    return { ...base, fillcolor: NODE_STYLES.invalidated.fill, color: NODE_STYLES.invalidated.stroke, penwidth: 2 };
  if (mark?.origins.has(id)) return { ...base, fillcolor: NODE_STYLES.origin.fill, color: NODE_STYLES.origin.stroke, penwidth: 2 };
  return base;
}

/**
 * One HTML-like table: a coloured line sample per kind (same colour as the
 * edges), then the fills. Its name has a space, which no unit or input id has.
 */
function legend(withImpact: boolean): string[] {
  const row = (cell: string) => `<TR><TD ALIGN="LEFT">${cell}</TD></TR>`;
  const rows = [
    row("<B>legend</B>"),
    ...EDGE_KINDS.map((kind) => row(`<FONT COLOR="${KIND_STYLES[kind].color}">${KIND_STYLES[kind].sample} ${kind}</FONT>`)),
  ];
  if (withImpact) {
    const fill = (style: { fill: string; stroke: string }, text: string) =>
      `<TR><TD ALIGN="LEFT" BGCOLOR="${style.fill}" COLOR="${style.stroke}" BORDER="1">${text}</TD></TR>`;
    rows.push(fill(NODE_STYLES.origin, "changed"), fill(NODE_STYLES.invalidated, "invalidated"));
  }
  return [`  "taskspec legend" [shape="plaintext", label=<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="3">${rows.join("")}</TABLE>>];`];
}
