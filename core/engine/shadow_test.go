package engine

import (
	"fmt"
	"math/rand/v2"
	"testing"

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
