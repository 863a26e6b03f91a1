// Package circle50 decides the 50 % circle of SPEC §4.1 exactly: the cells at least half of
// whose area lies inside a disc of radius x + ½ centred on a cell's centre.
package circle50

// MaxSize is the largest circle size x supported.
const MaxSize = 500

// Rows returns, for dy = 0 … x, the half-width of row dy of circle x: the cells (dx, dy) with
// |dx| ≤ Rows(x)[dy] are in the circle; −1 means the row is empty. x must be in 0 … MaxSize.
func Rows(x int) []int {
	panic("TODO: helper")
}

// Count is the number of cells of circle x.
func Count(x int) int {
	n := 0
	for dy, hw := range Rows(x) {
		w := 2*hw + 1
		if dy > 0 {
			w *= 2
		}
		n += max(w, 0)
	}
	return n
}
