/**
 * Handlers for specs/publish-post.task.yaml (seed 000): research, write,
 * build, publish, check-live. Deterministic: the "model" work is text put
 * together from the brief and the pages read, so a re-run writes the same
 * bytes. The only effect on the world is `create_post` on the local blog
 * (TASKSPEC_BLOG_URL), keyed by the ledger so a resume never posts twice.
 * Tools and inputs are in ../tools/publish-post.ts (the worker's `--tools`).
 */
import type { HandlerModule, UnitContext } from "@taskspec/runtime";
import publishPostTools from "../tools/publish-post.js";
import type { PostReceipt } from "./blog-tools.js";
import { withInvocationLog } from "./invocation-log.js";
import type { Page } from "./workspace-tools.js";

interface ResearchNotes {
  brief: string;
  sources: Array<{ id: string; title: string; sha256: string; finding: string }>;
}

interface Draft {
  title: string;
  markdown: string;
}

const LINK = /\]\(([^)]+)\)/g;

function finding(page: Page): string {
  return /Finding: (.*)\./.exec(page.text)?.[1] ?? page.title;
}

async function research(ctx: UnitContext) {
  await ctx.charge({ model_calls: 2, tokens: 40_000 });
  const brief = String(ctx.inputs.brief);
  const hits = await ctx.tool<Array<{ id: string }>>("search_web", { query: brief });
  const pages: Page[] = [];
  for (const hit of hits.slice(0, 5)) pages.push(await ctx.tool<Page>("fetch_page", { id: hit.id }));
  const notes: ResearchNotes = {
    brief,
    sources: pages.map((page) => ({ id: page.id, title: page.title, sha256: page.sha256, finding: finding(page) })),
  };
  const text = JSON.stringify(notes, null, 2);
  await ctx.tool("write_file", { name: "research-notes.json", content: text });
  await ctx.write("research-notes", notes);
  return { sources: notes.sources.map((source) => source.id) };
}

async function write(ctx: UnitContext) {
  await ctx.charge({ model_calls: 3, tokens: 50_000 });
  const notes = await ctx.readJson<ResearchNotes>("research-notes");
  const title = "Resuming an agent task without publishing twice";
  const claims = notes.sources.map((source, i) => ({ id: `c${i + 1}`, text: source.finding, source: source.id }));
  const markdown = [
    `# ${title}`,
    "",
    `*${notes.brief}*`,
    "",
    "A resumed run is only right if the world it resumes into is right. Five findings, each from a source:",
    "",
    ...claims.map(
      (claim, i) => `${i + 1}. ${claim.text[0]?.toUpperCase()}${claim.text.slice(1)} ([${notes.sources[i]?.title}](#${claim.source})).`,
    ),
    "",
    "Reconcile before you continue; verify the world, not the answer.",
    "",
    "## Sources",
    "",
    ...notes.sources.map((source) => `- <a id="${source.id}"></a>${source.title} (sha256 ${source.sha256.slice(0, 12)})`),
    "",
  ].join("\n");
  await ctx.tool("write_file", { name: "draft.md", content: markdown });
  const draft: Draft = { title, markdown };
  await ctx.write("draft", draft);
  const cited = new Set([...markdown.matchAll(LINK)].map((match) => match[1]?.slice(1)));
  return {
    title,
    claims: claims.map((claim) => claim.id),
    uncited_claims: claims.filter((claim) => !cited.has(claim.source)).map((claim) => claim.id),
  };
}

async function build(ctx: UnitContext) {
  const draft = await ctx.readJson<Draft>("draft");
  const site = await ctx.tool<{ exit_code: number; broken_links: string[]; html: string }>("run_build", { markdown: draft.markdown });
  await ctx.write("site-build", { title: draft.title, html: site.html });
  return { exit_code: site.exit_code, broken_links: site.broken_links, bytes: site.html.length };
}

async function publish(ctx: UnitContext) {
  const site = await ctx.readJson<{ title: string; html: string }>("site-build");
  const post = await ctx.tool<PostReceipt>("create_post", {
    title: site.title,
    body: site.html,
    slug: "resuming-without-publishing-twice",
  });
  await ctx.write("post", post);
  return post;
}

async function checkLive(ctx: UnitContext) {
  const published = ctx.needs.publish?.result as PostReceipt | undefined;
  if (!published?.key) throw new Error("publish left no key to look the post up by");
  const found = await ctx.tool<PostReceipt | null>("find_post", { key: published.key });
  const receipt = { key: published.key, checked_post: published.post_id, posts: found ? [found] : [] };
  await ctx.write("publication-receipt", receipt);
  return receipt;
}

const handlers: HandlerModule = {
  units: withInvocationLog({ research, write, build, publish, "check-live": checkLive }),
  // the one-module layout (tests, `taskspec drill`); the demo passes the tools module itself (`--tools`)
  ...publishPostTools,
};

export default handlers;
