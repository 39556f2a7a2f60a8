/**
 * The glob patterns of taskspec.config.yaml (`ignore`, `overrides.files`) and
 * of `taskspec check 'specs/**\/*.task.yaml'`: `**` is any number of folders,
 * `*` any characters but `/`, `?` one such character, `{a,b}` either
 * alternative; everything else is literal. Paths use `/`. In the
 * configuration a pattern matches a path when it matches the whole path or one
 * of its folders, so `legacy` and `legacy/**` both cover everything under
 * legacy/; on the command line it must match the whole path. Written here rather than
 * taken from a package so the rule is this paragraph and nothing more.
 */

/** Compiles a pattern; the function tells whether a `/`-separated path matches (`folders`: or one of its folders does). */
export function globMatcher(pattern: string, options: { folders: boolean } = { folders: true }): (path: string) => boolean {
  const re = new RegExp(`^${toRegex(pattern.replace(/^\.\//, "").replace(/\/+$/, ""))}$`);
  return (path) => {
    if (re.test(path)) return true;
    if (!options.folders) return false;
    for (let i = path.indexOf("/"); i !== -1; i = path.indexOf("/", i + 1)) if (re.test(path.slice(0, i))) return true;
    return false;
  };
}

/** True when the pattern has a glob character (so the CLI expands it instead of reading it as a file name). */
export function isGlob(pattern: string): boolean {
  return /[*?{]/.test(pattern);
}

/** The folder part of a pattern before its first glob character: where an expansion starts walking. */
export function globBase(pattern: string): string {
  const first = pattern.search(/[*?{]/);
  if (first === -1) return pattern;
  const slash = pattern.lastIndexOf("/", first);
  return slash === -1 ? "." : pattern.slice(0, slash) || "/";
}

function toRegex(pattern: string): string {
  let out = "";
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === "*" && pattern[i + 1] === "*") {
      const slash = pattern[i + 2] === "/";
      // `**/` is zero or more folders; a trailing `**` is anything below
      out += slash ? "(?:[^/]*/)*" : ".*";
      i += slash ? 2 : 1;
    } else if (c === "*") out += "[^/]*";
    else if (c === "?") out += "[^/]";
    else if (c === "{") {
      const close = pattern.indexOf("}", i);
      if (close === -1) out += "\\{";
      else {
        out += `(?:${pattern
          .slice(i + 1, close)
          .split(",")
          .map(toRegex)
          .join("|")})`;
        i = close;
      }
    } else out += c.replace(/[.+^$()|[\]\\]/g, "\\$&");
  }
  return out;
}
