/**
 * `taskspec resume <run> [--store URL] [--handlers m] [--tools m] [--verifiers m] [--contract f]`: the
 * resume algorithm of runtime.md in a fresh process. The contract is compiled
 * again from where the run recorded it, so an edited contract becomes a plan
 * change (impact engine, superseded units, one plan-change checkpoint).
 * `--contract`/`--handlers` make the given file the run's own from then on
 * (a recorded decision): the next plain `resume` does not go back.
 */
import { Option, type Command } from "commander";
import { engineCore, importedRunRefusal, recordToolsModule, recordVerifierModule } from "@taskspec/runtime";
import { UserError } from "../user-error.js";
import { concurrencyOption, leaseTtlOption, storeOutageOption, type IsolationOptions, addRunConfigOptions } from "./worker-options.js";
import { driveAndPrint } from "./run.js";
import { adoptRunFiles, runFiles } from "./run-origin.js";
import { startWithCodeChanges } from "./code-changes.js";
import { auditRun } from "./status.js";
import {
  ArtifactBackends,
  loadRunCode,
  modelAdapter,
  recordIsolation,
  loadPlanToRun,
  loadVerifiers,
  OPERATOR_KEY_HELP,
  operatorActing,
  parseCount,
  parseDuration,
  STORE_HELP,
  VERIFIERS_HELP,
  withStore,
} from "./run-support.js";
import { storeClockOf, storeNow } from "./store-clock.js";
import { configureHeartbeat } from "./worker-heartbeat.js";

interface ResumeOptions extends IsolationOptions {
  store?: string;
  handlers?: string;
  verifiers?: string;
  contract?: string;
  operatorKeyFile?: string;
  concurrency: string;
  leaseTtl: string;
  storeOutage: string;
  format: "text" | "json";
}

export function register(program: Command): void {
  addRunConfigOptions(
    program
      .command("resume")
      .description("Resume a run: verify, reconcile effects (lookups first), apply contract changes, continue.")
      .argument("<run>", "run id")
      .option("--store <url>", STORE_HELP)
      .option("--handlers <module>", "handler module (default: the one the run was started with)")
      .option("--verifiers <module>", `${VERIFIERS_HELP} (default: the one the run was started with)`)
      .option("--contract <file>", "contract (default: the one the run was started with, re-read now)")
      .option(
        "--operator-key-file <path>",
        `${OPERATOR_KEY_HELP}; needed for a changed contract or module once the store has operator identities`,
      )
      .addOption(concurrencyOption())
      .addOption(leaseTtlOption())
      .addOption(storeOutageOption()),
  )
    .addOption(new Option("--format <format>", "outcome format").choices(["text", "json"]).default("text"))
    .action(async (run: string, o: ResumeOptions) => {
      const concurrency = parseCount(o.concurrency, "--concurrency");
      // checked before the store is touched (resume records the run's files and modules before it drives)
      const leaseTtlMs = parseDuration(o.leaseTtl, "--lease-ttl");
      configureHeartbeat(o);
      parseDuration(o.storeOutage, "--store-outage");
      const acting = operatorActing(o); // before any handler loads: the key file's name leaves the environment
      const backends = new ArtifactBackends(o.store);
      let servers = async (): Promise<void> => undefined;
      try {
        process.exitCode = await withStore(o.store, async (store) => {
          const r = await store.getRun(run);
          if (!r)
            throw new UserError(
              `no run ${run} in this store (a \`taskspec run --run ${run}\` that died before recording it is started again by the same command)`,
              2,
            );
          const imported = importedRunRefusal(r);
          if (imported) throw new UserError(`${imported}; nothing was run`, 1);
          const audit = await auditRun(store, run);
          if (!audit.verified)
            throw new UserError(
              `run ${run} does not match its checkpoint chain; nothing was run (restore the store from a backup): ${audit.problems.join("; ")}`,
              1,
            );
          const files = runFiles(r, o);
          const { contract, handlers: handlersPath } = files;
          const plan = loadPlanToRun(contract);
          const { handlers, code, tools, runner, handlerImport, close } = await loadRunCode(plan, o, {
            contract,
            handlers: handlersPath,
            tools: files.tools,
          });
          servers = close;
          const verifiers = await loadVerifiers(plan, files.verifiers, handlersPath);
          const model = modelAdapter(o);
          await adoptRunFiles(store, run, files, acting);
          await recordToolsModule(store, run, tools, await storeNow(store));
          await recordVerifierModule(store, run, verifiers, await storeNow(store));
          await startWithCodeChanges(store, run, plan, handlers, code);
          const core = engineCore({
            clock: await storeClockOf(store),
            store,
            plan,
            handlers,
            ...(code ? { code } : {}),
            ...(verifiers ? { verifiers } : {}),
            run,
            artifacts: await backends.get(r.origin.artifactRoot),
            contractFile: contract,
            leaseTtlMs,
            ...(runner ? { runner } : {}),
            ...(model ? { model } : {}),
          });
          if (core.planVersion !== r.planVersion)
            process.stderr.write(
              `taskspec: the contract changed (plan ${r.planVersion} -> ${core.planVersion}); computing what it invalidates\n`,
            );
          await recordIsolation(store, run, runner, handlerImport);
          // a plain resume compiles the recorded contract: it changes the plan only from the version read with it
          const planVersionRead = o.contract ? {} : { planVersionRead: r.planVersion };
          return driveAndPrint("resume", store, run, core, { concurrency, ...planVersionRead }, o);
        });
      } finally {
        await servers();
        await backends.close();
      }
    });
}
