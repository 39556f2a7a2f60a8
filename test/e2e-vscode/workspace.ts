/**
 * The workspace the end-to-end test opens: the project's example contracts
 * (specs/*.task.yaml, so the server has a real workspace to scan) plus the
 * broken fixture contract the test repairs by typing.
 */
import { copyFileSync, mkdirSync, readdirSync } from "node:fs";
import { join } from "node:path";

const REPO = join(import.meta.dirname, "..", "..");
export const BROKEN_CONTRACT = "newsletter.task.yaml";

export function prepareWorkspace(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const specs = join(REPO, "specs");
  for (const name of readdirSync(specs)) {
    if (name.endsWith(".task.yaml")) copyFileSync(join(specs, name), join(dir, name));
  }
  copyFileSync(join(import.meta.dirname, "fixtures", BROKEN_CONTRACT), join(dir, BROKEN_CONTRACT));
}
