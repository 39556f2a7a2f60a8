/**
 * What the contract's words mean, in one sentence each, for hover and
 * completion documentation. Wording follows docs/ and the contract design.
 */
import type { EdgeKind, RecoveryClass } from "@taskspec/compiler";

export const EDGE_KIND_MEANING: Record<EdgeKind, string> = {
  content: "facts and claims: a change in what the upstream says invalidates this unit",
  structure: "format, schema and layout: a change in the upstream's shape invalidates this unit",
  policy: "rules, thresholds and permissions: a change in the rules the upstream carries invalidates this unit",
  audience: "who the work is written for (order, tone, emphasis): a change of audience invalidates this unit",
};

export const RECOVERY_CLASS_MEANING: Record<RecoveryClass, string> = {
  read: "no side effect: recovery retries it and marks the evidence with source and time",
  idempotent: "repeating it with the same business key has no further effect: recovery retries with the same key and queries the end state",
  dedup:
    "the remote side deduplicates by key: recovery stores key and remote id and, on UNKNOWN, looks the effect up by key instead of calling again (needs `key` and `lookup`)",
  compensable: "can be undone: on abort recovery runs the declared compensator, in reverse commit order (needs `compensate`)",
  irreversible:
    "cannot be undone or safely repeated: never retried blindly; an UNKNOWN outcome blocks for a person (every unit using it needs an `approval` gate)",
};

export const INPUT_KIND_MEANING: Record<string, string> = {
  snapshot: "a fixed, versioned set (e.g. approved sources): changing its version is a change at this input",
  decision: "a choice made by people (e.g. the audience): changing its value is a change at this input",
  external: "live world state: volatile, evidence read from it expires and is re-read on resume",
  artifact: "a file or document supplied from outside the task",
};

export const VERIFIER_KIND_MEANING: Record<string, string> = {
  rule: "a hard check: an expression over the result",
  schema: "a hard check: the result must match a JSON Schema",
  model: "a soft check by a model: never the only verifier of side-effecting work (C052)",
  human: "a person signs off",
};

export const APPROVAL_MEANING: Record<string, string> = {
  human: "a durable gate: the run blocks until a person approves this run, unit, contract version and artifact hashes",
  rule: "a durable gate passed by a declared rule",
};
