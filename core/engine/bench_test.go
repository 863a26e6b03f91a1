package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// benchScene is a deterministic board: n × n squares at level 0, tokens 1×1 (one in ten
// Large), obstacles of which a third are low walls (fill 0.5), nothing overlapping. Tokens
// are placed inside the box lo … hi (the whole board when hi is zero).
func benchScene(seed uint64, n, tokens, obstacles int, lo, hi grid.Cell) *Request {
	r := rand.New(rand.NewPCG(seed, 1))
	if hi == (grid.Cell{}) {
		hi = grid.C(n-1, n-1, 0)
	}
	used := map[grid.Cell]bool{}
	req := &Request{Range: Range{Kind: "squares", Squares: 20}}
	req.Caster = &Token{ID: "caster", X: n / 2, Y: n / 2, Side: "party", Facing: "N"}
	used[grid.C(n/2, n/2, 0)] = true
	for i := 0; len(req.Tokens) < tokens; i++ {
		size := 1
		if i%10 == 9 {
			size = 2
		}
		c := grid.C(lo.X+r.IntN(hi.X-lo.X), lo.Y+r.IntN(hi.Y-lo.Y), 0)
		sp := grid.Space{Anchor: c, Size: size, Height: size}
		free := true
		sp.Cells(func(c grid.Cell) { free = free && !used[c] })
		if !free {
			continue
		}
		sp.Cells(func(c grid.Cell) { used[c] = true })
		req.Tokens = append(req.Tokens, Token{ID: fmt.Sprintf("t%d", i), X: c.X, Y: c.Y, Size: size, Side: sides[i%2]})
	}
	for i := 0; len(req.Obstacles) < obstacles; i++ {
		c := grid.C(r.IntN(n), r.IntN(n), 0)
		if used[c] {
			continue
		}
		used[c] = true
		fill := 1.0
		if len(req.Obstacles)%3 == 2 {
			fill = 0.5
		}
		req.Obstacles = append(req.Obstacles, Obstacle{X: c.X, Y: c.Y, Fill: fill})
	}
	return req
}

func runBench(b *testing.B, req *Request) {
	res := mustEvaluate(b, req)
	lines := 0
	for _, tg := range res.Targets {
		lines += len(tg.Lines)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := Evaluate(req); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time per op (all threads of the process, the GC's included): on a loaded machine
	// it says more than the wall-clock ns/op.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(res.Targets)), "targets")
	b.ReportMetric(float64(lines), "segments")
	b.ReportMetric(float64(res.Count), "cells")
}

// BenchmarkTypical: a 60×60 board, 40 tokens, 300 obstacle cells (a third low walls), Cir6
// placed 8 squares from the caster, cover for every target. Target ≤ 100 µs.
func BenchmarkTypical(b *testing.B) {
	req := benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{})
	req.Template = TemplateRef{Text: "Cir6"}
	req.Origin = &Pos{38, 30, 0}
	runBench(b, req)
}

// BenchmarkTypicalCrowded is Typical with all 40 tokens inside the circle: 40 cover checks.
func BenchmarkTypicalCrowded(b *testing.B) {
	req := benchScene(1, 60, 40, 300, grid.C(32, 24, 0), grid.C(44, 36, 0))
	req.Template = TemplateRef{Text: "Cir6"}
	req.Origin = &Pos{38, 30, 0}
	runBench(b, req)
}

// BenchmarkStress: 500×500, 2 000 tokens, 20 000 obstacle cells, Cir60h1 centred 15 squares
// from the caster. Target ≤ 2 ms.
func BenchmarkStress(b *testing.B) {
	req := benchScene(2, 500, 2000, 20000, grid.Cell{}, grid.Cell{})
	req.Template = TemplateRef{Text: "Cir60h1"}
	req.Origin = &Pos{265, 250, 0}
	runBench(b, req)
}

// BenchmarkBurstWalls: the typical board with a Draw Steel 5 burst from the caster, whose
// cells each need line of effect from the caster's space (SPEC §3.2), with cover for every
// target.
func BenchmarkBurstWalls(b *testing.B) {
	req := benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{})
	req.Template = TemplateRef{Text: "5 burst"}
	req.Range = Range{}
	runBench(b, req)
}
