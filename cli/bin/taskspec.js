#!/usr/bin/env node
// Thin launcher so the bin exists before the TypeScript build has run.
import { main } from "../dist/main.js";
process.exitCode = await main(process.argv.slice(2));
