#!/usr/bin/env node
// knowledge-registry (alias kreg): the registry's command line, for people and scripts. Every command talks
// to a registry's REST API (--url, REG_URL, the stored login, or http://127.0.0.1:3000) with a key (--key,
// REG_API_KEY, or the stored login), prints JSON with --json, and ends with a documented exit code.
import { runCli } from './program.js';

runCli(process.argv).then((code) => {
  process.exitCode = code;
});
