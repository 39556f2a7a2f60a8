/**
 * A stale volatile input is re-read: `price` committed at rate 1.10 and the
 * worker died before hearing of it; the rate moves to 1.20 before the
 * resume. Recovery re-reads the input, drops the evidence taken at the old
 * rate (price superseded and re-run) and publishes one quote at 1.20 — the
 * same world as an uninterrupted run at 1.20.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { drill } from "@taskspec/runtime";
import { compileText, eventsOf, extraCase, joinDrives, ROOT } from "../support.js";
import { caseOf, drive, manual, type ExtraContext } from "./context.js";

const CONTRACT = join(ROOT, "test/drills/fixtures/quote.task.yaml");
const HANDLERS = join(ROOT, "test/drills/fixtures/quote-handlers.mjs");

/** The quote's world: a rate file the input reader reads, an outbox the tool writes. */
function quoteWorld(initialRate: string): drill.DrillWorld {
  return {
    async start(dir) {
      mkdirSync(dir, { recursive: true });
      const rate = join(dir, "rate");
      const outbox = join(dir, "outbox");
      writeFileSync(rate, initialRate);
      return {
        env: { DRILL_RATE_FILE: rate, DRILL_OUTBOX: outbox },
        async observe() {
          const files = (() => {
            try {
              return readdirSync(outbox).sort();
            } catch {
              return [];
            }
          })();
          return {
            effects: Object.fromEntries(files.map((f) => [`quote ${f}`, 1])),
            state: Object.fromEntries(files.map((f) => [f, readFileSync(join(outbox, f), "utf8")])),
          };
        },
        stop: async () => {},
      };
    },
  };
}

export async function staleVolatileInput(x: ExtraContext): Promise<drill.CaseResult> {
  const plan = compileText(readFileSync(CONTRACT, "utf8"), "quote fixture");
  const setup = (rate: string): drill.DrillSetup => ({
    contract: CONTRACT,
    plan,
    handlers: HANDLERS,
    world: quoteWorld(rate),
    run: "quote",
  });
  const baseline = await drill.runBaseline(setup("1.20"), "complete");
  const arm: drill.CrashArm = { point: "after-commit-before-ack", unit: "price" };
  const c = caseOf(
    "quote/stale-volatile-input/price",
    "quote",
    "none",
    ["price"],
    "staleness: price committed at rate 1.10, the rate moves to 1.20 before the resume; the input is re-read, the old evidence dropped, one quote at 1.20",
    "input changed before the resume",
    [arm],
  );
  return extraCase(x, setup("1.10"), c, baseline, async (sb, world) => {
    const crashed = await drive(sb, { crashes: [arm], scenario: "complete", untilFired: true });
    writeFileSync(world.env.DRILL_RATE_FILE!, "1.20");
    const rest = await drive(sb, { crashes: [], scenario: "complete" });
    const events = await eventsOf(sb);
    return {
      driven: joinDrives(crashed, manual([{ action: "input", note: "rate 1.10 -> 1.20" }], ""), rest),
      checks: [
        [
          "recovery dropped the evidence read at the old rate",
          events.some((e) => e.type === "stale-evidence-dropped" && (e.data as { input?: string }).input === "rate"),
        ],
      ],
    };
  });
}
