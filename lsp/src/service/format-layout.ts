/**
 * Whether text is formatted already: exactly when the printer
 * (format-relayout.ts) gives it back. Text outside the printer's subset is
 * never called formatted here, though format-yaml.ts may keep it as it is;
 * the caller then formats it with `yaml`, which costs time, never meaning.
 */
import { relaidOut } from "./format-relayout.js";

/** True only when formatting `text` with `indent` spaces per level gives back `text` itself. */
export function alreadyFormatted(text: string, indent: number): boolean {
  return relaidOut(text, indent) === text;
}
