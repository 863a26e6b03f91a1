// Command identity prints the cross-door identity set: for every request of requests.json, the
// Go door's answer — the engine called directly and its result (or {"error": …}) encoded with
// encoding/json (SetEscapeHTML(false), no trailing newline) — as a JSON array of
// {"name", "status", "body"}, body a string. The HTTP and browser doors must give these bodies
// byte for byte (SPEC §8.1, CONTRACT "Doors").
//
//	go run ./wasm/identity [-o file]
//
// Requests are read with wire's decoders, the one reader every door shares; wire's encoder is
// what the other doors use and what this checks.
package main
