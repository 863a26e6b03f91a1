//go:build !unix

package engine

// cpuTime is not measured here (js/wasm has no getrusage): 0.
func cpuTime() int64 { return 0 }
