/**
 * A vitest reporter beside the default one: at the end of a run it lists every
 * skipped or todo test, and under TASKSPEC_REQUIRE_ALL=1 (.ci/run) it fails
 * the run if there is any, so CI cannot go green on a suite that did not run.
 */
import type { Reporter, TestModule } from "vitest/node";

export default class SkipGuardReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const skipped: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "skipped" || state === "pending")
          skipped.push(`${module.moduleId.replace(`${process.cwd()}/`, "")} > ${test.fullName}`);
      }
    }
    if (skipped.length === 0) return;
    const requireAll = process.env["TASKSPEC_REQUIRE_ALL"] === "1";
    const lines = [
      `${skipped.length} test(s) skipped${requireAll ? ", which TASKSPEC_REQUIRE_ALL=1 does not allow" : ""}:`,
      ...skipped.map((s) => `  - ${s}`),
    ];
    console.error(`\n${lines.join("\n")}\n`);
    if (requireAll) process.exitCode = 1;
  }
}
