/**
 * The demo's output: numbered steps, indented detail, and checks that are
 * remembered so the demo exits non-zero if any figure is wrong.
 */
export class Report {
  private step = 0;
  readonly failures: string[] = [];

  section(title: string): void {
    process.stdout.write(`\n${"=".repeat(72)}\n${title}\n${"=".repeat(72)}\n`);
  }

  begin(title: string): void {
    this.step += 1;
    process.stdout.write(`\n[${this.step}] ${title}\n`);
  }

  say(text: string): void {
    for (const line of text.replace(/\s+$/, "").split("\n")) process.stdout.write(`    ${line}\n`);
  }

  /** Records a check; prints `ok` or `WRONG` with expected and actual. */
  check(what: string, actual: unknown, expected: unknown): boolean {
    const ok = JSON.stringify(actual) === JSON.stringify(expected);
    process.stdout.write(
      `    ${ok ? "ok   " : "WRONG"} ${what}: ${JSON.stringify(actual)}${ok ? "" : ` (expected ${JSON.stringify(expected)})`}\n`,
    );
    if (!ok) this.failures.push(`${what}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
    return ok;
  }
}
