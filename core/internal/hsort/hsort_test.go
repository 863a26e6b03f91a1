package hsort

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortMatchesSlicesSort compares with the standard library on random inputs with many ties.
func TestSortMatchesSlicesSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 300; n++ {
		a := make([]int, n)
		for i := range a {
			a[i] = r.IntN(n/3 + 1)
		}
		want := slices.Clone(a)
		slices.Sort(want)
		Sort(len(a), func(i, j int) bool { return a[i] < a[j] }, func(i, j int) { a[i], a[j] = a[j], a[i] })
		if !slices.Equal(a, want) {
			t.Fatalf("n=%d: got %v, want %v", n, a, want)
		}
	}
}
