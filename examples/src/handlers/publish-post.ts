/**
 * Handlers for specs/publish-post.task.yaml (seed 000): research, write,
 * build, publish, check-live. Deterministic: the "model" work is text put
 * together from the brief and the pages read, so a re-run writes the same
 * bytes. The only effect on the world is `create_post` on the local blog
 * (TASKSPEC_BLOG_URL), keyed by the ledger so a resume never posts twice.
 */
import type { HandlerModule, UnitContext } from "@taskspec/runtime";
import type { Post } from "../remote/blog.js";
import { blogTools, type PostReceipt } from "./blog-tools.js";
import { callRemote } from "./remote-client.js";
import { withInvocationLog } from "./invocation-log.js";
import { webPages, workspaceTools, type Page } from "./workspace-tools.js";

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
  const found = await ctx.tool<{ posts: PostReceipt[] } | null>("find_post", { key: published.key });
  const receipt = { key: published.key, checked_post: published.post_id, posts: found?.posts ?? [] };
  await ctx.write("publication-receipt", receipt);
  return receipt;
}

/** A static site build: markdown to HTML, failing on links to anchors that do not exist. */
function renderSite(markdown: string): { exit_code: number; broken_links: string[]; html: string } {
  const anchors = new Set([...markdown.matchAll(/<a id="([^"]+)"><\/a>/g)].map((match) => match[1]));
  const broken = [...markdown.matchAll(LINK)]
    .map((match) => match[1] ?? "")
    .filter((href) => href.startsWith("#") && !anchors.has(href.slice(1)));
  const html = markdown
    .split("\n")
    .map((line) =>
      line
        .replace(/^# (.*)$/, "<h1>$1</h1>")
        .replace(/^## (.*)$/, "<h2>$1</h2>")
        .replace(/\[([^\]]+)\]\(([^)]+)\)/g, '<a href="$2">$1</a>'),
    )
    .join("\n");
  return { exit_code: broken.length === 0 ? 0 : 1, broken_links: broken, html };
}

const handlers: HandlerModule = {
  units: withInvocationLog({ research, write, build, publish, "check-live": checkLive }),
  tools: {
    ...blogTools,
    search_web: workspaceTools.search_web!,
    fetch_page: workspaceTools.fetch_page!,
    write_file: workspaceTools.write_file!,
    run_build: {
      async call(args) {
        return renderSite(String(args.markdown));
      },
    },
  },
  // The two external inputs, re-read on every resume: evidence from a web or a
  // blog that changed since is dropped, never reused.
  inputs: {
    web: () => ({ pages: webPages().map(({ id, sha256 }) => ({ id, sha256 })) }),
    blog: async () => {
      const posts = (await callRemote<Post[]>("blog", { method: "GET", path: "/posts" })) ?? [];
      return { posts: posts.map((post) => ({ id: post.id, key: post.key, status: post.status })) };
    },
  },
};

export default handlers;
