/**
 * A local blog: posts are created with an `Idempotency-Key` (the same key
 * returns the same post, never a second one) and found again by that key —
 * the lookup a runtime uses to settle an UNKNOWN publish after a crash.
 * Without a key every POST creates a new post, like many real APIs; that is
 * how a naive retry publishes twice.
 *
 *   POST /posts            { title, body, slug? }  headers Idempotency-Key, X-Fencing-Token
 *   GET  /posts?key=K      the post created under K, 404 when none; with X-Fencing-Token it
 *                          raises K's fence: a later write under K with an older token is refused
 *   GET  /posts            every post
 *   GET  /posts/:id        one post
 *   GET  /stats            creations, duplicatesRefused, lookups, callsPerKey, ...
 */
import path from "node:path";
import { RecordDir } from "./durable-file.js";
import { header, json, requireString } from "./http-kit.js";
import { isMain, runAsProcess, startService, type RunningService, type ServiceOptions } from "./service.js";

export interface Post {
  id: string;
  key: string | null;
  title: string;
  slug: string;
  body: string;
  url: string;
  /** Every post goes live when created; the field is what a verifier reads. */
  status: "live";
  createdAt: string;
}

export function startBlog(options: ServiceOptions): Promise<RunningService> {
  return startService(
    {
      name: "blog",
      fenceResource: (req) => header(req, "Idempotency-Key") ?? "posts",
      lookupResource: (req) => (req.path === "/posts" ? (req.query.get("key") ?? undefined) : undefined),
      routes: (state) => {
        const posts = new RecordDir<Post>(path.join(options.dataDir, "posts"));
        return [
          {
            method: "POST",
            pattern: "/posts",
            write: true,
            handle: (req) => {
              const key = header(req, "Idempotency-Key") ?? null;
              const existing = key === null ? undefined : posts.find((post) => post.key === key);
              if (existing) {
                state.count("duplicatesRefused");
                return json(200, existing, { "Idempotent-Replayed": "true" });
              }
              const title = requireString(req, "title");
              const body = requireString(req, "body");
              const id = `p${String(posts.size + 1).padStart(4, "0")}`;
              const slug = typeof req.body.slug === "string" && req.body.slug !== "" ? req.body.slug : id;
              const post: Post = {
                id,
                key,
                title,
                slug,
                body,
                url: `/posts/${id}/${slug}`,
                status: "live",
                createdAt: new Date().toISOString(),
              };
              posts.put(post);
              state.count("creations");
              return json(201, post);
            },
          },
          {
            method: "GET",
            pattern: "/posts",
            write: false,
            handle: (req) => {
              const key = req.query.get("key");
              if (key === null) return json(200, posts.list());
              state.count("lookups");
              const post = posts.find((candidate) => candidate.key === key);
              return post ? json(200, post) : json(404, { error: `no post under key ${key}` });
            },
          },
          {
            method: "GET",
            pattern: "/posts/:id",
            write: false,
            handle: (req) => {
              const post = posts.get(req.params.id ?? "");
              return post ? json(200, post) : json(404, { error: `no post ${req.params.id}` });
            },
          },
        ];
      },
    },
    options,
  );
}

if (isMain(import.meta.url)) void runAsProcess("blog", startBlog);
