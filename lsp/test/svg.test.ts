/**
 * The Graphviz worker (adapters/svg.ts): it lays a graph out, a layout over
 * its budget is stopped and answered as such, and the next request starts a
 * new worker that answers again.
 */
import { afterAll, describe, expect, it } from "vitest";
import { svgRenderer } from "../src/adapters/svg.js";

const renderer = svgRenderer();
afterAll(() => renderer.close());

/** A layered graph Graphviz takes a while over: `n` layers of `w` nodes, each wired to every node of the next layer. */
function dense(n: number, w: number): string {
  const edges: string[] = [];
  for (let l = 0; l + 1 < n; l++) for (let a = 0; a < w; a++) for (let b = 0; b < w; b++) edges.push(`  n${l}_${a} -> n${l + 1}_${b};`);
  return `digraph g {\n${edges.join("\n")}\n}\n`;
}

describe("svgRenderer", () => {
  it("lays out a graph in its worker", async () => {
    const outcome = await renderer.render("digraph g { a -> b; }", 60_000);
    expect("svg" in outcome && outcome.svg).toContain("</svg>");
  }, 90_000);

  it("stops a layout over its budget, says so, and answers the next request from a new worker", async () => {
    const started = performance.now();
    const outcome = await renderer.render(dense(40, 30), 200);
    expect(outcome).toEqual({ unavailable: "the layout took longer than its budget of 200 ms" });
    // answered at the budget, not when the layout would have ended
    expect(performance.now() - started).toBeLessThan(5000);
    const next = await renderer.render("digraph g { c -> d; }", 60_000);
    expect("svg" in next && next.svg).toContain("</svg>");
  }, 90_000);

  it("answers a graph Graphviz refuses with its message", async () => {
    const outcome = await renderer.render("digraph g { a -> ", 60_000);
    expect(outcome).toMatchObject({ unavailable: expect.stringMatching(/^Graphviz failed: /) as unknown });
  }, 90_000);
});
