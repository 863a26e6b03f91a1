package num

import (
	"math"
	"strconv"
	"testing"
)

func TestAbs(t *testing.T) {
	for _, tt := range []struct{ v, want int }{{0, 0}, {5, 5}, {-5, 5}, {math.MaxInt, math.MaxInt}, {-math.MaxInt, math.MaxInt}} {
		if got := Abs(tt.v); got != tt.want {
			t.Errorf("Abs(%d) = %d, want %d", tt.v, got, tt.want)
		}
	}
}

func TestItoa(t *testing.T) {
	for _, v := range []int{0, 7, -7, 1000000, math.MinInt, math.MaxInt} {
		if got, want := Itoa(v), strconv.Itoa(v); got != want {
			t.Errorf("Itoa(%d) = %q, want %q", v, got, want)
		}
	}
}
