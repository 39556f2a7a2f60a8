/**
 * Tool adapter for the local mail gateway: `send_confirmation` is
 * irreversible — the remote does not deduplicate, so only the ledger's rules
 * (approval before, block on UNKNOWN) keep it from going out twice.
 */
import type { ToolAdapter } from "@taskspec/runtime";
import type { Message } from "../remote/mail.js";
import { callRemote } from "./remote-client.js";

export const sendConfirmation: ToolAdapter = {
  async call(args, meta) {
    const message = await callRemote<Message>("mail", { method: "POST", path: "/send", body: args, meta });
    return { message_id: (message as Message).id, to: (message as Message).to };
  },
};
