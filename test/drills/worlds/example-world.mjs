// The drill world of the example contracts: the local remote services the
// example handlers talk to (each its own process with its own storage in the
// case's directory), the page corpus they read and the workspace they write.
// What it reports is asked from the services themselves (GET /posts,
// /bookings, /messages, /stats) and from the files on disk, never from the
// runtime's store. `taskspec drill --world <one of the modules here>` loads
// the same module the test suite uses.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { spawnService } from "../../../examples/dist/remote/spawn.js";
import { writeCorpus } from "../../../examples/dist/handlers/corpus.js";

const URL_ENV = { blog: "TASKSPEC_BLOG_URL", booking: "TASKSPEC_BOOKING_URL", mail: "TASKSPEC_MAIL_URL" };

async function get(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return res.json();
}

const sortBy = (xs, key) => [...xs].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));

/** Each working-copy file name with the distinct contents written under it (attempt-keyed copies of equal bytes count once). */
function workspaceState(dir) {
  const out = {};
  if (!existsSync(dir)) return out;
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isDirectory()) continue;
    const file = join(e.parentPath ?? e.path, e.name);
    const hash = createHash("sha256").update(readFileSync(file)).digest("hex").slice(0, 16);
    (out[e.name] ??= new Set()).add(hash);
  }
  return Object.fromEntries(
    Object.keys(out)
      .sort()
      .map((k) => [k, [...out[k]].sort()]),
  );
}

/** What each service holds, as world state and as effects per identity (counted at the remote). */
const VIEWS = {
  async blog(url, effects) {
    const posts = await get(`${url}/posts`);
    for (const p of posts) effects[`blog post under key ${p.key}`] = (effects[`blog post under key ${p.key}`] ?? 0) + 1;
    return sortBy(
      posts.map((p) => ({ key: p.key, title: p.title, slug: p.slug, status: p.status })),
      (p) => `${p.key}`,
    );
  },
  async booking(url, effects) {
    const bookings = await get(`${url}/bookings`);
    for (const b of bookings) effects[`${b.kind} booking under key ${b.key}`] = (effects[`${b.kind} booking under key ${b.key}`] ?? 0) + 1;
    return sortBy(
      bookings.map((b) => ({ key: b.key, kind: b.kind, item: b.item, status: b.status })),
      (b) => `${b.key}`,
    );
  },
  async mail(url, effects) {
    const messages = await get(`${url}/messages`);
    for (const m of messages) effects[`mail to ${m.to}: ${m.subject}`] = (effects[`mail to ${m.to}: ${m.subject}`] ?? 0) + 1;
    return sortBy(
      messages.map((m) => ({ to: m.to, subject: m.subject })),
      (m) => `${m.to} ${m.subject}`,
    );
  },
};

/** A drill world with the given services (names from examples/src/remote). */
export function exampleWorld(services) {
  return {
    async start(dir) {
      const pages = join(dir, "pages");
      const workspace = join(dir, "workspace");
      writeCorpus(pages);
      const running = [];
      try {
        for (const name of services) running.push(await spawnService(name, { dataDir: join(dir, name) }));
      } catch (err) {
        await Promise.all(running.map((s) => s.stop()));
        throw err;
      }
      const env = { TASKSPEC_PAGES_DIR: pages, TASKSPEC_WORKSPACE_DIR: workspace };
      for (const s of running) env[URL_ENV[s.name]] = s.url;
      return {
        env,
        services: Object.fromEntries(running.map((s) => [s.name, s.url])),
        async observe() {
          const effects = {};
          const state = { workspace: workspaceState(workspace) };
          let fencingRefused = 0;
          for (const s of running) {
            state[s.name] = await VIEWS[s.name](s.url, effects);
            fencingRefused += (await get(`${s.url}/stats`)).counters.fencingRefused ?? 0;
          }
          return { effects, state, fencingRefused };
        },
        async stop() {
          await Promise.all(running.map((s) => s.stop()));
        },
      };
    },
  };
}
