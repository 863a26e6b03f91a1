// Package num holds the small integer helpers the core packages share: one copy of each, so
// that the WebAssembly module carries one (see `make size`).
package num

import "strconv"

// Abs is |v|.
func Abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// Itoa is strconv.Itoa, never inlined: error messages call it at many places, and each inlined
// copy adds some hundred bytes to the WebAssembly module.
//
//go:noinline
func Itoa(v int) string { return strconv.Itoa(v) }
