/**
 * What the drill suite shares: where the example contracts, handlers and
 * worlds are, a drill setup per example, and the frame of an extra
 * (concurrency/staleness) case — a custom sequence of real processes, then
 * the same observation and verdict as a matrix case, plus the case's own
 * checks.
 */
import { cpSync, existsSync, readFileSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { compile, type Plan } from "@taskspec/compiler";
import { drill, type RunEvent } from "@taskspec/runtime";
import { forgetStarts, seededSandbox, type ExtraContext } from "./extra/context.js";

export const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const EXAMPLES = ["publish-post", "trip-booking", "market-entry-pack"] as const;
export type Example = (typeof EXAMPLES)[number];

export const contractOf = (name: string) => join(ROOT, "specs", `${name}.task.yaml`);
export const handlersOf = (name: string) => join(ROOT, "examples/dist/handlers", `${name}.js`);
/** The example's verifier module (its model/human verifiers), when it has one. */
export const verifiersOf = (name: string): string | undefined => {
  const file = join(ROOT, "examples/dist/verifiers", `${name}.js`);
  return existsSync(file) ? file : undefined;
};

export function compileText(text: string, what = "contract"): Plan {
  const { plan, diagnostics } = compile(text);
  if (!plan) throw new Error(`${what} does not compile: ${diagnostics.map((d) => `${d.code} ${d.message}`).join("; ")}`);
  return plan;
}

export async function exampleSetup(name: Example): Promise<drill.DrillSetup & { plan: Plan }> {
  const world = ((await import(join(ROOT, "test/drills/worlds", `${name}.mjs`))) as { default: drill.DrillWorld }).default;
  const verifiers = verifiersOf(name);
  return {
    contract: contractOf(name),
    plan: compileText(readFileSync(contractOf(name), "utf8"), name),
    handlers: handlersOf(name),
    ...(verifiers ? { verifiers } : {}),
    world,
  };
}

/**
 * What the extra cases need: each example's setup and the uninterrupted
 * baselines of `examples` (the complete run, and trip-booking's cancel run),
 * `parallel` at a time.
 */
export async function exampleContext(parallel: number, examples: readonly Example[] = EXAMPLES): Promise<ExtraContext> {
  const setups = Object.fromEntries(await Promise.all(EXAMPLES.map(async (n) => [n, await exampleSetup(n)] as const))) as Record<
    Example,
    drill.DrillSetup & { plan: Plan }
  >;
  const wanted: Array<[Example, drill.Scenario]> = examples.flatMap((n) => [
    [n, "complete"] as [Example, drill.Scenario],
    ...(n === "trip-booking" ? [[n, "cancel"] as [Example, drill.Scenario]] : []),
  ]);
  const list = await drill.pool(wanted, parallel, ([n, s]) => drill.runBaseline(setups[n], s));
  const baselines = {} as ExtraContext["baselines"];
  wanted.forEach(([n, s], i) => {
    baselines[n] ??= { complete: undefined as unknown as drill.Baseline };
    baselines[n][s] = list[i]!;
  });
  return { setups, baselines };
}

/** Writes a variant of a contract beside the original's schemas (edits are plain text replacements that must apply). */
export function contractVariant(
  sb: drill.Sandbox,
  name: string,
  edits: Array<[string, string]>,
): { contract: string; plan: string; compiled: Plan } {
  let text = readFileSync(contractOf(name), "utf8");
  for (const [from, to] of edits) {
    if (!text.includes(from)) throw new Error(`contract ${name} has no ${JSON.stringify(from)} to edit`);
    text = text.replace(from, to);
  }
  // In the sandbox, with a copy of the schemas, so `schema:` paths resolve as they do beside the original.
  const dir = join(sb.dir, "variant");
  cpSync(join(ROOT, "specs", "schemas"), join(dir, "schemas"), { recursive: true });
  const contract = join(dir, `${name}.task.yaml`);
  writeFileSync(contract, text);
  const compiled = compileText(text, `${name} variant`);
  const plan = join(sb.dir, "plan-variant.json");
  writeFileSync(plan, JSON.stringify(compiled));
  return { contract, plan, compiled };
}

/** A check of an extra case: a description and whether it held. */
export type Check = [string, boolean];

export interface ExtraBody {
  driven: drill.DriveResult;
  checks: Check[];
  /** Replace the world comparison (e.g. delivered files on disk when there is no remote). */
  world?: { observed: drill.WorldObservation; expected: drill.WorldObservation };
  /** Replace the artifact comparison: another run's artifacts to match, or why they are not compared (the case changes them on purpose). */
  artifacts?: { expected: drill.FinalArtifacts } | { notCompared: string };
}

/** The final artifacts of a sandbox's run (per unit, name and sha256). */
export async function artifactsOf(sb: drill.Sandbox): Promise<drill.FinalArtifacts> {
  return drill.withStore(sb, async (store) => drill.finalArtifacts(await store.getRecords(sb.run), await store.listArtifacts(sb.run)));
}

/**
 * Runs an extra case in a fresh sandbox and world, under the context's
 * timing seed (`x.seed`, see ExtraContext): `body` drives its real
 * processes; the result is judged like a matrix case, and every failed check
 * is one more reason.
 */
export async function extraCase(
  x: Pick<ExtraContext, "seed">,
  setup: drill.DrillSetup,
  c: drill.DrillCase,
  baseline: drill.Baseline,
  body: (sb: drill.Sandbox, world: drill.RunningWorld) => Promise<ExtraBody>,
): Promise<drill.CaseResult> {
  const t0 = Date.now();
  try {
    return await drill.inSandbox(setup, async (plain, world) => {
      const sb = seededSandbox(plain, x.seed);
      const out = await body(sb, world).finally(() => forgetStarts(sb));
      const view: drill.RunningWorld = out.world ? { ...world, observe: async () => out.world!.observed } : world;
      const base = {
        ...baseline,
        ...(out.world ? { world: out.world.expected } : {}),
        ...(out.artifacts && "expected" in out.artifacts ? { artifacts: out.artifacts.expected } : {}),
        ...(out.artifacts && "notCompared" in out.artifacts ? { artifactsNotCompared: out.artifacts.notCompared } : {}),
      };
      const r = await drill.concludeCase(c, sb, view, out.driven, base, t0);
      const failed = out.checks.filter(([, ok]) => !ok).map(([what]) => `check failed: ${what}`);
      return failed.length ? { ...r, verdict: "FAIL" as const, reasons: [...r.reasons, ...failed] } : r;
    });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return {
      case: c,
      verdict: "FAIL",
      reasons: [`drill error: ${message}`],
      ms: Date.now() - t0,
      observation: {
        steps: [],
        fired: [],
        finalStatus: "error",
        invocations: {},
        reruns: [],
        rerunCommitted: [],
        duplicateEffects: 0,
        duplicates: [],
        worldMatches: false,
        artifactsMatch: false,
        artifactDiffs: [],
        fencingRefused: 0,
        orphansReported: 0,
        orphansAdopted: [],
        unexplained: [],
        error: message,
      },
    };
  }
}

/** Merges the step lists of several drives into one (for cases made of several phases). */
export function joinDrives(...parts: drill.DriveResult[]): drill.DriveResult {
  return {
    steps: parts.flatMap((p) => p.steps),
    fired: parts.flatMap((p) => p.fired),
    unfired: parts.flatMap((p) => p.unfired),
    finalStatus: parts[parts.length - 1]!.finalStatus,
  };
}

export async function eventsOf(sb: drill.Sandbox) {
  return drill.withStore(sb, (store) => store.listEvents(sb.run));
}

/**
 * Resolves once the run's event log has an event matching `want` (re-checked
 * whenever the store's files change, no timer), or once `unless` settles
 * (the process that should write it has ended).
 */
export function waitForEvent(sb: drill.Sandbox, want: (e: RunEvent) => boolean, unless?: Promise<unknown>): Promise<void> {
  return new Promise((resolve, reject) => {
    void unless?.finally(() => {
      watcher.close();
      resolve();
    });
    let checking = false;
    let again = false;
    const check = async () => {
      if (checking) return void (again = true);
      checking = true;
      try {
        if ((await eventsOf(sb)).some(want)) {
          watcher.close();
          return resolve();
        }
      } catch (err) {
        watcher.close();
        return reject(err);
      } finally {
        checking = false;
      }
      if (again) {
        again = false;
        void check();
      }
    };
    const watcher = watch(sb.dir, (_e, name) => {
      if (name?.startsWith("store.db")) void check();
    });
    void check();
  });
}
