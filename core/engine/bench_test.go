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

// shell is the full obstacles at Chebyshev distance d around the space of size × size × size
// anchored at a: a closed box of solid cells.
func shell(a grid.Cell, size, d int) []Obstacle {
	var out []Obstacle
	lo, hi := -d, size-1+d
	for z := lo; z <= hi; z++ {
		for y := lo; y <= hi; y++ {
			for x := lo; x <= hi; x++ {
				if x == lo || x == hi || y == lo || y == hi || z == lo || z == hi {
					out = append(out, Obstacle{X: a.X + x, Y: a.Y + y, Z: a.Z + z})
				}
			}
		}
	}
	return out
}

// lineTokens is the attack's Lin1000SE from (0, 0, 0), range 1000, its cells clipped to one by
// the bounds, with n tokens of size 100 and height 100 at (600, 0, 0): inside the line's box,
// off its cells. Each token's 10⁶ cells were looked up in a map of the line's 10⁶.
func lineTokens(n int) *Request {
	req := &Request{Template: TemplateRef{Text: "Lin1000SE"}, Caster: &Token{ID: "c"}, Range: Range{Kind: "squares", Squares: 1000},
		Bounds: &Bounds{Min: [3]int{1, 1, 0}, Max: [3]int{1, 1, 0}}}
	for i := range n {
		req.Tokens = append(req.Tokens, Token{ID: fmt.Sprint("t", i), X: 600, Size: 100, Height: 100})
	}
	return req
}

// boxedBurst is an "r burst" from a caster of size s at the origin, inside a shell of full
// obstacles at distance d around it. The Draw Steel burst's cells each needed line of effect
// from the caster's space, corner to corner: 49 segments a cell from a one-square caster,
// some 34 000 from a size-20 one.
func boxedBurst(r, s, d int) *Request {
	return &Request{Template: TemplateRef{Text: fmt.Sprint(r, " burst")}, Caster: &Token{ID: "c", Size: s},
		Obstacles: shell(grid.Cell{}, s, d)}
}

// longPush pushes a token of size 100 1000 squares east, along rows of low walls and past
// 9999 other tokens: each square's space is 10⁶ cells.
func longPush() *MoveRequest {
	push := &MoveRequest{Kind: "push", Distance: 1000, Source: Pos{-1, 50, 0}, Target: "g",
		Tokens: []Token{{ID: "g", Size: 100}}}
	for x := 0; x < 1100; x += 3 {
		push.Obstacles = append(push.Obstacles, Obstacle{X: x, Y: 101, Fill: 0.5}, Obstacle{X: x, Y: -2, Z: 50})
	}
	for i := range 9999 {
		push.Tokens = append(push.Tokens, Token{ID: fmt.Sprint("t", i), X: 1200 + i%100, Y: i / 100, Size: 1})
	}
	return push
}

// The worst cases of SPEC §8.3 (see work_test.go): requests an attack found to cost seconds to
// hours, and the heaviest the budget lets through.

func BenchmarkWorstCase_LineTokens1(b *testing.B)     { runBench(b, lineTokens(1)) }
func BenchmarkWorstCase_LineTokens20(b *testing.B)    { runBench(b, lineTokens(20)) }
func BenchmarkWorstCase_LineTokens10000(b *testing.B) { runBench(b, lineTokens(10000)) }
func BenchmarkWorstCase_Lin1000SE(b *testing.B) {
	runBench(b, &Request{Template: TemplateRef{Text: "Lin1000SE"}, Caster: &Token{ID: "c"}})
}

// BenchmarkWorstCase_Lin1000SEOnBoard is the demo's: Lin1000SE on a 60 × 60 board.
func BenchmarkWorstCase_Lin1000SEOnBoard(b *testing.B) {
	runBench(b, &Request{Template: TemplateRef{Text: "Lin1000SE"}, Caster: &Token{ID: "c", X: 5, Y: 5}, Bounds: &Bounds{Max: [3]int{59, 59, 0}}})
}
func BenchmarkWorstCase_Burst49Boxed(b *testing.B)       { runBench(b, boxedBurst(49, 1, 1)) }
func BenchmarkWorstCase_Burst49Shell5(b *testing.B)      { runBench(b, boxedBurst(49, 1, 5)) }
func BenchmarkWorstCase_Burst40Size20Shell(b *testing.B) { runBench(b, boxedBurst(40, 20, 1)) }

// BenchmarkWorstCase_Cir200h1Barriers: the heaviest walks the budget lets through: 40 401 cells
// of a TDGS circle cut by barriers (a low wall by the centre puts a solid in every segment's
// box), 3.4 × 10⁷ steps reckoned.
func BenchmarkWorstCase_Cir200h1Barriers(b *testing.B) {
	yes := true
	runBench(b, &Request{Template: TemplateRef{Text: "Cir200h1"}, Origin: &Pos{}, Barriers: &yes, Obstacles: []Obstacle{{X: 1, Fill: 0.5}}})
}

// BenchmarkWorstCase_Push1000Size100: a size-100 token pushed 1000 squares (SPEC §3.7).
func BenchmarkWorstCase_Push1000Size100(b *testing.B) { benchMove(b, longPush()) }

// BenchmarkWorstCase_PushDiagonalPastTokens: a size-100 token pushed 1000 squares south-east,
// with 9999 tokens and 18 000 obstacles in the box of its path but off its band.
func BenchmarkWorstCase_PushDiagonalPastTokens(b *testing.B) {
	push := &MoveRequest{Kind: "push", Distance: 1000, Source: Pos{-1, -1, 0}, Target: "g", Tokens: []Token{{ID: "g", Size: 100}}}
	for x := 0; x < 1100; x += 7 {
		for y := 0; y < 1100; y += 7 {
			if x-y > 150 || y-x > 150 {
				push.Obstacles = append(push.Obstacles, Obstacle{X: x, Y: y, Z: x % 100})
			}
		}
	}
	for i := range 9999 {
		push.Tokens = append(push.Tokens, Token{ID: fmt.Sprint("t", i), X: 300 + i%100, Y: 800 + i/100})
	}
	benchMove(b, push)
}

// BenchmarkWorstCase_PushDiagonalAlongObstacles: a size-100 token pushed 1000 squares
// south-east between two diagonal rows of obstacles a square from its sides, in the same
// tiles of the board's index as the layers each square adds.
func BenchmarkWorstCase_PushDiagonalAlongObstacles(b *testing.B) {
	push := &MoveRequest{Kind: "push", Distance: 1000, Source: Pos{-1, -1, 0}, Target: "g", Tokens: []Token{{ID: "g", Size: 100}}}
	for x := 0; x < 1100; x++ {
		push.Obstacles = append(push.Obstacles, Obstacle{X: x, Y: x + 101, Z: 5}, Obstacle{X: x + 101, Y: x, Z: 5})
	}
	benchMove(b, push)
}

func benchMove(b *testing.B, req *MoveRequest) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Move(req); err != nil {
			b.Fatal(err)
		}
	}
}
