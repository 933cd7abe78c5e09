#!/usr/bin/env node
// `npm run bench`: see bench/run.mjs for what it measures and its options.
await import('../bench/run.mjs');
