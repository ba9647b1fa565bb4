#!/usr/bin/env node
// `npm start` (and start:api, start:projector, whose role is the first argument): the compiled
// service, dist/main.js, or its sources through tsx where dist/ is missing or stale.
import { runCompiledOrSources } from "./compiled-or-sources.js";

await runCompiledOrSources("npm start", "main");
