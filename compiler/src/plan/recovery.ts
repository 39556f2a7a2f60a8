/**
 * What recovery may do with each tool, resolved from its class (the table in
 * contract-v1.md): on retry, on an UNKNOWN outcome (STARTED without a
 * result), and on abort (saga rollback of a committed effect).
 */
import type { ToolSpec } from "../schema/contract.js";
import type { RecoveryPolicy } from "./schema.js";

export function recoveryPolicy(tool: ToolSpec): RecoveryPolicy {
  switch (tool.class) {
    case "read":
      return {
        onRetry: "retry",
        onUnknown: "retry",
        onAbort: "nothing",
        summary: "Reads are retried freely; evidence is marked with its source and time.",
      };
    case "idempotent":
      return {
        onRetry: "retry-same-key",
        onUnknown: "retry-same-key",
        onAbort: "nothing",
        summary: "Retried with the same business key; the end state is the same however often it runs.",
      };
    case "dedup":
      return {
        onRetry: "lookup-then-retry",
        onUnknown: "lookup",
        onAbort: "nothing",
        summary: `On UNKNOWN the effect is looked up by key with '${tool.lookup ?? "?"}'; it is never called again blindly.`,
      };
    case "compensable":
      return tool.lookup
        ? {
            onRetry: "lookup-then-retry",
            onUnknown: "lookup",
            onAbort: "compensate",
            summary: `On UNKNOWN the effect is looked up with '${tool.lookup}'; on abort it is undone by '${tool.compensate?.tool ?? "?"}', in reverse commit order.`,
          }
        : {
            onRetry: "never",
            onUnknown: "block",
            onAbort: "compensate",
            summary: `Not retried blindly; an UNKNOWN outcome blocks for a person; on abort it is undone by '${tool.compensate?.tool ?? "?"}', in reverse commit order.`,
          };
    case "irreversible":
      return {
        onRetry: "never",
        onUnknown: "block",
        onAbort: "block",
        summary: "Never retried blindly; an UNKNOWN outcome blocks until a person resolves it; it cannot be undone.",
      };
  }
}
