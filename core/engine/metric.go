package engine

import "github.com/aoekit/aoekit/core/grid"

// metricDist is the distance between two spaces under a metric of SPEC §8.2, from the gaps
// between them on each axis (the nearest pair of cells). chebyshev: the largest gap;
// manhattan: their sum; euclidean: the square root rounded up (so "within r" is d² ≤ r²);
// alternating (5-10-5): the largest gap plus half the others, rounded down.
func metricDist(metric Metric, a, b grid.Space) int {
	g := a.Gaps(b)
	x, y, z := g.X, g.Y, g.Z
	switch metric {
	case MetricManhattan:
		return x + y + z
	case MetricEuclidean:
		sq := x*x + y*y + z*z
		r := isqrt(sq)
		if r*r < sq {
			r++
		}
		return r
	case MetricAlternating:
		hi := max(x, y, z)
		return hi + (x+y+z-hi)/2
	}
	return max(x, y, z)
}

// isqrt is ⌊√n⌋ for n ≥ 0, by Newton's method on integers.
func isqrt(n int) int {
	if n < 2 {
		return n
	}
	r := n
	for {
		s := (r + n/r) / 2
		if s >= r {
			return r
		}
		r = s
	}
}

func validMetric(m Metric) bool {
	switch m {
	case "", MetricChebyshev, MetricManhattan, MetricEuclidean, MetricAlternating:
		return true
	}
	return false
}
