// Package hsort is a tiny non-generic heap sort for the engine (see Sort).
package hsort

// Sort sorts n elements in place with less and swap. It is not generic on purpose: each
// instantiation of slices.SortFunc adds ~15 KB to the WebAssembly module (make size), and
// the engine sorts two element types.
func Sort(n int, less func(i, j int) bool, swap func(i, j int)) {
	down := func(i, n int) {
		for {
			c := 2*i + 1
			if c >= n {
				return
			}
			if c+1 < n && less(c, c+1) {
				c++
			}
			if !less(i, c) {
				return
			}
			swap(i, c)
			i = c
		}
	}
	for i := n/2 - 1; i >= 0; i-- {
		down(i, n)
	}
	for end := n - 1; end > 0; end-- {
		swap(0, end)
		down(0, end)
	}
}
