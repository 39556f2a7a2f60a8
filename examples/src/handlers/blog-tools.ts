/**
 * Tool adapters for the local blog: `create_post` (dedup: the ledger's key
 * goes in `Idempotency-Key`) and `find_post`, its lookup by key. The lookup
 * answers exactly the receipt `create_post` would have, or null when nothing
 * exists: the ledger adopts it after an UNKNOWN outcome, and the re-run of
 * `publish` gets it as its receipt, so it must be the same (one receipt).
 */
import type { ToolAdapter } from "@taskspec/runtime";
import type { Post } from "../remote/blog.js";
import { callRemote } from "./remote-client.js";

export interface PostReceipt {
  post_id: string;
  url: string;
  title: string;
  status: Post["status"];
  key: string | null;
}

function receipt(post: Post): PostReceipt {
  return { post_id: post.id, url: post.url, title: post.title, status: post.status, key: post.key };
}

export const blogTools: Record<string, ToolAdapter> = {
  create_post: {
    async call(args, meta) {
      const post = await callRemote<Post>("blog", { method: "POST", path: "/posts", body: args, meta });
      return receipt(post as Post);
    },
  },
  find_post: {
    async call(args, meta) {
      const key = String(args.key);
      const post = await callRemote<Post>("blog", {
        method: "GET",
        path: `/posts?key=${encodeURIComponent(key)}`,
        meta: { signal: meta.signal },
        absentIsNull: true,
      });
      return post ? receipt(post) : null;
    },
  },
};
