/**
 * A minimal LSP client for tests, on vscode-jsonrpc: records every message in
 * both directions (the transcript), collects pushed diagnostics and lets a test
 * wait for them by event, never by sleeping.
 */
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type Message,
  type MessageConnection,
  type MessageReader,
  type MessageWriter,
} from "vscode-jsonrpc/node";
import type { PublishDiagnosticsParams, Registration } from "vscode-languageserver";

export interface TranscriptEntry {
  direction: "client->server" | "server->client";
  message: Message;
}

export class TestClient {
  readonly transcript: TranscriptEntry[] = [];
  /** What the server registered dynamically (client/registerCapability). */
  readonly registrations: Registration[] = [];
  readonly connection: MessageConnection;
  private readonly published = new Map<string, PublishDiagnosticsParams[]>();
  private waiters: { uri: string; accept: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];

  constructor(input: NodeJS.ReadableStream, output: NodeJS.WritableStream) {
    this.connection = createMessageConnection(
      this.recordReader(new StreamMessageReader(input)),
      this.recordWriter(new StreamMessageWriter(output)),
    );
    this.connection.onNotification("textDocument/publishDiagnostics", (p: PublishDiagnosticsParams) => {
      const list = this.published.get(p.uri) ?? [];
      list.push(p);
      this.published.set(p.uri, list);
      this.waiters = this.waiters.filter((w) => {
        if (w.uri !== p.uri || !w.accept(p)) return true;
        w.resolve(p);
        return false;
      });
    });
    // Servers may ask for configuration and register capabilities; answer like a plain editor.
    this.connection.onRequest("workspace/configuration", (p: { items: unknown[] }) => p.items.map(() => null));
    this.connection.onRequest("client/registerCapability", (p: { registrations: Registration[] }) => {
      this.registrations.push(...p.registrations);
      return null;
    });
    this.connection.onRequest("window/workDoneProgress/create", () => null);
    this.connection.listen();
  }

  /** Resolves with the first diagnostics push for `uri` (already received or future) that `accept`s. */
  diagnostics(uri: string, accept: (p: PublishDiagnosticsParams) => boolean = () => true): Promise<PublishDiagnosticsParams> {
    const seen = this.published.get(uri)?.find(accept);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ uri, accept, resolve }));
  }

  /** Every diagnostics push for `uri` so far, oldest first. */
  pushes(uri: string): PublishDiagnosticsParams[] {
    return [...(this.published.get(uri) ?? [])];
  }

  /** Forgets earlier pushes, so the next `diagnostics` call waits for a new one. */
  clearDiagnostics(): void {
    this.published.clear();
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest(method, params) as Promise<R>;
  }

  notify(method: string, params: unknown): Promise<void> {
    return this.connection.sendNotification(method, params);
  }

  async initialize(
    rootUri: string | null,
    capabilities: Record<string, unknown> = FULL_CAPABILITIES,
    initializationOptions?: unknown,
  ): Promise<unknown> {
    const result = await this.request("initialize", {
      processId: null,
      rootUri,
      workspaceFolders: rootUri ? [{ uri: rootUri, name: "workspace" }] : null,
      capabilities,
      initializationOptions,
    });
    await this.notify("initialized", {});
    return result;
  }

  open(uri: string, text: string, version = 1): Promise<void> {
    return this.notify("textDocument/didOpen", { textDocument: { uri, languageId: "taskspec", version, text } });
  }

  dispose(): void {
    this.connection.dispose();
  }

  private recordReader(reader: MessageReader): MessageReader {
    return {
      onError: reader.onError,
      onClose: reader.onClose,
      onPartialMessage: reader.onPartialMessage,
      listen: (callback) =>
        reader.listen((message) => {
          this.transcript.push({ direction: "server->client", message });
          callback(message);
        }),
      dispose: () => reader.dispose(),
    };
  }

  private recordWriter(writer: MessageWriter): MessageWriter {
    return {
      onError: writer.onError,
      onClose: writer.onClose,
      write: (message) => {
        this.transcript.push({ direction: "client->server", message });
        return writer.write(message);
      },
      end: () => writer.end(),
      dispose: () => writer.dispose(),
    };
  }
}

/** What VS Code announces for the features this server uses. */
export const FULL_CAPABILITIES = {
  textDocument: {
    synchronization: { didSave: true },
    publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, versionSupport: true },
    hover: { contentFormat: ["markdown", "plaintext"] },
    completion: { completionItem: { snippetSupport: false } },
    rename: { prepareSupport: true },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ["quickfix"] } } },
    codeLens: {},
  },
  workspace: { workspaceFolders: true, configuration: true, applyEdit: true, didChangeWatchedFiles: { dynamicRegistration: true } },
};
