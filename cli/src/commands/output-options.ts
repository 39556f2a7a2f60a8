/** The options every command that prints a document or diagnostics shares, spelled once: `-o/--output` and `--color`. */
import { Option } from "commander";
import { COLOR_CHOICES } from "../render/diagnostics.js";

export function outputOption(what: string): Option {
  return new Option("-o, --output <file>", `write ${what} to this file instead of stdout`);
}

export function colorOption(): Option {
  return new Option("--color <when>", "colour diagnostics: auto (terminal, FORCE_COLOR, NO_COLOR), always or never")
    .choices(COLOR_CHOICES)
    .default("auto");
}
