/**
 * A local mail gateway: sending is irreversible and NOT deduplicated — a
 * second send is a second email in someone's inbox. It records the caller's
 * key so a person (or a lookup) can see what went out, and counts sends.
 *
 *   POST /send              { to, subject, body }  headers Idempotency-Key (recorded only), X-Fencing-Token
 *   GET  /messages?key=K    the messages sent under K (a list; empty when none)
 *   GET  /messages          every message
 *   GET  /stats             sends, callsPerKey, ...
 */
import path from "node:path";
import { RecordDir } from "./durable-file.js";
import { header, json, requireString } from "./http-kit.js";
import { isMain, runAsProcess, startService, type RunningService, type ServiceOptions } from "./service.js";

export interface Message {
  id: string;
  key: string | null;
  to: string;
  subject: string;
  body: string;
  sentAt: string;
}

export function startMail(options: ServiceOptions): Promise<RunningService> {
  return startService(
    {
      name: "mail",
      fenceResource: (req) => header(req, "Idempotency-Key") ?? "outbox",
      routes: (state) => {
        const messages = new RecordDir<Message>(path.join(options.dataDir, "messages"));
        return [
          {
            method: "POST",
            pattern: "/send",
            write: true,
            handle: (req) => {
              const message: Message = {
                id: `m${String(messages.size + 1).padStart(4, "0")}`,
                key: header(req, "Idempotency-Key") ?? null,
                to: requireString(req, "to"),
                subject: requireString(req, "subject"),
                body: requireString(req, "body"),
                sentAt: new Date().toISOString(),
              };
              messages.put(message);
              state.count("sends");
              return json(201, message);
            },
          },
          {
            method: "GET",
            pattern: "/messages",
            write: false,
            handle: (req) => {
              const key = req.query.get("key");
              if (key === null) return json(200, messages.list());
              state.count("lookups");
              return json(
                200,
                messages.list().filter((message) => message.key === key),
              );
            },
          },
        ];
      },
    },
    options,
  );
}

if (isMain(import.meta.url)) void runAsProcess("mail", startMail);
