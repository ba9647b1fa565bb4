#!/usr/bin/env node
// The `ledger` command (package.json "bin": `npx ledger <command>`): the compiled CLI,
// dist/cli/ledger.js, or its sources through tsx where dist/ is missing or stale.
import { runCompiledOrSources } from "./compiled-or-sources.js";

await runCompiledOrSources("ledger", "cli/ledger");
