/**
 * The language server's wiring: connection, capabilities, the per-version
 * analysis cache, debounced diagnostics and the workspace scan. Every answer
 * comes from a pure function in service/; this file only moves data between
 * them and the connection, and keeps a throwing bug from taking the server down
 * (a request that fails answers "nothing" and logs the bug).
 */
import {
  CodeActionKind,
  DiagnosticSeverity,
  DidChangeWatchedFilesNotification,
  MarkupKind,
  ProposedFeatures,
  ResponseError,
  ErrorCodes,
  TextDocumentSyncKind,
  TextDocuments,
  createConnection,
  type ClientCapabilities,
  type Connection,
  type InitializeResult,
  type MarkupContent,
  type PublishDiagnosticsParams,
  type SemanticTokens,
  type SemanticTokensDelta,
} from "vscode-languageserver/node";
import { TextDocument } from "vscode-languageserver-textdocument";
import { analyze, NO_POLICY, type Analysis, type DocumentPolicy } from "./service/analysis.js";
import { isContractDocument } from "./service/contract-document.js";
import { toLspDiagnostics, type DiagnosticSupport } from "./service/diagnostics.js";
import { hover } from "./service/hover.js";
import { complete } from "./service/complete.js";
import { definition } from "./service/definition.js";
import { references } from "./service/references.js";
import { prepareRename, rename } from "./service/rename.js";
import { documentSymbols, workspaceSymbols } from "./service/symbols.js";
import { codeLenses, resolveCodeLens, impactOfNode, SHOW_IMPACT_COMMAND, type ImpactLensData } from "./service/code-lens.js";
import { codeActions } from "./service/code-actions.js";
import { signatureHelp } from "./service/signature-help.js";
import { foldingRanges, selectionRanges } from "./service/ranges.js";
import { inlayHints } from "./service/inlay-hints.js";
import { documentLinks } from "./service/document-links.js";
import { formatDocument, formatRange } from "./service/formatting.js";
import { SEMANTIC_TOKENS_LEGEND, documentTokens, encodeTokens, semanticTokensInRange, tokensDelta } from "./service/semantic-tokens.js";
import { impactOfEdit, graphOf } from "./service/impact-edit.js";
import {
  Requests,
  type GraphParams,
  type GraphResult,
  type ImpactOfEditParams,
  type ImpactParams,
  type PlanParams,
  type PlanResult,
} from "./protocol.js";
import {
  CONFIG_FILE,
  createConfigLookup,
  isContractPath,
  pathToUri,
  readContract,
  scanWorkspace,
  uriToPath,
} from "./adapters/workspace.js";
import { readBaseline } from "./adapters/baseline.js";
import { filesOf, mcpLockOf } from "./adapters/files.js";
import { heapKeeper } from "./adapters/heap.js";
import { svgRenderer } from "./adapters/svg.js";

/** A graph's SVG layout stops after this long (the answer then has DOT and Mermaid, and says so). */
const SVG_BUDGET_MS = 10_000;

/** Settings a client may pass in initializationOptions or the `taskspec` configuration section. */
export interface ServerSettings {
  /**
   * Edits less than this apart are checked once, this long after the last of
   * them. An edit after a quiet spell (and an open) is checked at once, at the
   * end of the current batch of messages: a single keystroke never waits.
   */
  debounceMs: number;
  /** Inlay hints (a unit's worst-case cost, a loop's bound x attempts); `false` answers none. */
  inlayHints: boolean;
}
const DEFAULT_SETTINGS: ServerSettings = { debounceMs: 15, inlayHints: true };

/** Markdown emphasis and code marks removed, for clients that show hover text as it is. */
function plainText(markdown: string): string {
  return markdown.replace(/\*\*|`/g, "").replace(/^_|_$/gm, "");
}

/** Starts the server over the transport named on the command line (--stdio, --node-ipc, --socket=N). */
export function listen(): Connection {
  const connection = createConnection(ProposedFeatures.all);
  startServer(connection);
  return connection;
}

export function startServer(connection: Connection): void {
  const documents = new TextDocuments(TextDocument);
  /** Analyses of open documents, one per uri, always for the newest version asked for. */
  const open = new Map<string, Analysis>();
  /** Analyses of contracts found by the workspace scan that are not open in the editor. */
  const onDisk = new Map<string, Analysis>();
  /** Contracts of the workspace folders (open or not): re-checked from disk when they close. */
  const inWorkspace = new Set<string>();
  const heap = heapKeeper();
  const svg = svgRenderer();
  /** Per document: cancels the check that is waiting to run. */
  const pending = new Map<string, () => void>();
  /** Per document: when it was last edited (performance.now()); opening is not an edit. */
  const lastEdit = new Map<string, number>();
  /** Documents whose didOpen is being handled (TextDocuments reports an open as a content change too). */
  const opening = new Set<string>();
  let settings = { ...DEFAULT_SETTINGS };
  let support: DiagnosticSupport = { relatedInformation: false, codeDescription: false };
  let capabilities: ClientCapabilities = {};
  let workspaceRoots: string[] = [];
  /** Per document: the last full semantic tokens answer, which a delta request names by its id. */
  const lastTokens = new Map<string, { resultId: string; data: number[] }>();
  let tokensIssued = 0;
  /** taskspec.config.yaml lookups; replaced (so re-read) when a configuration file changes. */
  let config = createConfigLookup();
  /** Configuration files whose problems are shown on them, cleared when they change. */
  const brokenConfigs = new Set<string>();
  /** Bumped when a configuration file changes: analyses made under an older one are redone. */
  let configGeneration = 0;
  const generationOf = new Map<string, number>();

  const log = (message: string) => connection.console.error(message);

  /** Runs a handler; a bug answers `fallback` and is logged instead of killing the session. */
  function guard<P, R>(name: string, fallback: R, handler: (params: P) => R): (params: P) => R {
    return (params: P) => {
      try {
        return handler(params);
      } catch (err) {
        // A ResponseError is an answer (e.g. a refused rename), not a bug.
        if (err instanceof ResponseError) throw err;
        log(`taskspec-lsp: ${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
        return fallback;
      } finally {
        heap.busy();
      }
    };
  }

  /** The configuration's say on a file: its rules and whether it is ignored. A broken configuration shows its problems on itself and applies nothing. */
  function policyOf(uri: string): DocumentPolicy {
    if (!uri.startsWith("file:")) return NO_POLICY;
    const found = config.policyFor(uriToPath(uri));
    if (found.ok) return found;
    const configUri = pathToUri(found.configPath);
    if (!brokenConfigs.has(configUri)) {
      brokenConfigs.add(configUri);
      const diagnostics = found.problems.map((p) => ({
        range: p.range,
        severity: DiagnosticSeverity.Error,
        source: "taskspec",
        message: p.message,
      }));
      void connection.sendDiagnostics({ uri: configUri, diagnostics });
    }
    return NO_POLICY;
  }

  /** The analysis of a document's current text, computed at most once per version; none for a document that is not a contract. */
  function analysisOf(uri: string): Analysis | undefined {
    const doc = documents.get(uri);
    if (!doc) return onDisk.get(uri);
    const cached = open.get(uri);
    if (cached && cached.version === doc.version && generationOf.get(uri) === configGeneration) return cached;
    const text = doc.getText();
    if (!isContractDocument(uri, text)) return undefined;
    const next = analyze(uri, doc.version, text, cached, filesOf(uri), policyOf(uri), mcpLockOf(uri));
    open.set(uri, next);
    generationOf.set(uri, configGeneration);
    return next;
  }

  /** A configuration file changed: forget every lookup and re-check what is open or on disk. */
  function reloadConfig(): void {
    config = createConfigLookup();
    configGeneration++;
    for (const uri of brokenConfigs) void connection.sendDiagnostics({ uri, diagnostics: [] });
    brokenConfigs.clear();
    for (const doc of documents.all()) schedule(doc.uri);
    for (const uri of onDisk.keys()) recheckOnDisk(uri);
  }

  function publish(analysis: Analysis): void {
    const params: PublishDiagnosticsParams = { uri: analysis.uri, diagnostics: toLspDiagnostics(analysis, support) };
    // Only an open document has a version; a contract checked on disk has none.
    if (documents.get(analysis.uri)) params.version = analysis.version;
    // before sending: a collection the check's garbage calls for runs now, not in front of the requests the diagnostics prompt
    heap.afterWork();
    void connection.sendDiagnostics(params);
  }

  function schedule(uri: string): void {
    pending.get(uri)?.();
    const run = () => {
      pending.delete(uri);
      guard("diagnostics", undefined, () => {
        const analysis = analysisOf(uri);
        if (analysis) publish(analysis);
        // a buffer that stopped being a contract (its `contract:` key deleted) keeps no old problems
        else if (open.delete(uri)) void connection.sendDiagnostics({ uri, diagnostics: [] });
      })(undefined);
    };
    const now = performance.now();
    const quiet = opening.has(uri) || now - (lastEdit.get(uri) ?? -Infinity) >= settings.debounceMs;
    if (!opening.has(uri)) lastEdit.set(uri, now);
    if (quiet) {
      // setImmediate: changes that arrived in the same read are folded into one check
      const immediate = setImmediate(run);
      pending.set(uri, () => clearImmediate(immediate));
    } else {
      const timer = setTimeout(run, settings.debounceMs);
      pending.set(uri, () => clearTimeout(timer));
    }
  }

  function applySettings(value: unknown): void {
    if (typeof value !== "object" || value === null) return;
    const debounce = (value as Record<string, unknown>)["debounceMs"];
    if (typeof debounce === "number" && Number.isFinite(debounce) && debounce >= 0) settings = { ...settings, debounceMs: debounce };
    const hints = (value as Record<string, unknown>)["inlayHints"];
    if (typeof hints === "boolean") {
      const changed = hints !== settings.inlayHints;
      settings = { ...settings, inlayHints: hints };
      // ask the client to re-request when it can (a changed setting does not change any document)
      if (changed && capabilities.workspace?.inlayHint?.refreshSupport) void connection.languages.inlayHint.refresh();
    }
  }

  function checkFileOnDisk(path: string, text: string): void {
    const uri = pathToUri(path);
    if (documents.get(uri)) return;
    const analysis = analyze(uri, 0, text, onDisk.get(uri), filesOf(uri), policyOf(uri), mcpLockOf(uri));
    onDisk.set(uri, analysis);
    inWorkspace.add(uri);
    publish(analysis);
  }

  async function scan(roots: readonly string[]): Promise<void> {
    for (const root of roots) {
      for await (const file of scanWorkspace(root)) {
        guard("workspace scan", undefined, () => checkFileOnDisk(file.path, file.text))(undefined);
      }
    }
  }

  connection.onInitialize((params): InitializeResult => {
    capabilities = params.capabilities;
    const td = capabilities.textDocument;
    support = {
      relatedInformation: td?.publishDiagnostics?.relatedInformation === true,
      codeDescription: td?.publishDiagnostics?.codeDescriptionSupport === true,
    };
    applySettings(params.initializationOptions);
    const folders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    workspaceRoots = folders.flatMap((uri) => (uri.startsWith("file:") ? [uriToPath(uri)] : []));
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        hoverProvider: true,
        completionProvider: { triggerCharacters: [":", " ", "[", ",", "{", ".", "$", "-"] },
        signatureHelpProvider: { triggerCharacters: ["(", ","], retriggerCharacters: [","] },
        foldingRangeProvider: true,
        inlayHintProvider: true,
        documentLinkProvider: { resolveProvider: false },
        documentFormattingProvider: true,
        documentRangeFormattingProvider: true,
        semanticTokensProvider: { legend: SEMANTIC_TOKENS_LEGEND, full: { delta: true }, range: true },
        selectionRangeProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: td?.rename?.prepareSupport === true ? { prepareProvider: true } : true,
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        codeLensProvider: { resolveProvider: true },
        codeActionProvider: td?.codeAction?.codeActionLiteralSupport ? { codeActionKinds: [CodeActionKind.QuickFix] } : true,
        executeCommandProvider: { commands: [SHOW_IMPACT_COMMAND] },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: "taskspec-lsp", version: "0.1.0" },
    };
  });

  connection.onInitialized(() => {
    if (capabilities.workspace?.configuration) {
      connection.workspace.getConfiguration("taskspec").then(applySettings, () => undefined);
    }
    if (capabilities.workspace?.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((event) => {
        void scan(event.added.flatMap((f) => (f.uri.startsWith("file:") ? [uriToPath(f.uri)] : [])));
      });
    }
    // Contracts changed outside the editor (git checkout, a generator) are re-checked
    // when the client can watch for us; VS Code's extension also watches on its own.
    if (capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: "**/*.task.{yaml,yml}" }, { globPattern: `**/${CONFIG_FILE}` }],
      });
    }
    void scan(workspaceRoots);
  });

  connection.onDidChangeConfiguration((change) => {
    const section = (change.settings as Record<string, unknown> | null)?.["taskspec"];
    applySettings(section);
  });

  /** Re-reads a closed contract from disk and publishes its problems (none if it is gone). */
  function recheckOnDisk(uri: string): void {
    void readContract(uriToPath(uri)).then((text) => {
      if (documents.get(uri)) return;
      if (text !== undefined) return guard("recheck", undefined, () => checkFileOnDisk(uriToPath(uri), text))(undefined);
      onDisk.delete(uri);
      inWorkspace.delete(uri);
      void connection.sendDiagnostics({ uri, diagnostics: [] });
    });
  }

  connection.onDidChangeWatchedFiles((change) => {
    if (change.changes.some((event) => event.uri.endsWith(`/${CONFIG_FILE}`))) reloadConfig();
    for (const event of change.changes) {
      if (isContractPath(event.uri) && event.uri.startsWith("file:") && !documents.get(event.uri)) recheckOnDisk(event.uri);
    }
  });

  // While a contract is open its buffer is the truth; the copy from disk would only hold memory.
  documents.onDidOpen((event) => {
    onDisk.delete(event.document.uri);
    opening.add(event.document.uri);
  });
  documents.onDidChangeContent((event) => {
    schedule(event.document.uri);
    opening.delete(event.document.uri);
  });
  documents.onDidClose((event) => {
    const uri = event.document.uri;
    pending.get(uri)?.();
    pending.delete(uri);
    lastEdit.delete(uri);
    open.delete(uri);
    lastTokens.delete(uri);
    // A contract that is part of the workspace stays checked (as saved); any other file's problems go away with it.
    if (inWorkspace.has(uri)) recheckOnDisk(uri);
    else void connection.sendDiagnostics({ uri, diagnostics: [] });
  });

  const at = <P extends { textDocument: { uri: string } }, R>(name: string, fallback: R, fn: (a: Analysis, p: P) => R) =>
    guard<P, R>(name, fallback, (params) => {
      const analysis = analysisOf(params.textDocument.uri);
      return analysis ? fn(analysis, params) : fallback;
    });

  connection.onHover(
    at("hover", null, (a, p) => {
      const found = hover(a, p.position);
      const markdown = capabilities.textDocument?.hover?.contentFormat?.includes(MarkupKind.Markdown) ?? false;
      // A client that cannot render Markdown gets the same text without its markup.
      return found && !markdown
        ? { ...found, contents: { kind: MarkupKind.PlainText, value: plainText((found.contents as MarkupContent).value) } }
        : found;
    }),
  );
  connection.onCompletion(
    at("completion", [], (a, p) => complete(a, p.position, capabilities.textDocument?.completion?.completionItem?.snippetSupport === true)),
  );
  connection.languages.inlayHint.on(at("inlayHint", [], (a, p) => (settings.inlayHints ? inlayHints(a, p.range) : [])));
  connection.onDocumentLinks(at("documentLink", [], (a) => documentLinks(a)));
  connection.onDocumentFormatting(at("formatting", [], (a, p) => formatDocument(a, p.options)));
  connection.onDocumentRangeFormatting(at("rangeFormatting", [], (a, p) => formatRange(a, p.range, p.options)));
  /** Full tokens, remembered under a new result id so the next request can ask for the difference. */
  const fullTokens = (a: Analysis): SemanticTokens => {
    const data = encodeTokens(documentTokens(a));
    const resultId = String(++tokensIssued);
    lastTokens.set(a.uri, { resultId, data });
    return { resultId, data };
  };
  connection.languages.semanticTokens.on(at("semanticTokens/full", { data: [] }, (a) => fullTokens(a)));
  connection.languages.semanticTokens.onDelta(
    at("semanticTokens/full/delta", { data: [] } as SemanticTokens | SemanticTokensDelta, (a, p) => {
      const previous = lastTokens.get(a.uri);
      const next = fullTokens(a);
      // a result id the server no longer has (or never issued) gets the full answer
      return previous?.resultId === p.previousResultId ? { resultId: next.resultId!, edits: tokensDelta(previous.data, next.data) } : next;
    }),
  );
  connection.languages.semanticTokens.onRange(at("semanticTokens/range", { data: [] }, (a, p) => semanticTokensInRange(a, p.range)));
  connection.onSignatureHelp(at("signatureHelp", null, (a, p) => signatureHelp(a, p.position)));
  connection.onDefinition(at("definition", [], (a, p) => definition(a, p.position)));
  connection.onFoldingRanges(at("foldingRange", [], (a) => foldingRanges(a)));
  connection.onSelectionRanges(at("selectionRange", [], (a, p) => selectionRanges(a, p.positions)));
  connection.onReferences(at("references", [], (a, p) => references(a, p.position, p.context.includeDeclaration)));
  connection.onPrepareRename(at("prepareRename", null, (a, p) => prepareRename(a, p.position)));
  connection.onRenameRequest(
    at("rename", null, (a, p) => {
      const result = rename(a, p.position, p.newName);
      if ("refused" in result) throw new ResponseError(ErrorCodes.InvalidRequest, result.refused);
      return result.edit;
    }),
  );
  connection.onDocumentSymbol(
    at("documentSymbol", [], (a) =>
      documentSymbols(a, capabilities.textDocument?.documentSymbol?.hierarchicalDocumentSymbolSupport !== true),
    ),
  );
  connection.onWorkspaceSymbol(
    guard("workspaceSymbol", [], (p) => {
      const all = new Map(onDisk);
      for (const doc of documents.all()) {
        const analysis = analysisOf(doc.uri);
        if (analysis) all.set(doc.uri, analysis);
      }
      return workspaceSymbols([...all.values()], p.query);
    }),
  );
  connection.onCodeLens(at("codeLens", [], (a) => codeLenses(a)));
  connection.onCodeLensResolve(
    guard("codeLens/resolve", null as never, (lens) => {
      const data = lens.data as ImpactLensData | undefined;
      const analysis = data ? analysisOf(data.uri) : undefined;
      return analysis ? resolveCodeLens(analysis, lens) : lens;
    }),
  );
  connection.onCodeAction(at("codeAction", [], (a, p) => codeActions(a, p.range, p.context.diagnostics)));

  connection.onExecuteCommand(
    guard("executeCommand", null, (p) => {
      if (p.command !== SHOW_IMPACT_COMMAND) return null;
      const data = p.arguments?.[0] as ImpactLensData | undefined;
      const analysis = data ? analysisOf(data.uri) : undefined;
      return analysis && data ? impactOfNode(analysis, data.node) : null;
    }),
  );
  connection.onRequest(
    Requests.impact,
    guard("impact", null, (p: ImpactParams) => {
      const analysis = analysisOf(p.uri);
      return analysis ? impactOfNode(analysis, p.node, p.kinds ?? "all") : null;
    }),
  );
  connection.onRequest(
    Requests.plan,
    guard("plan", null, (p: PlanParams): PlanResult | null => {
      const analysis = analysisOf(p.uri);
      if (!analysis) return null;
      const count = (severity: string) => analysis.diagnostics.filter((d) => d.severity === severity).length;
      const result: PlanResult = { errors: count("error"), warnings: count("warning") };
      if (analysis.current && analysis.good) {
        const plan = analysis.good.plan;
        result.planHash = plan.planHash;
        if (!p.hashOnly) result.plan = plan;
      }
      return result;
    }),
  );
  connection.onRequest(Requests.impactOfEdit, async (p: ImpactOfEditParams) => {
    const analysis = analysisOf(p.uri);
    if (!analysis) return null;
    const against = p.against === "head" ? "head" : "saved";
    const baseline = await readBaseline(uriToPath(p.uri), against).catch((err: unknown) => ({
      unavailable: err instanceof Error ? err.message : String(err),
    }));
    return guard("impactOfEdit", null, () => impactOfEdit(analysis, against, baseline))(undefined);
  });
  connection.onRequest(Requests.graph, async (p: GraphParams): Promise<GraphResult | null> => {
    const analysis = analysisOf(p.uri);
    const drawn = analysis ? guard("graph", null, () => graphOf(analysis, p.changes))(undefined) : null;
    if (!drawn) return null;
    if (!drawn.svg) return drawn.graph;
    // SVG needs Graphviz (WebAssembly), laid out in a worker so this thread keeps answering;
    // DOT and Mermaid answer even if it fails or runs over its budget.
    const outcome = await svg.render(drawn.graph.dot, SVG_BUDGET_MS);
    if ("svg" in outcome) return { ...drawn.graph, svg: outcome.svg };
    if (!outcome.unavailable.includes("budget")) log(`taskspec-lsp: svg rendering failed: ${outcome.unavailable}`);
    return { ...drawn.graph, partial: `Partial: no SVG: ${outcome.unavailable}.` };
  });
  connection.onShutdown(() => svg.close());

  documents.listen(connection);
  connection.listen();
}
