/** What the demo asks the local blog directly: the world, not the runtime's account of it. */
import type { Post } from "../remote/blog.js";

export interface BlogStats {
  counters: Record<string, number>;
  callsPerKey: Record<string, number>;
}

async function get<T>(url: string): Promise<T> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return (await res.json()) as T;
}

export const blogPosts = (blogUrl: string) => get<Post[]>(`${blogUrl}/posts`);
export const blogStats = (blogUrl: string) => get<BlogStats>(`${blogUrl}/stats`);
