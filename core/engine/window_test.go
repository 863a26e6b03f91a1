package engine

import (
	"fmt"
	"reflect"
	"testing"
)

// evaluateWholeBoard answers req as evaluate does, but reads the whole board: every obstacle
// indexed and every token a candidate target, instead of the window's (setup.window).
func evaluateWholeBoard(req *Request) (*Result, *Error) {
	s, e := setupOf(req, nil)
	if e != nil {
		return nil, e
	}
	all, e := entitiesOf(req.Tokens, req.Caster) // valid: setupOf checked them
	if e != nil {
		return nil, e
	}
	return s.answer(view{tokens: all})
}

// sameAsWholeBoard checks that req gets the same answer (result or error) with the board
// indexed only in the request's window as with every obstacle indexed and every token kept:
// the window is an optimisation and must never change an answer.
func sameAsWholeBoard(t *testing.T, what string, req *Request) bool {
	t.Helper()
	win, werr := evaluate(nil, req)
	whole, herr := evaluateWholeBoard(req)
	if !reflect.DeepEqual(werr, herr) {
		t.Fatalf("%s: error with the window %v, with the whole board %v\nrequest %s", what, werr, herr, describe(req))
	}
	if !reflect.DeepEqual(win, whole) {
		t.Fatalf("%s: the window changes the answer\nwindow %+v\nwhole  %+v\nrequest %s", what, win, whole, describe(req))
	}
	return werr == nil
}

// surround adds tokens (sizes 1 … 4, some partly inside the area) and obstacles at levels
// −1 … 2 around the 12 × 12 board of randomRequest, out to 16 squares past each edge, so
// that the window leaves most of them out and cuts through some.
func surround(r interface{ IntN(int) int }, req *Request) {
	const lo, span = -16, 44
	for i := range r.IntN(20) {
		size := 1 + r.IntN(4)
		req.Tokens = append(req.Tokens, Token{ID: fmt.Sprintf("s%d", i), X: lo + r.IntN(span), Y: lo + r.IntN(span),
			Z: r.IntN(3) - 1, Size: size, Height: r.IntN(size + 1), Side: sides[r.IntN(3)], Prone: r.IntN(6) == 0})
	}
	for range r.IntN(400) {
		req.Obstacles = append(req.Obstacles, Obstacle{X: lo + r.IntN(span), Y: lo + r.IntN(span), Z: r.IntN(4) - 1,
			Fill: fills[r.IntN(len(fills))]})
	}
	// Thin walls (SPEC §5.6) on and off the grid lines, long ones across the window, fences
	// and open doors: the window indexes only those near the segments the rules draw.
	for range r.IntN(3) * r.IntN(40) {
		req.Walls = append(req.Walls, scatteredWall(r, lo, span))
	}
}

// The window (setup.window) indexes only the obstacles near the area, the caster, the origin
// and the tokens the area meets, and the walls near the segments the rules draw (those of the
// area's cells only where barriers shape the area). Every shape, rule set, cover mode and targeting trait of
// randomRequest, on a board crowded well past the window: answers equal the whole board's.
func TestWindow_SameAnswerAsWholeBoard(t *testing.T) {
	r := newRand(21)
	valid := 0
	for i := 0; i < 4000; i++ {
		req := randomRequest(r)
		surround(r, req)
		req.Cover = []CoverRules{"", "", "tdgs", "drawsteel", "none"}[r.IntN(5)]
		req.Targeting.Trait = []Trait{"", "alliesExcluded", "enemiesOnly"}[r.IntN(3)]
		if r.IntN(3) == 0 {
			req.Range = Range{Kind: "squares", Squares: 2 + r.IntN(12)}
		}
		if sameAsWholeBoard(t, fmt.Sprint("case ", i), req) {
			valid++
		}
	}
	if valid < 2000 {
		t.Errorf("only %d of 4000 requests were valid", valid)
	}
}

// Bounds only clip the answer (CONTRACT evaluate): line of effect to the cells neither inside
// them nor in a token's space is left undone (scene.needed), and that must change nothing. For
// random requests with bounds: the cells are those of the same request without bounds that lie
// inside them, and the targets are the same.
func TestBounds_OnlyClip(t *testing.T) {
	r := newRand(33)
	compared := 0
	for i := 0; i < 3000; i++ {
		req := randomRequest(r)
		surround(r, req)
		req.Bounds = &Bounds{Min: [3]int{r.IntN(6) - 2, r.IntN(6) - 2, r.IntN(2) - 1}, Max: [3]int{6 + r.IntN(8), 6 + r.IntN(8), r.IntN(2)}}
		with, werr := evaluate(nil, req)
		free := *req
		free.Bounds = nil
		without, ferr := evaluate(nil, &free)
		if werr != nil || ferr != nil {
			continue
		}
		b := req.Bounds
		var clipped [][3]int32
		for _, c := range without.Cells {
			if int(c[0]) >= b.Min[0] && int(c[0]) <= b.Max[0] && int(c[1]) >= b.Min[1] && int(c[1]) <= b.Max[1] && int(c[2]) >= b.Min[2] && int(c[2]) <= b.Max[2] {
				clipped = append(clipped, c)
			}
		}
		if clipped == nil {
			clipped = [][3]int32{}
		}
		without.Cells, without.Count = clipped, len(clipped)
		if !reflect.DeepEqual(with, without) {
			t.Fatalf("case %d: with bounds %+v\nwithout, clipped %+v\nrequest %s", i, with, without, describe(req))
		}
		compared++
	}
	if compared < 1500 {
		t.Errorf("only %d requests compared", compared)
	}
}
