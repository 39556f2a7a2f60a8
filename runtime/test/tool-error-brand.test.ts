/**
 * ToolError is recognised by its code, not its class: the installed CLI runs
 * its own bundled runtime while a handler module imports @taskspec/runtime,
 * so the ToolError a handler throws is another copy of the class.
 */
import { describe, expect, it } from "vitest";
import { isToolError, TOOL_ERROR_CODE, ToolError } from "../src/handler-api.js";

/** What a second copy of the runtime (another bundle, another version) declares. */
class OtherCopyToolError extends Error {
  override readonly name = "ToolError";
  readonly code = "TASKSPEC_TOOL_ERROR";
  constructor(
    message: string,
    readonly outcome: "failed" | "unknown",
  ) {
    super(message);
  }
}

describe("isToolError", () => {
  it("recognises this copy's ToolError and another copy's alike", () => {
    expect(isToolError(new ToolError("down", "failed"))).toBe(true);
    const foreign = new OtherCopyToolError("down", "failed");
    expect(foreign instanceof ToolError).toBe(false);
    expect(isToolError(foreign)).toBe(true);
    expect(new ToolError("x").code).toBe(TOOL_ERROR_CODE);
  });

  it("refuses errors without the code or with an outcome it does not know", () => {
    expect(isToolError(new Error("down"))).toBe(false);
    expect(isToolError(Object.assign(new Error("x"), { outcome: "failed" }))).toBe(false);
    expect(isToolError({ code: TOOL_ERROR_CODE, outcome: "maybe" })).toBe(false);
    expect(isToolError(null)).toBe(false);
    expect(isToolError("ToolError")).toBe(false);
  });
});
