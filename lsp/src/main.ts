/**
 * Process entry point of the language server: the file the extension bundles.
 * `taskspec lsp --stdio` calls the same `listen()`.
 */
import { listen } from "./server.js";

listen();
