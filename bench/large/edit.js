/**
 * The next version of a generated flow contract of `units` units: one
 * snapshot input's version bumped and one unit in the middle given another
 * verifier, both changes a user makes (bench/large/run.js, in-process.js).
 */
export function editOf(text, units) {
  const middle = `  u${Math.floor(units / 2)}: {`;
  const at = text.indexOf(`\n${middle}`);
  const end = text.indexOf("\n", at + 1);
  const line = text.slice(at + 1, end).replace(/verify: \[[^\]]*\]/, "verify: [ev, claims, tone]");
  const edited = `${text.slice(0, at + 1)}${line}${text.slice(end)}`;
  const input = "  in3: { kind: snapshot, version: v3 }";
  if (at < 0 || !edited.includes(input)) throw new Error("the generated contract changed: update editOf");
  return edited.replace(input, "  in3: { kind: snapshot, version: v3.1 }");
}
