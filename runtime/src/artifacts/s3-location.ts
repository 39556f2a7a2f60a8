/**
 * `s3://` artifact locations, parsed without loading the S3 client: a bad
 * one is refused before anything is opened or recorded.
 */
/** `s3://bucket[/prefix][?endpoint=http://host:port][&region=name]`, parsed. */
export interface S3Location {
  bucket: string;
  prefix: string;
  endpoint?: string;
  region?: string;
}

/** The URL's parts, or a message saying what is wrong with it. */
export function parseS3Location(url: string): S3Location | string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `${JSON.stringify(url)} is not a URL: write s3://bucket/prefix?endpoint=http://host:port`;
  }
  if (u.protocol !== "s3:") return `${JSON.stringify(url)} is not an s3:// URL`;
  if (u.username || u.password)
    return "an s3:// location holds no credentials (the run records it): give them as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY";
  const bucket = u.hostname;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) return `${JSON.stringify(bucket)} is not an S3 bucket name (3-63 of a-z 0-9 . -)`;
  const prefix = u.pathname.replace(/^\/+|\/+$/g, "");
  if (prefix.split("/").some((s) => s === "." || s === ".." || (prefix !== "" && s === "")))
    return `the prefix ${JSON.stringify(prefix)} must be plain path segments`;
  const unknown = [...u.searchParams.keys()].filter((k) => k !== "endpoint" && k !== "region");
  if (unknown.length) return `unknown s3:// parameter ${unknown.join(", ")} (known: endpoint, region)`;
  const endpoint = u.searchParams.get("endpoint") ?? undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/]+\/?$/.test(endpoint))
    return `endpoint ${JSON.stringify(endpoint)} must be http(s)://host[:port]`;
  const region = u.searchParams.get("region") ?? undefined;
  return { bucket, prefix, ...(endpoint ? { endpoint } : {}), ...(region ? { region } : {}) };
}
