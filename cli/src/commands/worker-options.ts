/**
 * The options of every command that drives a run with a Worker (`run`,
 * `resume`, `worker`): defined once so their help text and defaults cannot
 * drift apart between the three. Functions, so each command gets its own
 * Option objects.
 */
import { Option, type Command } from "commander";

export const concurrencyOption = () => new Option("--concurrency <n>", "units run at once in this worker").default("1");

export const leaseTtlOption = () =>
  new Option("--lease-ttl <duration>", "how long a unit's lease lasts without renewal (takeover waits for it)").default("30s");

/** How long a store outage is ridden out (backing off, retrying) before the command gives up with the store's error. */
export const storeOutageOption = () =>
  new Option(
    "--store-outage <duration>",
    "how long the store may stay unreachable while this command backs off and retries before it exits",
  ).default("60s");

/** Where unit handlers run: a handler process per attempt (default) or this process (trusted code only). */
export const isolationOption = () =>
  new Option(
    "--isolation <mode>",
    "where unit handlers run: `process` (a locked-down handler process per attempt) or `none` (in this process: trusted code, benchmarks)",
  )
    .choices(["process", "none"])
    .env("TASKSPEC_ISOLATION")
    .default("process");

/**
 * The tools module: tool adapters, lookups, compensators and input readers,
 * imported in the worker; the handler module is then imported only in
 * handler processes (docs/runtime.md, "The tools module").
 */
export const toolsOption = () =>
  new Option(
    "--tools <module>",
    "tools module (default export: { tools, inputs? }), loaded in the worker; the handler module then runs only in handler processes (resume/worker default: the run's recorded one)",
  );

export const handlerEnvOption = () =>
  new Option("--handler-env <name>", "an environment variable the handler process gets (it gets no other); repeatable").argParser(
    (value: string, previous: string[] = []) => [...previous, value],
  );

export const handlerReadOption = () =>
  new Option(
    "--handler-read <path>",
    "a file or folder the handler process may read besides its module's folder, node_modules and its attempt directory; repeatable",
  ).argParser((value: string, previous: string[] = []) => [...previous, value]);

/**
 * The model behind `ctx.model`: an OpenAI-compatible chat-completions endpoint.
 * The key is read from TASKSPEC_MODEL_API_KEY in the worker's environment,
 * never from a flag (flags show in `ps`), and never reaches a handler process.
 */
export const modelUrlOption = () =>
  new Option(
    "--model-url <url>",
    "OpenAI-compatible endpoint for ctx.model, e.g. http://127.0.0.1:8080/v1 (key: TASKSPEC_MODEL_API_KEY)",
  ).env("TASKSPEC_MODEL_URL");

export const modelOption = () => new Option("--model <name>", "the model ctx.model asks for by default").env("TASKSPEC_MODEL");

export interface IsolationOptions {
  heartbeat: string;
  deadAfter: string;
  isolation: "process" | "none";
  tools?: string;
  handlerEnv?: string[];
  handlerRead?: string[];
  modelUrl?: string;
  model?: string;
}

/** The run configuration every command that drives a run takes: where handlers run, what they get, the tools and the model they reach. */
export function addRunConfigOptions(command: Command): Command {
  return command
    .addOption(toolsOption())
    .addOption(isolationOption())
    .addOption(handlerEnvOption())
    .addOption(handlerReadOption())
    .addOption(modelUrlOption())
    .addOption(modelOption())
    .addOption(new Option("--heartbeat <duration>", "how often this process stamps its row in the store's workers table").default("4s"))
    .addOption(
      new Option(
        "--dead-after <duration>",
        "a worker silent this long is dead: its leases are taken over without waiting for their expiry",
      ).default("16s"),
    );
}
