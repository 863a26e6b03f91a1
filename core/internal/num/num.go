// Package num holds the small helpers the core packages share: one copy of each, so
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

// MaxQuote is the longest text Quote shows.
const MaxQuote = 64

// Quote is a name or an id in a message: quoted (GoQuote, as strconv.Quote), or its length when it is past
// MaxQuote bytes, so that a message never echoes a request's long text (a 1 MiB id).
//
//go:noinline
func Quote(s string) string {
	if len(s) > MaxQuote {
		return "a text of " + Itoa(len(s)) + " bytes"
	}
	return GoQuote(s)
}
