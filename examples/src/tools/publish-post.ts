/**
 * The tools module of specs/publish-post.task.yaml (`--tools`): the tool
 * adapters and input readers, which run in the worker, apart from the unit
 * handlers (../handlers/publish-post.ts), which run in handler processes.
 */
import type { ToolsModule } from "@taskspec/runtime";
import type { Post } from "../remote/blog.js";
import { blogTools } from "../handlers/blog-tools.js";
import { callRemote } from "../handlers/remote-client.js";
import { webPages, workspaceTools } from "../handlers/workspace-tools.js";

const LINK = /\]\(([^)]+)\)/g;

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

const tools: ToolsModule = {
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

export default tools;
