/**
 * The file probe for a document (C013): a `file:` document's references are
 * resolved against its folder on disk; an unsaved (`untitled:`) buffer has no
 * folder, so its references are not checked.
 */
import type { FileProbe } from "@taskspec/compiler";
import { filesBeside } from "@taskspec/compiler/node";
import { uriToPath } from "./workspace.js";

export function filesOf(uri: string): FileProbe | undefined {
  return uri.startsWith("file:") ? filesBeside(uriToPath(uri)) : undefined;
}
