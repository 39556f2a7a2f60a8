/**
 * Mermaid flowchart for a plan, for Markdown (READMEs, pull requests) and
 * editors that render Mermaid: the same grouping, kind styles, highlights and
 * legend as the DOT export. Node ids are positional (`n0`, `n1`, ...) with the
 * real name as the label, so no name can collide with Mermaid syntax.
 */
import { EDGE_KINDS, type EdgeKind } from "../plan/schema.js";
import { formatChange } from "../impact/parse-change.js";
import type { ImpactReport } from "../impact/types.js";
import { edgeKey, highlightOf } from "./highlight.js";
import { captionOf, phaseGroups, type GraphView } from "./layout.js";
import { FADED_ALPHA, HIGHLIGHT_WIDTH, KIND_STYLES, NODE_STYLES } from "./styles.js";

const label = (text: string) => `"${text.replace(/"/g, "#quot;")}"`;

export function toMermaid(plan: GraphView, report?: ImpactReport): string {
  const mark = report ? highlightOf(report) : undefined;
  const caption = captionOf(plan, report && { changes: report.changes.map(formatChange), invalidated: report.invalidated.length });
  const ids = new Map<string, string>();
  const idOf = (name: string) => ids.get(name) ?? ids.set(name, `n${ids.size}`).get(name)!;
  const lines = ["---", `title: ${label(caption)}`, "---", "flowchart TB"];

  for (const input of plan.inputs) lines.push(`  ${idOf(input.name)}([${label(input.name)}])`);
  phaseGroups(plan).forEach((group, g) => {
    lines.push(`  subgraph g${g}[${label(group.label)}]`);
    for (const unit of group.units) lines.push(`    ${idOf(unit)}[${label(unit)}]`);
    lines.push("  end");
  });

  const linkStyles: string[] = [];
  const link = (from: string, to: string, text: string, style: string, indent = "  ") => {
    lines.push(`${indent}${from} -->|${label(text)}| ${to}`);
    linkStyles.push(`  linkStyle ${linkStyles.length} ${style}`);
  };
  const kindStyle = (kind: EdgeKind, faded: boolean, width: number) => {
    const s = KIND_STYLES[kind];
    return [
      `stroke:${faded ? s.color + FADED_ALPHA : s.color}`,
      `stroke-width:${width}px`,
      ...(s.dash ? [`stroke-dasharray:${s.dash}`] : []),
      `color:${s.color}`,
    ].join(",");
  };
  for (const edge of plan.edges) {
    for (const kind of edge.kinds) {
      const on = mark?.edges.has(edgeKey(edge.from, edge.to, kind)) ?? false;
      link(idOf(edge.from), idOf(edge.to), kind, kindStyle(kind, mark !== undefined && !on, on ? HIGHLIGHT_WIDTH : 1.5));
    }
  }
  for (const hop of mark?.ruleHops ?? []) {
    link(
      idOf(hop.from),
      idOf(hop.to),
      `${hop.on} rule`,
      `stroke:${NODE_STYLES.rule.color},stroke-width:${HIGHLIGHT_WIDTH}px,stroke-dasharray:6 3,color:${NODE_STYLES.rule.color}`,
    );
  }

  lines.push(`  subgraph legend[${label("legend")}]`);
  for (const kind of EDGE_KINDS) {
    link(`legend_${kind}_a[" "]`, `legend_${kind}_b[" "]`, kind, kindStyle(kind, false, 1.5), "    ");
  }
  if (mark) lines.push(`    legend_origin[${label("changed")}]:::origin`, `    legend_invalidated[${label("invalidated")}]:::invalidated`);
  lines.push("  end", "  classDef unit fill:" + NODE_STYLES.unit.fill + ",stroke:" + NODE_STYLES.unit.stroke);
  lines.push(`  classDef input fill:${NODE_STYLES.input.fill},stroke:${NODE_STYLES.input.stroke}`);
  lines.push(`  classDef origin fill:${NODE_STYLES.origin.fill},stroke:${NODE_STYLES.origin.stroke},stroke-width:2px`);
  lines.push(`  classDef invalidated fill:${NODE_STYLES.invalidated.fill},stroke:${NODE_STYLES.invalidated.stroke},stroke-width:2px`);
  lines.push(`  classDef legendKey fill:none,stroke:none`);
  lines.push(`  class ${EDGE_KINDS.flatMap((k) => [`legend_${k}_a`, `legend_${k}_b`]).join(",")} legendKey`);
  const classes: Record<string, string[]> = { unit: [], input: [], origin: [], invalidated: [] };
  const classify = (id: string, type: "unit" | "input") =>
    classes[mark?.invalidated.has(id) ? "invalidated" : mark?.origins.has(id) ? "origin" : type]!.push(idOf(id));
  for (const input of plan.inputs) classify(input.name, "input");
  for (const unit of plan.units) classify(unit.id, "unit");
  for (const [cls, members] of Object.entries(classes)) if (members.length > 0) lines.push(`  class ${members.join(",")} ${cls}`);
  // one style line per edge: pushed one by one, as spreading 200,000 arguments overflows the stack
  for (const style of linkStyles) lines.push(style);
  return lines.join("\n") + "\n";
}
