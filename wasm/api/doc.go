// Package api is aoekit's HTTP door: one http.Handler serving the CONTRACT endpoints with JSON
// errors and CORS, run natively by wasm/worker and on Cloudflare Workers through
// github.com/syumai/workers. Every body goes through wasm/wire, so its answers are byte for
// byte those of the other doors.
//
// # Memory after a heavy request
//
// What a request allocates is bounded (SPEC §8.3: no legal request past 256 MB), and what it
// leaves behind is returned, natively and in part in WebAssembly (issue 29, 5; measured on a
// shared 2-core Linux machine, Go 1.26):
//
//   - Natively, issue 29's request 1 (a size-98 caster's 1 aura, once 1.8 GB) allocates 1.1 MB;
//     a line of 10⁶ cells (13 MB of JSON) 40 MB. After it and 10 000 ordinary requests the live
//     heap is 0.1 MB as before, the heap taken from the system has fallen from 41 MB to 5 MB by
//     itself (the runtime's scavenger), resident memory from 51 MB to 16 MB; debug.FreeOSMemory
//     takes them to 0.8 MB and 12 MB (TestMemoryReturnsAfterAHeavyRequest).
//   - A WebAssembly memory never shrinks: its size is the high-water mark of the Go heap inside
//     it, which Go then reuses. In aoekit.wasm (Node 20), request 1 takes the memory from 4 MB
//     to 5 MB (four times: 8.5 MB; once 3.5 GB, and a second one killed the module), the 10⁶-cell
//     line to 67 MB, where it stays: 10 000 ordinary calls after it end at 68 MB, their second
//     5 000 growing it by under 1 MB (web/test/heavy.test.mjs). What does not return there is
//     the high-water mark itself: the heaviest request a module answered sets its size for good.
//     Not yet explained (open): under the hostile mix of web/test/hostile.test.mjs the module's
//     memory climbs in steps of a few MB, mostly at parse calls of 100 000 characters (5.7 MB
//     allocated each, natively), to 140-210 MB after 25 000-100 000 calls and, differently from
//     run to run, to 0.76-1.3 GB after 200 000-250 000 (Node's peak, 899 085 calls: 2.2 GB);
//     natively the same load keeps a peak of 20 MB, and 3 000 such parse calls alone stay at
//     22 MB in the module.
package api
