package engine

import (
	"runtime"
	"testing"
)

// §8.3 (issue 29, 1): an area around a caster of many squares allocates in proportion to the
// cells it tries, not to the caster's volume. A size-98 caster's 1 aura (941 192 squares, one
// obstacle above it, bounds of one square) made a line-of-effect source for every one of its
// cells before any work was reckoned: 3.3 GB natively, and the module died of it. Counted in
// bytes, never time.
func TestBudget_8_3_BigCasterAllocatesLittle(t *testing.T) {
	for _, c := range []struct {
		name string
		req  Request
	}{
		{"1 aura, size 98", Request{Template: TemplateRef{Text: "1 aura"}, Caster: &Token{ID: "c", Size: 98, Height: 98},
			Obstacles: []Obstacle{{X: 49, Y: 49, Z: 98}}, Bounds: &Bounds{}}},
		{"1 burst, size 99", Request{Template: TemplateRef{Text: "1 burst"}, Caster: &Token{ID: "c", Size: 99, Height: 99},
			Obstacles: []Obstacle{{X: 49, Y: 49, Z: 99}}, Bounds: &Bounds{}}},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := Evaluate(&c.req)
		runtime.ReadMemStats(&after)
		checkAnswer(t, res, err)
		if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
			t.Errorf("%s: %d MB allocated, want at most 64 MB", c.name, got>>20)
		}
	}
}
