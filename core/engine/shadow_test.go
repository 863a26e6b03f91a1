package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/cover"
	"github.com/aoekit/aoekit/core/grid"
)

// TestShadow_3_2_SameAreasAsWalking holds the shared line of effect (core/shadow, used by cut
// for Draw Steel areas) to the per-cell walk it replaces, which stays the reference: on random
// boards (full blocks, low walls and steps on three levels, thin walls of every kind: on grid
// lines, diagonal, mid-square, off the grid, with limited heights, open doors) every Draw
// Steel area with barriers (SPEC §3.2, §5.3: corner to corner, one clear segment is enough)
// gives the same answer, field for field, with the field as with every segment walked
// (shadowMin past any area). Flat bounds (z 0…0), three levels and no bounds; casters of
// sizes 1 and 2; bursts, auras, cubes within range and lines. So do TDGS areas with barriers
// (centre to centre, from the origin square's centre or the caster's: a grid corner for a
// caster of size 2): circles, on an origin or on the caster, some with height, and cones.
func TestShadow_3_2_SameAreasAsWalking(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	const n = 16
	compared, cut, tdgs := 0, 0, 0
	for trial := range 240 {
		req := &Request{Caster: &Token{ID: "c", X: 4 + r.IntN(n-8), Y: 4 + r.IntN(n-8), Size: 1 + r.IntN(2)}}
		caster := grid.Space{Anchor: grid.C(req.Caster.X, req.Caster.Y, 0), Size: req.Caster.Size, Height: req.Caster.Size}
		for range r.IntN(n * n / 4) {
			c := grid.C(r.IntN(n), r.IntN(n), []int{0, 0, 0, 1, -1}[r.IntN(5)])
			if caster.Contains(c) {
				continue
			}
			fill := []float64{1, 1, 1, 0.5, 0.25, 0.9975}[r.IntN(6)]
			req.Obstacles = append(req.Obstacles, Obstacle{X: c.X, Y: c.Y, Z: c.Z, Fill: fill})
		}
		for range r.IntN(12) {
			req.Walls = append(req.Walls, scatteredWall(r, 0, n))
		}
		switch r.IntN(3) {
		case 0:
			req.Bounds = &Bounds{Max: [3]int{n - 1, n - 1, 0}}
		case 1:
			req.Bounds = &Bounds{Min: [3]int{0, 0, -1}, Max: [3]int{n - 1, n - 1, 1}}
		}
		switch r.IntN(6) {
		case 4: // TDGS with barriers: a circle on an origin (with height on some), or on the caster
			yes := true
			req.Rules, req.Barriers = "tdgs", &yes
			req.Template = TemplateRef{Text: fmt.Sprintf("Cir%d%s", 2+r.IntN(5), []string{"", "", "h1", "h2"}[r.IntN(4)])}
			if r.IntN(3) > 0 {
				req.Origin = &Pos{r.IntN(n), r.IntN(n), 0}
			}
		case 5: // TDGS with barriers: a cone from the caster
			yes := true
			req.Rules, req.Barriers = "tdgs", &yes
			req.Template = TemplateRef{Text: fmt.Sprintf("Con%d%s", 3+r.IntN(6), []string{"N", "NE", "E", "SE", "S", "SW", "W", "NW"}[r.IntN(8)])}
		case 0, 1:
			req.Template = TemplateRef{Text: fmt.Sprintf("%d burst", 2+r.IntN(5))}
		case 2:
			req.Template = TemplateRef{Text: fmt.Sprintf("%d aura", 2+r.IntN(4))}
		default:
			req.Template = TemplateRef{Text: fmt.Sprintf("%d cube within 10", 4+r.IntN(4))}
			req.Origin = &Pos{r.IntN(n - 4), r.IntN(n - 4), 0}
		}
		with, errWith := Evaluate(req)
		saved := shadowMin
		shadowMin = 1 << 62
		without, errWithout := Evaluate(req)
		shadowMin = saved
		what := fmt.Sprintf("trial %d, %s from %+v, %d obstacles, %d walls, bounds %+v", trial, req.Template.Text, *req.Caster, len(req.Obstacles), len(req.Walls), req.Bounds)
		if (errWith == nil) != (errWithout == nil) || errWith != nil && errWith.Error() != errWithout.Error() {
			t.Fatalf("%s: errors differ: %v / %v", what, errWith, errWithout)
		}
		if errWith != nil {
			continue
		}
		sameResult(t, what, with, without)
		compared++
		if req.Rules == "tdgs" {
			tdgs++
		}
		open := *req
		no := false
		open.Barriers = &no
		if all := mustEvaluate(t, &open); all.Count > with.Count {
			cut++
		}
	}
	// Most trials must answer, and barriers must cut most areas, or the comparison says little.
	if compared < 180 || cut < compared/2 || tdgs < 40 {
		t.Errorf("%d of 240 trials answered (%d of them TDGS), %d of them cut by barriers", compared, tdgs, cut)
	}
	t.Logf("%d areas compared (%d TDGS), %d cut by barriers", compared, tdgs, cut)
}

// §3.2: "for an area centred on the caster the origin is the caster's whole space: line of
// effect from any of its cells counts". A Large caster (cells x 5…6, y 10…11) south of a row
// of blocks with a gap at x = 5: its cell (5, 10) sees (6, 8) through the gap (edge-on, by its
// north-west corner to the square's west face), as a caster of that one cell does, though the
// whole 2 × 2 space, face-on to (6, 8), turns only its north face toward it, whose corners see
// only the south face of (6, 8). The square is in the burst, and the token on it in the area.
func TestArea_3_2_FromAnyCellOfTheCaster(t *testing.T) {
	var row []Obstacle
	for x := range 10 {
		if x != 5 {
			row = append(row, Obstacle{X: x, Y: 9, Fill: 1})
		}
	}
	bounds := &Bounds{Max: [3]int{19, 19, 0}}
	for _, size := range []int{1, 2} {
		res, err := Evaluate(&Request{Template: TemplateRef{Text: "2 burst"}, Caster: &Token{ID: "c", X: 5, Y: 10, Size: size},
			Tokens: []Token{{ID: "t", X: 6, Y: 8}}, Obstacles: row, Bounds: bounds})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(res.Cells, [3]int32{6, 8, 0}) {
			t.Errorf("size %d: (6, 8, 0) not in the burst: %v", size, res.Cells)
		}
		for _, tg := range res.Targets {
			if tg.ID == "t" && (!tg.InArea || tg.Reason == "barrier") {
				t.Errorf("size %d: t %+v, want in the area (its cover, from the space's centre, is §5.4's)", size, tg)
			}
		}
	}
}

// Property (§3.2, §5.3): a Draw Steel burst or aura around a caster of size 1 to 3 holds
// exactly the squares of its shape that are no full obstacle and that some cell of the
// caster sees corner to corner (cover.CornerLine, cell by cell), on random boards with
// blocks, low walls and thin walls; flat and on three levels. The reference asks every pair
// of cells; the engine shares the work (core/shadow) and stops at the first clear segment.
func TestArea_3_2_BurstIsWhatSomeCasterCellSees(t *testing.T) {
	r := rand.New(rand.NewPCG(32, 7))
	const n = 14
	extra := 0
	for trial := range 120 {
		size := 1 + trial%3
		req := &Request{Caster: &Token{ID: "c", X: 4 + r.IntN(n-8), Y: 4 + r.IntN(n-8), Size: size, Height: 1 + r.IntN(size)}}
		caster := grid.Space{Anchor: grid.C(req.Caster.X, req.Caster.Y, 0), Size: size, Height: req.Caster.Height}
		for range r.IntN(n * n / 3) {
			c := grid.C(r.IntN(n), r.IntN(n), []int{0, 0, 0, 1, -1}[r.IntN(5)])
			if !caster.Contains(c) {
				req.Obstacles = append(req.Obstacles, Obstacle{X: c.X, Y: c.Y, Z: c.Z, Fill: []float64{1, 1, 0.5, 0.25}[r.IntN(4)]})
			}
		}
		for range r.IntN(8) {
			req.Walls = append(req.Walls, scatteredWall(r, 0, n))
		}
		x := 1 + r.IntN(3)
		req.Template = TemplateRef{Text: fmt.Sprintf("%d %s", x, []string{"burst", "aura"}[r.IntN(2)])}
		zlo, zhi := -x, caster.Height-1+x
		if trial%2 == 0 {
			req.Bounds, zlo, zhi = &Bounds{Min: [3]int{-20, -20, 0}, Max: [3]int{40, 40, 0}}, 0, 0
		}
		res, err := Evaluate(req)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		var cells []board.Solid
		for _, o := range req.Obstacles {
			cells = append(cells, board.Solid{Cell: grid.C(o.X, o.Y, o.Z), Fill: int(o.Fill * board.Full)})
		}
		ws, werr := checkWalls(req.Walls, nil)
		if werr != nil {
			t.Fatal(werr)
		}
		s := terrainOf(board.New(cells), ws)
		got := map[[3]int32]bool{}
		for _, c := range res.Cells {
			got[c] = true
		}
		b := caster.Box()
		for z := max(b.Min.Z-x, zlo); z <= min(b.Max.Z+x, zhi); z++ {
			for y := b.Min.Y - x; y <= b.Max.Y+x; y++ {
				for xx := b.Min.X - x; xx <= b.Max.X+x; xx++ {
					c := grid.C(xx, y, z)
					want := !s.IsFull(c) && cover.AnyCellLine(caster, grid.Unit(c), s)
					if got[[3]int32{int32(xx), int32(y), int32(z)}] != want {
						t.Fatalf("trial %d, %s from %+v: cell %v in the area %v, want %v", trial, req.Template.Text, caster, c, !want, want)
					}
					if want && !cover.CornerLine(caster, grid.Unit(c), s) {
						extra++
					}
				}
			}
		}
	}
	if extra == 0 {
		t.Errorf("no square seen from a cell of the caster and not from its whole space: the boards test nothing")
	}
	t.Logf("%d squares seen only from a cell of the caster", extra)
}
