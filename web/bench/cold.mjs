// One cold start in a fresh Node process (bench.mjs runs it several times): the request read
// first, then import "aoekit" → load() → the first evaluate → a second one. Prints JSON; every
// time in ms. "process" is when this script began, from the process's start (Node's own boot).
import { readFileSync } from "node:fs";

import { coldStart } from "./measure.mjs";

const start = performance.now();
const { request } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const times = await coldStart(() => import("aoekit"), request);
console.log(JSON.stringify({ process: start, ...times }));
