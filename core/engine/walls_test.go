package engine

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// Thin walls (SPEC §5.6). Coordinates in the comments are lattice units (SPEC §5.1, 400 to a
// square): the grid line x = k is at 400k, the centre of cell (x, y, z) is (400x+200,
// 400y+200, 400z+200), and a cell's inset corners sit at 400k+1 and 400k+399 (§5.4). A
// Wall's a, b are given in squares and its bottom and top in levels, so the wall on the grid
// line x = 4 stands at 1600, and a fence with top 0.5 reaches up to z = 200.
//
// §5.6: a segment P → Q is blocked by a wall when their plane projections meet in exactly one
// point X — the wall's ends included, P and Q excluded — and the segment's height at X lies
// in [bottom, top].

// ---- Helpers ----

func fp(v float64) *float64 { return &v }

// wl is a closed wall of unlimited height from (ax, ay) to (bx, by), in squares.
func wl(ax, ay, bx, by float64) Wall { return Wall{A: [2]float64{ax, ay}, B: [2]float64{bx, by}} }

// door is an open wall from (ax, ay) to (bx, by): an open door.
func door(ax, ay, bx, by float64) Wall {
	w := wl(ax, ay, bx, by)
	w.Open = true
	return w
}

// spanning is w from level bottom to level top (nil: without limit).
func spanning(w Wall, bottom, top *float64) Wall {
	w.Bottom, w.Top = bottom, top
	return w
}

// column is the full obstacles (x, y, z) for y in y0 … y1 and z in z0 … z1: a straight
// row of solid cells along the y axis.
func column(x, y0, y1, z0, z1 int) []Obstacle {
	var out []Obstacle
	for z := z0; z <= z1; z++ {
		for y := y0; y <= y1; y++ {
			out = append(out, Obstacle{X: x, Y: y, Z: z, Fill: 1})
		}
	}
	return out
}

// sees reports whether the TDGS centre-to-centre segment from cell from to cell to is clear
// of the walls: the originVisible of a Cir1h1 placed at to by a caster at from (SPEC §2.9:
// under tdgs, the centre-to-centre line of §5.3 from the caster's cell). No obstacles, so
// only the walls can block it.
func sees(t testing.TB, from, to grid.Cell, ws ...Wall) bool {
	t.Helper()
	req := &Request{
		Template: TemplateRef{Text: "Cir1h1"},
		Caster:   &Token{ID: "c", X: from.X, Y: from.Y, Z: from.Z},
		Origin:   &Pos{to.X, to.Y, to.Z},
		Walls:    ws,
	}
	return mustEvaluate(t, req).OriginVisible
}

// sameResult fails the test unless a and b are the same answer, field for field.
func sameResult(t testing.TB, what string, a, b any) {
	t.Helper()
	if !reflect.DeepEqual(a, b) {
		t.Errorf("%s: the answers differ\n\tfirst:  %s\n\tsecond: %s", what, brief(a), brief(b))
	}
}

// brief is an answer in a line or a few, for failure messages.
func brief(v any) string {
	switch r := v.(type) {
	case *Result:
		var ts []string
		for _, tg := range r.Targets {
			ts = append(ts, summary(tg))
		}
		return fmt.Sprintf("count=%d visible=%v cells=%v targets=[%s]", r.Count, r.OriginVisible, r.Cells, strings.Join(ts, "; "))
	case *MoveResult:
		return fmt.Sprintf("path=%v end=%v collision=%+v", r.Path, r.End, r.Collision)
	case *CoverResult:
		return fmt.Sprintf("grade=%s bonus=%d blocked=%d/%d from=%v", r.Grade, r.Bonus, r.Blocked, r.Total, r.From)
	}
	return fmt.Sprintf("%+v", v)
}

func mustMove(t testing.TB, req *MoveRequest) *MoveResult {
	t.Helper()
	res, err := Move(req)
	if err != nil {
		t.Fatalf("Move: %v", err)
	}
	return res
}

func mustCover(t testing.TB, req *CoverRequest) *CoverResult {
	t.Helper()
	res, err := Cover(req)
	if err != nil {
		t.Fatalf("Cover: %v", err)
	}
	return res
}

// checkCollision compares a move's path, end and collision with what a test expects.
func checkCollision(t testing.TB, what string, res *MoveResult, path [][3]int32, end Pos, c *Collision) {
	t.Helper()
	if !slices.Equal(res.Path, path) || res.End != end {
		t.Errorf("%s: path %v end %v, want %v ending at %v", what, res.Path, res.End, path, end)
	}
	switch {
	case c == nil && res.Collision != nil:
		t.Errorf("%s: collision %+v, want none", what, *res.Collision)
	case c != nil && (res.Collision == nil || *res.Collision != *c):
		t.Errorf("%s: collision %+v, want %+v", what, res.Collision, *c)
	}
}

// ---- An independent reference (SPEC §5.6, §4.1, §4.3, §3.2, §5.3) ----
//
// Written from the rule book with exact rationals (math/big), not with core/walls' cross
// products: the lines of two segments meet at X = P + t·(Q − P) = A + u·(B − A); the wall
// blocks when 0 < t < 1 (P and Q excluded), 0 ≤ u ≤ 1 (its ends included) and the height at
// X lies in [bottom, top]. Parallel or collinear projections, and a vertical segment (whose
// projection is one point, P's and Q's), never meet in exactly one point other than P or Q:
// not blocked.

// latticeOfCoord is a coordinate the tests give exactly as n/400, in lattice units.
func latticeOfCoord(v float64) int64 { return int64(math.Round(v * 400)) }

func refWallBlocks(p, q [3]int64, w Wall) bool {
	if w.Open {
		return false
	}
	a := [2]int64{latticeOfCoord(w.A[0]), latticeOfCoord(w.A[1])}
	b := [2]int64{latticeOfCoord(w.B[0]), latticeOfCoord(w.B[1])}
	cross := func(x0, y0, x1, y1 int64) *big.Int {
		return new(big.Int).Sub(new(big.Int).Mul(big.NewInt(x0), big.NewInt(y1)), new(big.Int).Mul(big.NewInt(y0), big.NewInt(x1)))
	}
	dx, dy := q[0]-p[0], q[1]-p[1]
	ex, ey := b[0]-a[0], b[1]-a[1]
	den := cross(dx, dy, ex, ey)
	if den.Sign() == 0 {
		return false
	}
	apx, apy := a[0]-p[0], a[1]-p[1]
	t := new(big.Rat).SetFrac(cross(apx, apy, ex, ey), den)
	u := new(big.Rat).SetFrac(cross(apx, apy, dx, dy), den)
	zero, one := new(big.Rat), big.NewRat(1, 1)
	if t.Cmp(zero) <= 0 || t.Cmp(one) >= 0 || u.Cmp(zero) < 0 || u.Cmp(one) > 0 {
		return false
	}
	z := new(big.Rat).Mul(t, big.NewRat(q[2]-p[2], 1))
	z.Add(z, big.NewRat(p[2], 1))
	if w.Bottom != nil && z.Cmp(big.NewRat(latticeOfCoord(*w.Bottom), 1)) < 0 {
		return false
	}
	if w.Top != nil && z.Cmp(big.NewRat(latticeOfCoord(*w.Top), 1)) > 0 {
		return false
	}
	return true
}

func refWallsBlock(p, q [3]int64, ws []Wall) bool {
	for _, w := range ws {
		if refWallBlocks(p, q, w) {
			return true
		}
	}
	return false
}

func centre3(c grid.Cell) [3]int64 {
	return [3]int64{int64(c.X)*400 + 200, int64(c.Y)*400 + 200, int64(c.Z)*400 + 200}
}

func latticePoint(p [3]float64) [3]int64 {
	return [3]int64{latticeOfCoord(p[0]), latticeOfCoord(p[1]), latticeOfCoord(p[2])}
}

// refDisc reports whether the cell (dx, dy) from the centre belongs to circle x (SPEC §4.1):
// at least half of its area lies in the disc of radius x + ½ about the centre cell's centre.
// The area is integrated with the midpoint rule over 20 000 strips, the chord's length exact
// in each: its error is far below the 1.47 × 10⁻⁴ by which §4.1 says every cell misses half.
var refDiscMemo = map[[3]int]bool{}

func refDisc(x, dx, dy int) bool {
	k := [3]int{x, dx, dy}
	if v, ok := refDiscMemo[k]; ok {
		return v
	}
	r := float64(x) + 0.5
	x0 := float64(dx) - 0.5
	y0, y1 := float64(dy)-0.5, float64(dy)+0.5
	const n = 20000
	area := 0.0
	for i := range n {
		u := x0 + (float64(i)+0.5)/n
		if math.Abs(u) >= r {
			continue
		}
		s := math.Sqrt(r*r - u*u)
		if l := min(y1, s) - max(y0, -s); l > 0 {
			area += l / n
		}
	}
	refDiscMemo[k] = area >= 0.5
	return area >= 0.5
}

// refCircle50 is SPEC §4.3 with §5.6: the cells of circle x about o that are not full
// obstacles and are reached from o across shared sides (4-connected), a step stopped when a
// wall blocks the segment between the two cells' centres at the level's mid-height.
func refCircle50(x int, o grid.Cell, full map[grid.Cell]bool, ws []Wall) map[grid.Cell]bool {
	in := map[grid.Cell]bool{}
	if full[o] {
		return in
	}
	in[o] = true
	stack := []grid.Cell{o}
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range []grid.Cell{{X: 1}, {X: -1}, {Y: 1}, {Y: -1}} {
			n := c.Add(d)
			if in[n] || full[n] || !refDisc(x, n.X-o.X, n.Y-o.Y) || refWallsBlock(centre3(c), centre3(n), ws) {
				continue
			}
			in[n] = true
			stack = append(stack, n)
		}
	}
	return in
}

// refTurnedCorners lists the inset corners (SPEC §5.4) of cell c on its faces turned toward
// cell o: on each axis where o lies wholly past c's low (high) face, the corners at 400c+1
// (400c+399) on that axis.
func refTurnedCorners(c, o grid.Cell) [][3]int64 {
	cc, oc := [3]int{c.X, c.Y, c.Z}, [3]int{o.X, o.Y, o.Z}
	var out [][3]int64
	for k := range 8 {
		var p [3]int64
		on := false
		for a := range 3 {
			up := k>>a&1 == 1
			p[a] = int64(cc[a])*400 + 1
			if up {
				p[a] = int64(cc[a])*400 + 399
			}
			if oc[a] < cc[a] && !up || oc[a] > cc[a] && up {
				on = true
			}
		}
		if on {
			out = append(out, p)
		}
	}
	return out
}

// refBurstCells is SPEC §3.2, §3.3 and §5.3 (drawsteel) on a board whose only barriers are
// walls: the cells of level 0 within k of the one-square caster c that are c itself or have
// a corner-to-corner segment, between corners of the faces the two cells turn toward each
// other, that no wall blocks.
func refBurstCells(k int, c grid.Cell, ws []Wall) map[grid.Cell]bool {
	in := map[grid.Cell]bool{}
	for y := c.Y - k; y <= c.Y+k; y++ {
		for x := c.X - k; x <= c.X+k; x++ {
			t := grid.C(x, y, 0)
			if t == c {
				in[t] = true
				continue
			}
		pairs:
			for _, p := range refTurnedCorners(c, t) {
				for _, q := range refTurnedCorners(t, c) {
					if !refWallsBlock(p, q, ws) {
						in[t] = true
						break pairs
					}
				}
			}
		}
	}
	return in
}

// refTDGSBarrierCells is SPEC §3.2 under tdgs with barriers (§6): the cells of CirKh1 about
// o whose centre the segment from o's centre reaches past every wall.
func refTDGSBarrierCells(k int, o grid.Cell, ws []Wall) map[grid.Cell]bool {
	in := map[grid.Cell]bool{}
	for y := o.Y - k; y <= o.Y+k; y++ {
		for x := o.X - k; x <= o.X+k; x++ {
			if t := grid.C(x, y, o.Z); !refWallsBlock(centre3(o), centre3(t), ws) {
				in[t] = true
			}
		}
	}
	return in
}

// The reference's own check: §4.1's table of cells per circle.
func TestWalls_4_1_ReferenceDiscCounts(t *testing.T) {
	for x, want := range map[int]int{1: 9, 2: 21, 3: 37, 4: 69, 5: 97, 6: 137, 7: 177, 8: 225} {
		n := 0
		for dy := -x; dy <= x; dy++ {
			for dx := -x; dx <= x; dx++ {
				if refDisc(x, dx, dy) {
					n++
				}
			}
		}
		if n != want {
			t.Errorf("circle %d: the reference counts %d cells, §4.1 says %d", x, n, want)
		}
	}
}

// The reference's own check, on the points §5.6 spells out.
func TestWalls_5_6_ReferenceBlocking(t *testing.T) {
	mid := func(x, y int64) [3]int64 { return [3]int64{x, y, 200} }
	w := wl(3, 0, 3, 3) // x = 1200, y ∈ [0, 1200]
	for _, c := range []struct {
		name string
		p, q [3]int64
		w    Wall
		want bool
	}{
		{"crosses the middle", mid(1000, 600), mid(1400, 600), w, true},
		{"through the end", mid(1000, 1000), mid(1400, 1400), w, true},
		{"just past the end", mid(1000, 1002), mid(1400, 1402), w, false},
		{"ends on the wall", mid(1000, 600), mid(1200, 600), w, false},
		{"starts on the wall", mid(1200, 600), mid(1400, 600), w, false},
		{"runs along it", mid(1200, -400), mid(1200, 2000), w, false},
		{"vertical, on it", [3]int64{1200, 600, 0}, [3]int64{1200, 600, 800}, w, false},
		{"open", mid(1000, 600), mid(1400, 600), door(3, 0, 3, 3), false},
		{"top 0.5 at z 200", mid(1000, 600), mid(1400, 600), spanning(w, nil, fp(0.5)), true},
		{"top 0.4975 at z 200", mid(1000, 600), mid(1400, 600), spanning(w, nil, fp(0.4975)), false},
		{"bottom 0.5 at z 200", mid(1000, 600), mid(1400, 600), spanning(w, fp(0.5), nil), true},
		{"bottom 0.5025 at z 200", mid(1000, 600), mid(1400, 600), spanning(w, fp(0.5025), nil), false},
	} {
		if got := refWallBlocks(c.p, c.q, c.w); got != c.want {
			t.Errorf("%s: reference says %v, §5.6 says %v", c.name, got, c.want)
		}
	}
}

// ---- 1. A wall on a grid line and a row of full obstacles ----

// §3.2, §5.2, §5.3, §5.6: a Draw Steel 3 burst from C at (2, 3), with a wall along the whole
// grid line x = 4 (y from −2 to 8: 1600, y ∈ [−800, 3200]), gives the very answer of a row of
// full obstacles in the cells (4, y, z) just past the line, y −2 … 7 and z −3 … 3 (the
// burst's levels, §3.3): the row's near face is the wall's line.
//
// The burst's box is x −1 … 5, y 0 … 6, z −3 … 3. The caster's corners have x ∈ [801, 1199];
// a cell's corners on its faces turned toward the caster (§5.3) have x ≤ 400·3 + 399 = 1599
// for the cells x ≤ 3 and x ≥ 1601 for x ≥ 4.
//   - x ≤ 3: every segment stays at x < 1600; it meets neither the wall nor the row: clear
//     (the board is otherwise empty), in the area in both requests.
//   - x = 4: a full obstacle never belongs (§3.2). With the wall: every segment goes from
//     x < 1600 to x > 1600 and crosses the line once, at a y between its ends, in (0, 2800),
//     inside the wall: blocked, out.
//   - x = 5: the wall blocks as above; the row: the segment passes the open slab
//     1600 < x < 2000 at y ∈ (0, 2800) ⊂ (−800, 3200) and z ∈ [−1199, 1599] ⊂ (−1200, 1600):
//     inside the row. Out in both.
//
// 5 columns × 7 rows × 7 levels = 245 cells. The tokens: a at (3, 3), flush against the wall
// (its cell is not in the wall), in the area and clear — its four lines from the caster's
// centre (1000, 1400, 200) to its west face x = 1201 stay at x < 1600; b at (5, 2), cut off
// (reason barrier); c at (1, 5), clear.
func TestWalls_5_6_GridLineWallIsAnObstacleRowPastIt(t *testing.T) {
	s := parseScene(t, `
		.......
		.......
		.....b.
		..Ca...
		.......
		.c.....
		.......
	`)
	walled := s.request("3 burst")
	walled.Walls = []Wall{wl(4, -2, 4, 8)}
	blocks := s.request("3 burst")
	blocks.Obstacles = column(4, -2, 7, -3, 3)
	res := mustEvaluate(t, walled)
	sameResult(t, "wall on x = 4 vs full obstacles in the cells x = 4", res, mustEvaluate(t, blocks))
	if res.Count != 245 {
		t.Errorf("count %d, want 245 (x −1 … 3, y 0 … 6, z −3 … 3)", res.Count)
	}
	checkTarget(t, targetOf(t, res, "a"), want{inArea: true, affected: true, cover: "none", lines: 4})
	checkTarget(t, targetOf(t, res, "b"), want{reason: "barrier", cover: "none"})
	checkTarget(t, targetOf(t, res, "c"), want{inArea: true, affected: true, cover: "none", lines: 6})

	// Where the geometry differs, so does the answer: a row in the cells x = 3, on the near
	// side of the line, would have to hold a's cell, and it takes the whole column x = 3 out of
	// the area (and with it, the shadow x ≥ 4): 4 × 7 × 7 = 196 cells. With the wall the
	// cells (3, y, 0) are in.
	near := s.request("3 burst")
	near.Tokens = slices.DeleteFunc(near.Tokens, func(tk Token) bool { return tk.ID == "a" })
	near.Obstacles = column(3, -2, 7, -3, 3)
	nres := mustEvaluate(t, near)
	if nres.Count != 196 {
		t.Errorf("row at x = 3: count %d, want 196", nres.Count)
	}
	cells := ints(res.Cells)
	for y := 0; y <= 6; y++ {
		if !slices.Contains(cells, [3]int{3, y, 0}) {
			t.Errorf("with the wall, (3, %d, 0), flush against it, must be in the area", y)
		}
		if slices.Contains(ints(nres.Cells), [3]int{3, y, 0}) {
			t.Errorf("with the row at x = 3, its cell (3, %d, 0) must be out", y)
		}
	}
}

// §2.1, §5.4, §5.5, §5.6: TDGS cover, Cir5h1 about O = (2, 3) (source (1000, 1400, 200)),
// with a wall on the grid line x = 4 from y = −10 to y = 3 (1600, y ∈ [−4000, 1200]: its free
// end at (1600, 1200)) and with the full obstacles (4, y, 0), y −10 … 2, instead (x ∈ [1600,
// 2000], y ∈ [−4000, 1200]). TDGS areas ignore both (§2.1): the same 121 cells. Every target
// line has z ∈ [121, 399], inside the row's level.
//   - a (3, 3), flush against the wall: west face, 4 lines at x = 1201 < 1600: none.
//   - b (6, 2): west and south faces turned (6 points: (2401, 801), (2401, 1199), (2799,
//     1199) at z 121 and 399). At x = 1600 the line to (2401, 801) is at y = 1400 −
//     599·600/1401 = 1143.5 ≤ 1200: the wall blocks it, and just past 1600 it is inside the
//     row. The line to (2401, 1199) is at 1313.9 there and 1256.5 at x = 2000; to (2799,
//     1199), 1333.0 and 1288.3: above 1200 all the way, clear for both. 2 of 6, f = ⅓:
//     partial, +2.
//   - c (6, 4): west and north faces; every line heads south from y = 1400: clear. 0 of 6.
//   - d (7, 3): west face; to (2801, 1201) the line is at 1333.7 at x = 1600 and 1289.5 at
//     x = 2000: clear. 0 of 4.
//   - e (5, 0): west and south faces; at x = 1600 the lines to (2001, 1), (2001, 399),
//     (2399, 399) are at y = 561.4, 800, 970.7: all blocked by both. 6 of 6: full, not
//     affected (reason cover).
//
// No line crosses x = 1600 above y = 1200 and then dips under it before x = 2000, which is
// where the wall's free end and the row's corner would part: the two answers are the same.
func TestWalls_5_6_TDGSCoverWallAsObstacleRow(t *testing.T) {
	tokens := []Token{{ID: "a", X: 3, Y: 3}, {ID: "b", X: 6, Y: 2}, {ID: "c", X: 6, Y: 4}, {ID: "d", X: 7, Y: 3}, {ID: "e", X: 5, Y: 0}}
	req := func() *Request {
		return &Request{Template: TemplateRef{Text: "Cir5h1"}, Origin: &Pos{2, 3, 0}, Tokens: slices.Clone(tokens)}
	}
	walled := req()
	walled.Walls = []Wall{wl(4, -10, 4, 3)}
	blocks := req()
	blocks.Obstacles = column(4, -10, 2, 0, 0)
	res := mustEvaluate(t, walled)
	sameResult(t, "wall x = 4 ending at y = 3 vs obstacles (4, −10 … 2)", res, mustEvaluate(t, blocks))
	sameResult(t, "TDGS cells ignore walls (§2.1)", res.Cells, mustEvaluate(t, req()).Cells)
	checkTarget(t, targetOf(t, res, "a"), want{inArea: true, affected: true, cover: "none", lines: 4})
	checkTarget(t, targetOf(t, res, "b"), want{inArea: true, affected: true, cover: "partial", bonus: 2, blocked: 2, lines: 6})
	checkTarget(t, targetOf(t, res, "c"), want{inArea: true, affected: true, cover: "none", lines: 6})
	checkTarget(t, targetOf(t, res, "d"), want{inArea: true, affected: true, cover: "none", lines: 4})
	checkTarget(t, targetOf(t, res, "e"), want{inArea: true, reason: "cover", cover: "full", blocked: 6, lines: 6})

	// A fence: the wall along the whole line x = 4 with top 0.5 (z ≤ 200) and the row of
	// obstacles with fill 0.5. A line from the source (z 200) to a low point (z 121) is below
	// 200 everywhere past its start, so it is under the fence's top where it crosses x = 1600
	// and inside the half-filled row just past it; a line to a high point (z 399) is above 200
	// everywhere past its start: clear of both. d: 2 of 4, f = ½: half, +4; b: 3 of 6, half.
	fence := req()
	fence.Walls = []Wall{spanning(wl(4, -10, 4, 14), nil, fp(0.5))}
	low := req()
	for _, o := range column(4, -10, 13, 0, 0) {
		o.Fill = 0.5
		low.Obstacles = append(low.Obstacles, o)
	}
	res = mustEvaluate(t, fence)
	sameResult(t, "fence top 0.5 vs low wall fill 0.5", res, mustEvaluate(t, low))
	checkTarget(t, targetOf(t, res, "d"), want{inArea: true, affected: true, cover: "half", bonus: 4, blocked: 2, lines: 4})
	checkTarget(t, targetOf(t, res, "b"), want{inArea: true, affected: true, cover: "half", bonus: 4, blocked: 3, lines: 6})
}

// ---- 2. Ends, corners, doors, heights, off-grid walls ----

// §5.6: two walls that meet at a corner leave no gap. W1 runs north from the corner
// (1200, 1200) to (1200, 0), W2 east from it to (2400, 1200). The centre line from (3, 2) to
// (2, 3), (1400, 1000) → (1000, 1400), runs on x + y = 2400 through the corner itself, a
// point of both walls (their ends): blocked. The line from (2, 2) to (3, 3) passes the same
// corner from the other side: blocked too. So does a line through the joint of two walls end
// to end on one line, x = 2000: (4, 2) → (5, 3), (1800, 1000) → (2200, 1400), through
// (2000, 1200).
func TestWalls_5_6_CornerNoGap(t *testing.T) {
	w1, w2 := wl(3, 0, 3, 3), wl(3, 3, 6, 3)
	c := func(x, y int) grid.Cell { return grid.C(x, y, 0) }
	if !sees(t, c(3, 2), c(2, 3)) {
		t.Fatal("the empty board must be clear")
	}
	for _, ws := range [][]Wall{{w1, w2}, {w1}, {w2}} {
		if sees(t, c(3, 2), c(2, 3), ws...) {
			t.Errorf("(3,2) → (2,3) through the corner of %v: clear, want blocked", ws)
		}
		if sees(t, c(2, 2), c(3, 3), ws...) {
			t.Errorf("(2,2) → (3,3) through the corner of %v: clear, want blocked", ws)
		}
	}
	for _, ws := range [][]Wall{{wl(5, 0, 5, 3), wl(5, 3, 5, 6)}, {wl(5, 0, 5, 3)}, {wl(5, 3, 5, 6)}} {
		if sees(t, c(4, 2), c(5, 3), ws...) {
			t.Errorf("(4,2) → (5,3) through the joint of %v: clear, want blocked", ws)
		}
	}
}

// §5.6: a segment grazing a free end of a wall is blocked (the ends are included); one that
// passes a lattice unit beside the end is not. The wall runs south from (1200, 1200); the
// line (2, 2) → (3, 3) is on y = x and meets x = 1200 at y = 1200, the end. With the end at
// 3.0025 (1201) the line passes above it.
func TestWalls_5_6_GrazingAFreeEnd(t *testing.T) {
	from, to := grid.C(2, 2, 0), grid.C(3, 3, 0)
	if sees(t, from, to, wl(3, 3, 3, 6)) {
		t.Error("grazing the wall's end at (3, 3): clear, want blocked (ends included)")
	}
	if sees(t, from, to, wl(3, 6, 3, 3)) {
		t.Error("the same wall drawn b → a: clear, want blocked")
	}
	if !sees(t, from, to, wl(3, 3.0025, 3, 6)) {
		t.Error("the end at y = 3.0025, 1/400 past the line: blocked, want clear")
	}
}

// §5.6: a segment that meets a wall only at one of its own ends, or runs along the wall's
// line, is not blocked. The wall x = 2.5 (1000) passes through the centre (1000, 1000) of
// (2, 2), the start of the line (2, 2) → (4, 2); the wall y = 2.5 lies under the whole line
// (1, 2) → (5, 2), y = 1000.
func TestWalls_5_6_EndsOfTheSegmentAndAlongTheWall(t *testing.T) {
	if !sees(t, grid.C(2, 2, 0), grid.C(4, 2, 0), wl(2.5, 0, 2.5, 5)) {
		t.Error("a wall through the segment's start: blocked, want clear")
	}
	if !sees(t, grid.C(0, 2, 0), grid.C(2, 2, 0), wl(2.5, 0, 2.5, 5)) {
		t.Error("a wall through the segment's end: blocked, want clear")
	}
	for _, w := range []Wall{wl(0, 2.5, 10, 2.5), wl(3, 2.5, 4, 2.5), wl(1.5, 2.5, 2, 2.5)} {
		if !sees(t, grid.C(1, 2, 0), grid.C(5, 2, 0), w) {
			t.Errorf("a segment along the wall %v: blocked, want clear", w)
		}
	}
	// The same line crossing a wall is blocked: the control.
	if sees(t, grid.C(1, 2, 0), grid.C(5, 2, 0), wl(3, 0, 3, 5)) {
		t.Error("the line across x = 3: clear, want blocked")
	}
}

// §5.6: an open door blocks nothing: every answer is the one without it.
func TestWalls_5_6_OpenDoorChangesNothing(t *testing.T) {
	s := parseScene(t, `
		.......
		..C..a.
		.......
		..b....
	`)
	for _, tmpl := range []string{"3 burst", "Cir3h1", "circle 3"} {
		plain := s.request(tmpl)
		plain.Origin = &Pos{2, 1, 0}
		open := s.request(tmpl)
		open.Origin = &Pos{2, 1, 0}
		open.Walls = []Wall{door(4, -5, 4, 5), door(0, 2, 6, 2)}
		sameResult(t, tmpl+" with open doors", mustEvaluate(t, plain), mustEvaluate(t, open))
	}
	mv := &MoveRequest{Kind: "push", Distance: 3, Source: Pos{2, 1, 0}, Target: "a", Tokens: s.tokens}
	plain := mustMove(t, mv)
	mv.Walls = []Wall{door(6, 0, 6, 3)}
	sameResult(t, "push through an open door", plain, mustMove(t, mv))
	cr := &CoverRequest{Attack: AttackRanged, Attacker: Attacker{X: 2, Y: 1}, Target: Token{ID: "a", X: 5, Y: 1}}
	cplain := mustCover(t, cr)
	cr.Walls = []Wall{door(4, -5, 4, 5)}
	sameResult(t, "cover past an open door", cplain, mustCover(t, cr))
}

// §5.6 heights: a wall blocks where the segment's height at the crossing lies in
// [bottom, top], both ends included. A centre-to-centre line on level 0 is at z = 200, half a
// level: a fence with top 0.5 blocks it, one with top 0.49 (196) or 0.4975 (199) does not; a
// wall with bottom 0.5 blocks it, one with bottom 0.5025 (201) or 0.51 does not. On level 1 the
// line is at 600: a wall from 1 to 2 blocks it and not the line on level 0. From level 0 to
// level 1, (1, 2, 0) → (4, 2, 1), the line rises from 200 to 600 and crosses x = 3 (1200)
// halfway, at z = 400: top 1 blocks, top 0.9975 does not; bottom 1 blocks, bottom 1.0025
// does not.
func TestWalls_5_6_Heights(t *testing.T) {
	line := wl(3, -5, 3, 10)
	flat0, flat1 := [2]grid.Cell{grid.C(1, 2, 0), grid.C(4, 2, 0)}, [2]grid.Cell{grid.C(1, 2, 1), grid.C(4, 2, 1)}
	rising := [2]grid.Cell{grid.C(1, 2, 0), grid.C(4, 2, 1)}
	for _, c := range []struct {
		name        string
		seg         [2]grid.Cell
		bottom, top *float64
		blocked     bool
	}{
		{"level 0, unlimited", flat0, nil, nil, true},
		{"level 0, top 0.5", flat0, nil, fp(0.5), true},
		{"level 0, top 0.49", flat0, nil, fp(0.49), false},
		{"level 0, top 0.4975", flat0, nil, fp(0.4975), false},
		{"level 0, bottom 0.5", flat0, fp(0.5), nil, true},
		{"level 0, bottom 0.5025", flat0, fp(0.5025), nil, false},
		{"level 0, bottom 0.51", flat0, fp(0.51), nil, false},
		{"level 0, bottom 0 top 1", flat0, fp(0), fp(1), true},
		{"level 0, below it: bottom −1 top 0", flat0, fp(-1), fp(0), false},
		{"level 0, above it: bottom 1 top 2", flat0, fp(1), fp(2), false},
		{"level 1, bottom 1 top 2", flat1, fp(1), fp(2), true},
		{"level 1, top 0.5", flat1, nil, fp(0.5), false},
		{"rising, top 1", rising, nil, fp(1), true},
		{"rising, top 0.9975", rising, nil, fp(0.9975), false},
		{"rising, bottom 1", rising, fp(1), nil, true},
		{"rising, bottom 1.0025", rising, fp(1.0025), nil, false},
	} {
		if got := !sees(t, c.seg[0], c.seg[1], spanning(line, c.bottom, c.top)); got != c.blocked {
			t.Errorf("%s: blocked = %v, want %v", c.name, got, c.blocked)
		}
	}
}

// §5.6, §5.1: a wall off the grid lines, its ends on the lattice: A = (0.25, 0.5) = (100, 200),
// B = (3.75, 2) = (1500, 800), direction (1400, 600) = 200·(7, 3).
//   - (1, 0) → (1, 2): x = 600, y 200 … 1000; the wall is at x = 600 where u = 500/1400, y =
//     200 + 600·5/14 = 414.3: blocked.
//   - (0, 0) → (3, 0): y = 200, x 200 … 1400; the wall has y = 200 only at A, x = 100: clear.
//   - (3, 1) → (4, 3): (1400, 600) → (1800, 1400) passes (1500, 800) = B: blocked (ends
//     included).
//   - (−1, 0) → (1, 0): y = 200 from x −200 to 600 passes A = (100, 200): blocked.
//   - (3, 1) → (4, 2): the lines meet at x = 1675, past B: clear.
//   - (3, 2) → (4, 2): y = 1000, the wall's line is there at x = 1966.7, past B: clear.
//   - (0, 1) → (3, 1): y = 600, the wall at x = 100 + 400·7/3 = 1033.3: blocked.
func TestWalls_5_6_OffGridDiagonal(t *testing.T) {
	w := wl(0.25, 0.5, 3.75, 2.0)
	c := func(x, y int) grid.Cell { return grid.C(x, y, 0) }
	for _, s := range []struct {
		from, to grid.Cell
		blocked  bool
	}{
		{c(1, 0), c(1, 2), true},
		{c(0, 0), c(3, 0), false},
		{c(3, 1), c(4, 3), true},
		{c(-1, 0), c(1, 0), true},
		{c(3, 1), c(4, 2), false},
		{c(3, 2), c(4, 2), false},
		{c(0, 1), c(3, 1), true},
	} {
		if got := !sees(t, s.from, s.to, w); got != s.blocked {
			t.Errorf("%v → %v: blocked = %v, want %v", s.from, s.to, got, s.blocked)
		}
		if got := !sees(t, s.to, s.from, w); got != s.blocked {
			t.Errorf("%v → %v: blocked = %v, want %v (the same segment)", s.to, s.from, got, s.blocked)
		}
	}
}

// §3.1, §5.3, §5.6: the origin square of a Draw Steel area must be in the caster's line of
// effect, and a wall counts as a barrier. The test of requests_test with a wall on x = 2 in
// place of the block (2, 0, 0): every corner segment from C (east face, x = 399, y and z in
// {1, 399}) to the origin square (4, 0, 0) (west face, x = 1601) crosses x = 800 at y strictly
// inside (0, 400), inside the wall from (2, 0) to (2, 1): no line of effect. A wall from (2, 0)
// to (2, 0.5) leaves the segment (399, 399, ·) → (1601, 399, ·), at y = 399 > 200, clear.
func TestWalls_3_1_OriginSquareBehindAWall(t *testing.T) {
	s := parseScene(t, `C......`)
	req := s.request("3 cube within 10")
	req.Origin = &Pos{4, 0, 0}
	req.Walls = []Wall{wl(2, 0, 2, 1)}
	_, err := Evaluate(req)
	errorCode(t, err, CodeNoLineOfEffect)
	req.Walls = []Wall{wl(2, 0, 2, 0.5)}
	mustEvaluate(t, req)
}

// ---- 3. The Draw Steel burst, the 50 % circle and forced movement with walls ----

// §3.2, §3.3: a 3 burst from C at (5, 5), the caster in a room walled on four sides: walls on
// the grid lines x = 3, x = 8, y = 3, y = 8 (1200 and 3200), so the room is the cells 3 … 7 on
// both axes. The caster's corners are strictly inside the open square (1200, 3200)²; so are
// the corners of every cell of the room, and no segment between two such points meets the
// boundary: the room's 25 cells are in. A cell outside has all its corners strictly outside
// the square, and a segment from inside to outside crosses the closed boundary at one point,
// inside a wall of unlimited height: out. On level 0 (bounds z 0 … 0, §0): 25 cells; on all
// seven levels of the burst (no floor or ceiling): 175.
//
// i at (7, 7), flush against two walls, is in and clear: its 6 lines from the caster's centre
// (2200, 2200, 200) stay inside the room. o at (8, 5), outside, is cut off: reason barrier.
//
// The same room of full obstacles — the ring of cells x or y = 2 or 8, levels −3 … 3, just
// outside the walls' lines — gives the same answer (o left out: its cell would be solid).
func TestWalls_3_2_BurstInAWalledRoom(t *testing.T) {
	s := parseScene(t, `
		..........
		..........
		..........
		..........
		..........
		.....C..o.
		..........
		.......i..
		..........
		..........
	`)
	room := []Wall{wl(3, 3, 8, 3), wl(8, 3, 8, 8), wl(8, 8, 3, 8), wl(3, 8, 3, 3)}
	req := s.request("3 burst")
	req.Walls = room
	req.Bounds = &Bounds{Min: [3]int{-100, -100, 0}, Max: [3]int{100, 100, 0}}
	res := mustEvaluate(t, req)
	s.checkPicture(t, ints(res.Cells), 0, `
		..........
		..........
		..........
		...*****..
		...*****..
		...*****o.
		...*****..
		...*****..
		..........
		..........
	`)
	if ids := strings.Join(targetIDs(res), ","); ids != "caster,o,i" {
		t.Fatalf("targets %s, want caster,o,i (the caster, then the tokens in request order)", ids)
	}
	checkTarget(t, targetOf(t, res, "caster"), want{inArea: true, affected: true, cover: "none"})
	checkTarget(t, targetOf(t, res, "i"), want{inArea: true, affected: true, cover: "none", lines: 6})
	checkTarget(t, targetOf(t, res, "o"), want{reason: "barrier", cover: "none"})

	req.Bounds = nil
	if n := mustEvaluate(t, req).Count; n != 175 {
		t.Errorf("all levels: count %d, want 25 × 7 = 175", n)
	}

	// The room of obstacles.
	var ring []Obstacle
	for z := -3; z <= 3; z++ {
		for y := 2; y <= 8; y++ {
			for x := 2; x <= 8; x++ {
				if x == 2 || x == 8 || y == 2 || y == 8 {
					ring = append(ring, Obstacle{X: x, Y: y, Z: z, Fill: 1})
				}
			}
		}
	}
	for _, bounds := range []*Bounds{nil, {Min: [3]int{-100, -100, 0}, Max: [3]int{100, 100, 0}}} {
		walled := s.request("3 burst")
		walled.Tokens = []Token{{ID: "i", X: 7, Y: 7, Side: "enemy"}}
		walled.Walls, walled.Bounds = room, bounds
		blocks := s.request("3 burst")
		blocks.Tokens = walled.Tokens
		blocks.Obstacles, blocks.Bounds = ring, bounds
		sameResult(t, fmt.Sprintf("walled room vs room of obstacles (bounds %v)", bounds), mustEvaluate(t, walled), mustEvaluate(t, blocks))
	}
}

// §3.2, §5.6: the room of the test above with an open door in its east wall, from (8, 5) to
// (8, 6) (x = 3200, y ∈ (2000, 2400) open; the walls on either side reach y = 2000 and 2400,
// ends included). On level 0:
//   - (8, 5): the segment (2399, 2001) → (3201, 2001) from the caster's east face crosses
//     x = 3200 at y = 2001, in the door: clear, in. o stands there: in, and clear — its lines
//     from (2200, 2200, 200) to (3201, 2001 or 2399, ·) cross x = 3200 at y = 2001.2 and
//     2398.8, in the door: 0 of 4.
//   - (8, 4): corners (3201, 1601), (3201, 1999), (3599, 1999) (west and south faces); the
//     caster's (2399, 2001), (2399, 2399), (2001, 2001) (east and north faces). (2399, 2399) →
//     (3599, 1999) crosses x = 3200 at y = 2399 − 400·801/1200 = 2132, in the door, and no
//     other wall (it stays between y = 1999 and 2399, and east of x = 1200): in. (8, 6) is
//     (8, 4) mirrored about y = 2200: in.
//   - (8, 3): from any of the caster's corners, the farthest reach is (2399, 2399) →
//     (3599, 1599), at y = 1865 on x = 3200, under the wall (8, 3)–(8, 5); the rest cross lower:
//     out. (8, 7) mirrored: out. (8, 2) and (8, 8) lie farther out still: out.
//
// 25 + 3 = 28 cells. Closing the door gives back the room's 25, and a room with the door's
// wall left out altogether is the room with the open door.
func TestWalls_3_2_BurstThroughAnOpenDoor(t *testing.T) {
	s := parseScene(t, `
		..........
		..........
		..........
		..........
		..........
		.....C..o.
		..........
		..........
		..........
		..........
	`)
	walls := func(d Wall) []Wall {
		ws := []Wall{wl(3, 3, 8, 3), wl(8, 3, 8, 5), wl(8, 6, 8, 8), wl(8, 8, 3, 8), wl(3, 8, 3, 3)}
		if d != (Wall{}) {
			ws = append(ws, d)
		}
		return ws
	}
	req := s.request("3 burst")
	req.Bounds = &Bounds{Min: [3]int{-100, -100, 0}, Max: [3]int{100, 100, 0}}
	req.Walls = walls(door(8, 5, 8, 6))
	res := mustEvaluate(t, req)
	s.checkPicture(t, ints(res.Cells), 0, `
		..........
		..........
		..........
		...*****..
		...******.
		...******.
		...******.
		...*****..
		..........
		..........
	`)
	checkTarget(t, targetOf(t, res, "o"), want{inArea: true, affected: true, cover: "none", lines: 4})

	gap := s.request("3 burst")
	gap.Bounds = req.Bounds
	gap.Walls = walls(Wall{})
	sameResult(t, "the open door vs no wall there", res, mustEvaluate(t, gap))

	req.Walls = walls(wl(8, 5, 8, 6))
	if n := mustEvaluate(t, req).Count; n != 25 {
		t.Errorf("door closed: count %d, want 25", n)
	}
}

// §4.3, §5.6: the 50 % circle of TestScene_4_3 with walls in place of its obstacles. circle 3
// about @ = (5, 5). The pillar (6, 5) becomes four walls round that cell; the closed room —
// the ring of blocks x 2 … 4, y 5 … 8 and its inside — becomes one walled rectangle round
// those cells, from (2, 5) to (5, 9). The fill steps from a cell to a side neighbour unless a
// wall blocks the segment between their centres at z = 200 (§4.3, §5.6):
//   - (6, 5): every step into it crosses one of its four walls in the wall's middle (from
//     (5, 5): x = 2400 at y = 2200): never reached, out.
//   - the rectangle's cells: every step in from outside crosses its boundary (from (5, y),
//     x = 2000 at y = 400y + 200, inside [2000, 3600]; from (x, 4), y = 2000 at x = 400x +
//     200, inside [800, 2000]): out.
//   - the cells (5, 6 … 8) lie east of the line x = 5 and the steps to them from (5, 5) cross
//     y = 2400, 2800, 3200 at x = 2200, clear of every wall; the rest of the disc is reached
//     as around the pillar of blocks.
//
// So the cells are TestScene_4_3's 27, the low wall '_' (fill 0.5) not stopping the circle.
func TestWalls_4_3_Circle50RoomAndPillarOfWalls(t *testing.T) {
	s := parseScene(t, `
		...........
		...........
		...........
		....._.....
		...........
		.....@.....
		...........
		...........
		...........
		...........
		...........
	`)
	req := s.request("circle 3")
	req.Origin = s.pos(t, '@')
	req.Walls = []Wall{
		wl(6, 5, 7, 5), wl(7, 5, 7, 6), wl(7, 6, 6, 6), wl(6, 6, 6, 5), // the pillar's cell
		wl(2, 5, 5, 5), wl(5, 5, 5, 9), wl(5, 9, 2, 9), wl(2, 9, 2, 5), // the room
	}
	res := mustEvaluate(t, req)
	s.checkPicture(t, ints(res.Cells), 0, `
		...........
		...........
		....***....
		...*****...
		..*******..
		.....*.**..
		.....****..
		.....***...
		.....**....
		...........
		...........
	`)
	if res.Count != 27 {
		t.Errorf("count %d, want 27", res.Count)
	}
}

// §4.3, §5.6: circle 1 about (5, 5) is the 3 × 3 cells x, y 4 … 6 (§4.1: 9). A wall along
// the whole grid line x = 6 beside it, from (6, 4) to (6, 7) (2400, y ∈ [1600, 2800]), stops
// the three steps from (5, y) to (6, y), which cross x = 2400 at y = 1800, 2200, 2600: the
// column x = 6 is never reached, 6 cells. Built of three pieces end to end it is the same.
// With the middle piece an open door, (6, 5) is reached through it and (6, 4), (6, 6) from
// there across y = 2000 and 2400 at x = 2600, where no wall is: 9.
func TestWalls_4_3_Circle50StoppedByAWallNotByADoor(t *testing.T) {
	s := parseScene(t, `
		.......
		.......
		.......
		.......
		.......
		.....@.
		.......
		.......
	`)
	for _, c := range []struct {
		name  string
		walls []Wall
		want  string
	}{
		{"one wall", []Wall{wl(6, 4, 6, 7)}, `
			.......
			.......
			.......
			.......
			....**.
			....**.
			....**.
			.......`},
		{"three pieces", []Wall{wl(6, 4, 6, 5), wl(6, 5, 6, 6), wl(6, 6, 6, 7)}, `
			.......
			.......
			.......
			.......
			....**.
			....**.
			....**.
			.......`},
		{"an open door in the middle", []Wall{wl(6, 4, 6, 5), door(6, 5, 6, 6), wl(6, 6, 6, 7)}, `
			.......
			.......
			.......
			.......
			....***
			....***
			....***
			.......`},
	} {
		req := s.request("circle 1")
		req.Origin = s.pos(t, '@')
		req.Walls = c.walls
		t.Run(c.name, func(t *testing.T) {
			s.checkPicture(t, ints(mustEvaluate(t, req).Cells), 0, c.want)
		})
	}
}

// §3.7, §5.6: TestMove_3_7_PushStoppedByWall with a wall on the grid line x = 4 (1600) in
// place of the block in (4, 0): g at (1, 0) pushed 4 squares east from (0, 0) enters (2, 0)
// and (3, 0); the step (3, 0) → (4, 0), centres (1400, 200) → (1800, 200), crosses the wall
// from (4, 0) to (4, 1) at y = 200: a collision with the wall, at (4, 0), 2 squares left —
// the obstacle's path, square and count, of kind wall. A wall on x = 5 lets g into (4, 0):
// stopped at (5, 0) with 1 left.
func TestWalls_3_7_PushIntoAWall(t *testing.T) {
	s := parseScene(t, `@g....`)
	req := &MoveRequest{Kind: MovePush, Distance: 4, Source: *s.pos(t, '@'), Target: "g", Tokens: s.tokens, Walls: []Wall{wl(4, 0, 4, 1)}}
	checkCollision(t, "wall on x = 4", mustMove(t, req), [][3]int32{{2, 0, 0}, {3, 0, 0}}, Pos{3, 0, 0},
		&Collision{Kind: CollisionWall, With: "wall", At: [3]int32{4, 0, 0}, Left: 2})
	req.Walls = []Wall{wl(5, -1, 5, 2)}
	checkCollision(t, "wall on x = 5", mustMove(t, req), [][3]int32{{2, 0, 0}, {3, 0, 0}, {4, 0, 0}}, Pos{4, 0, 0},
		&Collision{Kind: CollisionWall, With: "wall", At: [3]int32{5, 0, 0}, Left: 1})
	// A fence stops a push when it reaches the centres' height, 0.5 (§5.6: [bottom, top]).
	req.Walls = []Wall{spanning(wl(4, 0, 4, 1), nil, fp(0.5))}
	checkCollision(t, "fence top 0.5", mustMove(t, req), [][3]int32{{2, 0, 0}, {3, 0, 0}}, Pos{3, 0, 0},
		&Collision{Kind: CollisionWall, With: "wall", At: [3]int32{4, 0, 0}, Left: 2})
	req.Walls = []Wall{spanning(wl(4, 0, 4, 1), nil, fp(0.4975))}
	checkCollision(t, "fence top 0.4975", mustMove(t, req), [][3]int32{{2, 0, 0}, {3, 0, 0}, {4, 0, 0}, {5, 0, 0}}, Pos{5, 0, 0}, nil)
}

// §3.7, §5.6: TestMove_3_7_PullStopsNextToSource with a wall on x = 2 (800): g at (4, 0)
// pulled 6 toward (0, 0) enters (3, 0) and (2, 0); the step to (1, 0) crosses x = 800 at
// y = 200: collision with the wall at (1, 0), 6 − 2 = 4 left.
func TestWalls_3_7_PullIntoAWall(t *testing.T) {
	s := parseScene(t, `@...g`)
	req := &MoveRequest{Kind: MovePull, Distance: 6, Source: *s.pos(t, '@'), Target: "g", Tokens: s.tokens, Walls: []Wall{wl(2, -1, 2, 1)}}
	checkCollision(t, "pull", mustMove(t, req), [][3]int32{{3, 0, 0}, {2, 0, 0}}, Pos{2, 0, 0},
		&Collision{Kind: CollisionWall, With: "wall", At: [3]int32{1, 0, 0}, Left: 4})
}

// §3.7, §5.6: TestMove_3_7_PushIntoCreature's diagonal push through a wall corner. g at
// (2, 2) pushed 3 away from (1, 1) goes (3, 3), (4, 4), (5, 5). W1 runs north from (4, 4),
// W2 east from it: the step (3, 3) → (4, 4), centres (1400, 1400) → (1800, 1800), passes
// their common corner (1600, 1600): blocked (no gap at a corner; either wall alone too, its end
// included). Collision with the wall at (4, 4), 2 left. A wall that stops 1/400 short of
// the corner, at (4, 3.9975), is not met: g goes all the way.
func TestWalls_3_7_DiagonalPushThroughAWallCorner(t *testing.T) {
	s := parseScene(t, `
		......
		.@....
		..g...
		......
		......
		......
	`)
	req := &MoveRequest{Kind: MovePush, Distance: 3, Source: *s.pos(t, '@'), Target: "g", Tokens: s.tokens}
	for _, ws := range [][]Wall{{wl(4, 1, 4, 4), wl(4, 4, 7, 4)}, {wl(4, 1, 4, 4)}, {wl(4, 4, 7, 4)}} {
		req.Walls = ws
		checkCollision(t, fmt.Sprint("corner ", ws), mustMove(t, req), [][3]int32{{3, 3, 0}}, Pos{3, 3, 0},
			&Collision{Kind: CollisionWall, With: "wall", At: [3]int32{4, 4, 0}, Left: 2})
	}
	req.Walls = []Wall{wl(4, 1, 4, 3.9975)}
	checkCollision(t, "short of the corner", mustMove(t, req), [][3]int32{{3, 3, 0}, {4, 4, 0}, {5, 5, 0}}, Pos{5, 5, 0}, nil)
}

// §3.7, §5.6: a vertical step's segment projects to a single point, which meets a wall in no
// point other than the segment's own ends: walls never stop it. g at (2, 2, 1) pushed 3
// straight up from (2, 2, 0) (vertical) rises to (2, 2, 4), inside four walls round its cell,
// with one wall through its centre (x = 2.5) and one diagonal through it.
//
// A climbing step does meet walls: a slide from (2, 2, 1) to (3, 2, 2), centres (1000, 1000,
// 600) → (1400, 1000, 1000), crosses x = 3 (1200) halfway, at z = 800: a wall with top 2
// stops it, one with top 1.9975 does not; bottom 2 stops it, bottom 2.0025 does not.
func TestWalls_3_7_VerticalMovesIgnoreWalls(t *testing.T) {
	tokens := []Token{{ID: "g", X: 2, Y: 2, Z: 1}}
	req := &MoveRequest{Kind: MovePush, Distance: 3, Source: Pos{2, 2, 0}, Target: "g", Vertical: true, Tokens: tokens,
		Walls: []Wall{wl(2, 2, 3, 2), wl(3, 2, 3, 3), wl(3, 3, 2, 3), wl(2, 3, 2, 2), wl(2.5, 0, 2.5, 5), wl(0, 0, 5, 5)}}
	checkCollision(t, "straight up", mustMove(t, req), [][3]int32{{2, 2, 2}, {2, 2, 3}, {2, 2, 4}}, Pos{2, 2, 4}, nil)

	slide := func(bottom, top *float64) *MoveResult {
		return mustMove(t, &MoveRequest{Kind: MoveSlide, Distance: 1, Source: Pos{0, 0, 0}, Target: "g", Vertical: true, Tokens: tokens,
			Path: [][3]int{{3, 2, 2}}, Walls: []Wall{spanning(wl(3, 0, 3, 5), bottom, top)}})
	}
	stopped := &Collision{Kind: CollisionWall, With: "wall", At: [3]int32{3, 2, 2}, Left: 1}
	checkCollision(t, "climb, top 2", slide(nil, fp(2)), [][3]int32{}, Pos{2, 2, 1}, stopped)
	checkCollision(t, "climb, top 1.9975", slide(nil, fp(1.9975)), [][3]int32{{3, 2, 2}}, Pos{3, 2, 2}, nil)
	checkCollision(t, "climb, bottom 2", slide(fp(2), nil), [][3]int32{}, Pos{2, 2, 1}, stopped)
	checkCollision(t, "climb, bottom 2.0025", slide(fp(2.0025), nil), [][3]int32{{3, 2, 2}}, Pos{3, 2, 2}, nil)
}

// §3.7, §5.6 [engine]: a creature larger than a square is stopped when a square of its
// leading side crosses a wall. g, 2 × 2 × 2 anchored at (1, 0), pushed 3 east from (0, 0):
// its anchor goes (2, 0), (3, 0), (4, 0). The second step moves its leading squares (3, 0)
// and (3, 1) (on levels 0 and 1) into (4, 0) and (4, 1), across x = 1600 at y = 200 and 600.
// A wall from (4, 1) to (4, 2) (y ∈ [400, 800]) meets only the lower row's step: stopped at
// anchor (2, 0), the collision at (3, 0) with 2 left. A wall from (4, 2) to (4, 3) meets
// neither. A fence on level 1 only (bottom 1, top 2: the level-1 centres are at z = 600)
// meets the level-1 squares' steps: stopped.
func TestWalls_3_7_LargeCreatureOneLeadingSquare(t *testing.T) {
	s := parseScene(t, `
		@gg...
		.gg...
		......
	`)
	req := &MoveRequest{Kind: MovePush, Distance: 3, Source: *s.pos(t, '@'), Target: "g", Tokens: s.tokens}
	stopped := &Collision{Kind: CollisionWall, With: "wall", At: [3]int32{3, 0, 0}, Left: 2}
	req.Walls = []Wall{wl(4, 1, 4, 2)}
	checkCollision(t, "wall beside the lower row", mustMove(t, req), [][3]int32{{2, 0, 0}}, Pos{2, 0, 0}, stopped)
	req.Walls = []Wall{spanning(wl(4, 1, 4, 2), fp(1), fp(2))}
	checkCollision(t, "fence on level 1", mustMove(t, req), [][3]int32{{2, 0, 0}}, Pos{2, 0, 0}, stopped)
	req.Walls = []Wall{wl(4, 2, 4, 3)}
	checkCollision(t, "wall past both rows", mustMove(t, req), [][3]int32{{2, 0, 0}, {3, 0, 0}, {4, 0, 0}}, Pos{4, 0, 0}, nil)
}

// §3.7, CONTRACT move: the collision's kind tells what stopped the move, whatever the ids.
// g at (1, 0) pushed 4 east from (0, 0) enters (2, 0) and is stopped at (3, 0), 3 left, by:
// an obstacle; a token whose id is "obstacle", "wall" or "edge"; the edge of the bounds; a
// wall on x = 3. A step that crosses a wall into a square holding an obstacle or a token
// meets the wall first (CONTRACT: "the wall is met first").
func TestWalls_3_7_CollisionKinds(t *testing.T) {
	g := Token{ID: "g", X: 1}
	at := func(k CollisionKind, with string) *Collision {
		return &Collision{Kind: k, With: with, At: [3]int32{3, 0, 0}, Left: 3}
	}
	for _, c := range []struct {
		name   string
		tokens []Token
		obs    []Obstacle
		walls  []Wall
		bounds *Bounds
		want   *Collision
	}{
		{"obstacle", nil, []Obstacle{{X: 3}}, nil, nil, at(CollisionObstacle, "obstacle")},
		{"token named obstacle", []Token{{ID: "obstacle", X: 3}}, nil, nil, nil, at(CollisionToken, "obstacle")},
		{"token named wall", []Token{{ID: "wall", X: 3}}, nil, nil, nil, at(CollisionToken, "wall")},
		{"token named edge", []Token{{ID: "edge", X: 3}}, nil, nil, nil, at(CollisionToken, "edge")},
		{"edge", nil, nil, nil, &Bounds{Max: [3]int{2, 0, 0}}, at(CollisionEdge, "edge")},
		{"wall", nil, nil, []Wall{wl(3, 0, 3, 1)}, nil, at(CollisionWall, "wall")},
		{"wall, then an obstacle", nil, []Obstacle{{X: 3}}, []Wall{wl(3, 0, 3, 1)}, nil, at(CollisionWall, "wall")},
		{"wall, then a token named obstacle", []Token{{ID: "obstacle", X: 3}}, nil, []Wall{wl(3, 0, 3, 1)}, nil, at(CollisionWall, "wall")},
	} {
		req := &MoveRequest{Kind: MovePush, Distance: 4, Source: Pos{0, 0, 0}, Target: "g",
			Tokens: append([]Token{g}, c.tokens...), Obstacles: c.obs, Walls: c.walls, Bounds: c.bounds}
		checkCollision(t, c.name, mustMove(t, req), [][3]int32{{2, 0, 0}}, Pos{2, 0, 0}, c.want)
	}
}

// ---- 4. Attack cover (§5.7) ----

// §5.4, §5.7, §5.6: a ranged attack face-on past a wall that covers half the target's front.
// Attacker (0, 0), target (4, 0). The target shows its west face only: 4 points (1601, y, z),
// y ∈ {1, 399}, z ∈ {121, 399} (boosted). The attacker's corners turned toward it are those
// of its east face, (399, y, z), y, z ∈ {1, 399}. The wall runs on x = 3 (1200) from y = −5 to
// y = 0.5 (−2000 … 200). A line from (399, ys) to (1601, yt) is at y = ys + (yt − ys)·801/1202
// on x = 1200: from ys = 1, 1 and 266.2; from ys = 399, 133.8 and 399. Each source corner has 2
// of 4 lines at y ≤ 200, blocked: the least cover is 2 of 4, f = ½ — tdgs half (+4),
// drawsteel cover, dnd35 cover (+4) — judged from the attacker's cell (0, 0, 0).
func TestWalls_5_7_RangedPastHalfAWall(t *testing.T) {
	for _, c := range []struct {
		rules Rules
		grade Grade
		bonus int
	}{{RulesTDGS, GradeHalf, 4}, {RulesDrawSteel, GradeCover, -1}, {RulesDnD35, GradeCover, 4}} {
		res := mustCover(t, &CoverRequest{Rules: c.rules, Attack: AttackRanged, Attacker: Attacker{ID: "a"},
			Target: Token{ID: "t", X: 4}, Walls: []Wall{wl(3, -5, 3, 0.5)}})
		if res.Grade != c.grade || c.bonus >= 0 && res.Bonus != c.bonus || res.Blocked != 2 || res.Total != 4 || !res.LineOfEffect || res.From != [3]int32{} {
			t.Errorf("%s: %s, want %s, 2 of 4 blocked, from (0, 0, 0)", c.rules, brief(res), c.grade)
		}
	}
}

// §5.4, §5.7, §5.6: a wall raises attack cover as a row of full obstacles does where the
// geometry agrees. Attacker (0, 1), target (4, 0). Source candidates, the attacker's corners on
// its east and north faces (the target lies wholly east and north): xy (399, 401),
// (399, 799), (1, 401), z 1 or 399. Target points seen from them, on its west and south
// faces: xy (1601, 1), (1601, 399), (1999, 399). Every line goes from y > 400 to y < 400 with
// x rising from ≤ 399 to ≥ 1601, y falling as x grows.
//
// The wall on x = 3 from y = −5 to y = 1 (1200, y ∈ [−2000, 400]) blocks a line when it is at
// y ≤ 400 on x = 1200; the full obstacles (2, y, 0), y −5 … 0 (x ∈ [800, 1200], y ∈ [−2000,
// 400]) block it when it enters them, that is when it is below 400 before x = 1200: y < 400
// on x = 1200. The two differ only for a line through (1200, 400) exactly, and none is: with
// ys, xs the source and yt, xt the target, that needs (400 − ys)(xt − xs) = (yt − ys)(1200 −
// xs), and the nine pairs give −1202, −1600 vs −320400, −1602; −479598, −638400 vs −639198,
// −320400; −1600, −1998 vs −479600, −2398. The answers are the same.
//
// Hand count on x = 1200: from (399, 401) the lines are at 134.4, 399.7, 399.999 (blocked, 6
// of 6); from (1, 401) at 101.3, 399.5, 399.8 (6 of 6); from (399, 799) at 267.2 (blocked),
// 532.4, 598.75: 2 of 6. The least cover is 2 of 6, f = ⅓: tdgs partial (+2), drawsteel
// none, dnd35 cover (+4); with no wall, none for all.
func TestWalls_5_7_WallRaisesCoverLikeAnObstacleRow(t *testing.T) {
	for _, c := range []struct {
		rules Rules
		grade Grade
	}{{RulesTDGS, GradePartial}, {RulesDrawSteel, GradeNone}, {RulesDnD35, GradeCover}} {
		for _, kind := range []AttackKind{AttackRanged, AttackReach} {
			req := func() *CoverRequest {
				return &CoverRequest{Rules: c.rules, Attack: kind, Attacker: Attacker{ID: "a", Y: 1}, Target: Token{ID: "t", X: 4}}
			}
			open := mustCover(t, req())
			walled := req()
			walled.Walls = []Wall{wl(3, -5, 3, 1)}
			blocks := req()
			blocks.Obstacles = column(2, -5, 0, 0, 0)
			res := mustCover(t, walled)
			name := fmt.Sprintf("%s %s", c.rules, kind)
			sameResult(t, name+": wall vs obstacle row", res, mustCover(t, blocks))
			if open.Grade != GradeNone || open.Blocked != 0 {
				t.Errorf("%s without the wall: %s, want none", name, brief(open))
			}
			if res.Grade != c.grade || res.Blocked != 2 || res.Total != 6 {
				t.Errorf("%s: %s, want %s, 2 of 6", name, brief(res), c.grade)
			}
		}
	}
}

// §5.4, §5.7, §5.6: melee across a wall between two adjacent squares — a wall no row of
// obstacles can stand for, since it would fill one of the two squares. Attacker (0, 0),
// target (1, 0), the wall on their common face x = 1 (400). Melee lines: the attacker's east
// corners (399, y, z), y ∈ {1, 399}, the lower raised 120 and the upper lowered 20 (z 121 and
// 379, §5.4), to the target's west corners (401, y, z), z ∈ {1, 399} (no boost): 16 lines,
// each crossing x = 400 halfway, at z = (zs + zt)/2.
//   - unlimited: 16 of 16: dnd35 total, drawsteel full; tdgs none (no cover in melee).
//   - top 0.5 (200): the lines to zt = 1 cross at 61 or 190, blocked; to zt = 399 at 260 or
//     389, clear. 8 of 16, f = ½: dnd35 cover.
//   - top 0.4 (160): only (121 → 1), at 61, is blocked: 4 of 16, f = ¼: dnd35 partial.
func TestWalls_5_7_MeleeAcrossAWall(t *testing.T) {
	for _, c := range []struct {
		name    string
		top     *float64
		rules   Rules
		grade   Grade
		blocked int
	}{
		{"unlimited", nil, RulesDnD35, GradeTotal, 16},
		{"unlimited", nil, RulesDrawSteel, GradeFull, 16},
		{"unlimited", nil, RulesTDGS, GradeNone, 16},
		{"top 0.5", fp(0.5), RulesDnD35, GradeCover, 8},
		{"top 0.4", fp(0.4), RulesDnD35, GradePartial, 4},
	} {
		res := mustCover(t, &CoverRequest{Rules: c.rules, Attack: AttackMelee, Attacker: Attacker{ID: "a"}, Target: Token{ID: "t", X: 1},
			Walls: []Wall{spanning(wl(1, -1, 1, 2), nil, c.top)}})
		if res.Grade != c.grade || res.Blocked != c.blocked || res.Total != 16 {
			t.Errorf("%s, %s: %s, want %s with %d of 16 blocked", c.name, c.rules, brief(res), c.grade, c.blocked)
		}
	}
}

// ---- 5. Errors and rounding (§5.1, §5.6, §8.3) ----

// §5.6, §8.3: a wall's errors, through every door that takes walls.
func TestWalls_8_3_Errors(t *testing.T) {
	tooMany := make([]Wall, MaxWalls+1)
	for i := range tooMany {
		tooMany[i] = wl(float64(i), 0, float64(i), 1)
	}
	for _, c := range []struct {
		name  string
		walls []Wall
		code  Code
		names string // the message names this
	}{
		{"a = b", []Wall{wl(1, 1, 1, 1)}, CodeBadRequest, "walls[0]"},
		{"a = b, the second wall", []Wall{wl(0, 0, 1, 0), wl(2, 3, 2, 3)}, CodeBadRequest, "walls[1]"},
		{"a = b after rounding: 0.4/400 apart", []Wall{wl(1, 1, 1.001, 1)}, CodeBadRequest, "walls[0]"},
		{"a = b after rounding: −0.00125 is 0", []Wall{wl(-0.00125, 0, 0, 0)}, CodeBadRequest, "walls[0]"},
		{"bottom above top", []Wall{spanning(wl(0, 0, 1, 0), fp(2), fp(1))}, CodeBadRequest, "walls[0]"},
		{"x past 1 000 000", []Wall{wl(0, 0, 1, 0), wl(1000001, 0, 1, 0)}, CodeTooLarge, "walls[1].a[0]"},
		{"y past −1 000 000", []Wall{wl(0, 0, 1, -1000000.5)}, CodeTooLarge, "walls[0].b[1]"},
		{"top past 1 000 000", []Wall{spanning(wl(0, 0, 1, 0), nil, fp(2e6))}, CodeTooLarge, "walls[0].top"},
		{"NaN", []Wall{wl(0, 0, 1, math.NaN())}, CodeBadRequest, "walls[0].b[1]"},
		{"+Inf", []Wall{wl(math.Inf(1), 0, 1, 0)}, CodeBadRequest, "walls[0].a[0]"},
		{"−Inf bottom", []Wall{spanning(wl(0, 0, 1, 0), fp(math.Inf(-1)), nil)}, CodeBadRequest, "walls[0].bottom"},
		{"too many", tooMany, CodeTooLarge, "walls"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Evaluate(&Request{Template: TemplateRef{Text: "Cir1"}, Origin: &Pos{}, Walls: c.walls})
			msg := errorCode(t, err, c.code)
			if !strings.Contains(msg, c.names) {
				t.Errorf("evaluate: message %q does not name %s", msg, c.names)
			}
			_, err = Move(&MoveRequest{Kind: MovePush, Distance: 1, Source: Pos{}, Target: "g", Tokens: []Token{{ID: "g", X: 1}}, Walls: c.walls})
			if msg := errorCode(t, err, c.code); !strings.Contains(msg, c.names) {
				t.Errorf("move: message %q does not name %s", msg, c.names)
			}
			_, err = Cover(&CoverRequest{Attack: AttackRanged, Attacker: Attacker{}, Target: Token{ID: "t", X: 2}, Walls: c.walls})
			if msg := errorCode(t, err, c.code); !strings.Contains(msg, c.names) {
				t.Errorf("cover: message %q does not name %s", msg, c.names)
			}
		})
	}
	// At the limits: ±1 000 000 itself, and exactly MaxWalls walls, are fine; so are ends
	// 1/400 apart, and an open wall (validated, it blocks nothing).
	for _, ws := range [][]Wall{{wl(-1000000, 1000000, 1000000, -1000000)}, tooMany[:MaxWalls], {wl(0, 0, 0.0025, 0)},
		{wl(0.00125, 0, 0, 0)}, {wl(1, 1, 1.00125, 1)}, {spanning(wl(0, 0, 1, 0), fp(1), fp(1))}} {
		if _, err := Evaluate(&Request{Template: TemplateRef{Text: "Cir1"}, Origin: &Pos{}, Walls: ws}); err != nil {
			t.Errorf("%d walls from %v: %v, want no error", len(ws), ws[0], err)
		}
	}
	_, err := Evaluate(&Request{Template: TemplateRef{Text: "Cir1"}, Origin: &Pos{}, Walls: []Wall{door(1, 1, 1, 1)}})
	errorCode(t, err, CodeBadRequest)
}

// §5.1, §5.6: a wall's coordinates are rounded to the nearest 1/400 by their decimal value, a
// tie rounding up, toward +∞. The line (2, 2) → (3, 3) passes (1200, 1200); a wall on x = 3
// ending near y = 3 blocks it when its end, rounded, is at 1200 or past it toward the line.
//   - A wall from (3, 0) to (3, 2.99875): 1199.5 → 1200 (tie, up): blocked. To (3, 2.99874),
//     1199.496 → 1199: clear.
//   - A wall from (3, 3.00124) down to (3, 6): 1200.496 → 1200: blocked. From (3, 3.00125):
//     1200.5 → 1201 (tie, up): clear.
//
// And on the negative side: the line (−2, −2) → (−1, −1) passes (−400, −400).
//   - A wall from (−1, −3) to (−1, −1.00125): −400.5 → −400 (tie toward +∞, not away from
//     zero): blocked.
//   - A wall from (−1, −0.99875) to (−1, 2): −399.5 → −399: clear.
//
// A top of 0.49875 (199.5 → 200) blocks the level-0 centre line at z = 200; 0.49874 does not.
func TestWalls_5_1_Rounding(t *testing.T) {
	c := func(x, y int) grid.Cell { return grid.C(x, y, 0) }
	for _, s := range []struct {
		name     string
		from, to grid.Cell
		w        Wall
		blocked  bool
	}{
		{"end 2.99875 → 1200", c(2, 2), c(3, 3), wl(3, 0, 3, 2.99875), true},
		{"end 2.99874 → 1199", c(2, 2), c(3, 3), wl(3, 0, 3, 2.99874), false},
		{"end 3.00124 → 1200", c(2, 2), c(3, 3), wl(3, 3.00124, 3, 6), true},
		{"end 3.00125 → 1201", c(2, 2), c(3, 3), wl(3, 3.00125, 3, 6), false},
		{"end −1.00125 → −400", c(-2, -2), c(-1, -1), wl(-1, -3, -1, -1.00125), true},
		{"end −0.99875 → −399", c(-2, -2), c(-1, -1), wl(-1, -0.99875, -1, 2), false},
		{"top 0.49875 → 200", c(1, 2), c(4, 2), spanning(wl(3, 0, 3, 5), nil, fp(0.49875)), true},
		{"top 0.49874 → 199", c(1, 2), c(4, 2), spanning(wl(3, 0, 3, 5), nil, fp(0.49874)), false},
		{"bottom 0.50125 → 201", c(1, 2), c(4, 2), spanning(wl(3, 0, 3, 5), fp(0.50125), nil), false},
		{"bottom 0.50124 → 200", c(1, 2), c(4, 2), spanning(wl(3, 0, 3, 5), fp(0.50124), nil), true},
	} {
		if got := !sees(t, s.from, s.to, s.w); got != s.blocked {
			t.Errorf("%s: blocked = %v, want %v", s.name, got, s.blocked)
		}
	}
}

// ---- 6. Properties on random scenes, and the reference ----

// wallScene is a random board for the property test: tokens and obstacles on level 0 of an
// n × n board, and walls on and off the grid lines.
type wallScene struct {
	n         int
	used      map[grid.Cell]bool
	tokens    []Token
	obstacles []Obstacle
	full      map[grid.Cell]bool
	walls     []Wall
}

func randomWallScene(r *rand.Rand, withObstacles bool) *wallScene {
	s := &wallScene{n: 8 + r.IntN(8), used: map[grid.Cell]bool{}, full: map[grid.Cell]bool{}}
	for i := range r.IntN(7) {
		size := 1
		if r.IntN(6) == 0 {
			size = 2
		}
		sp := grid.Space{Anchor: grid.C(r.IntN(s.n), r.IntN(s.n), 0), Size: size, Height: size}
		free := true
		sp.Cells(func(c grid.Cell) { free = free && !s.used[c] })
		if !free {
			continue
		}
		sp.Cells(func(c grid.Cell) { s.used[c] = true })
		s.tokens = append(s.tokens, Token{ID: fmt.Sprint("t", i), X: sp.Anchor.X, Y: sp.Anchor.Y, Size: size, Side: sides[i%3]})
	}
	for range r.IntN(2 * s.n) {
		if !withObstacles {
			break
		}
		c := grid.C(r.IntN(s.n), r.IntN(s.n), 0)
		if s.used[c] {
			continue
		}
		s.used[c] = true
		f := fills[r.IntN(len(fills))]
		s.obstacles = append(s.obstacles, Obstacle{X: c.X, Y: c.Y, Fill: f})
		if f == 1 {
			s.full[c] = true
		}
	}
	for range 1 + r.IntN(12) {
		s.walls = append(s.walls, randomWall(r, s.n))
	}
	return s
}

// randomWall is a wall of the lattice: mostly on a grid line, 1 to 4 squares long, else
// between any two lattice points near each other; a third of them with heights, one in ten
// open.
func randomWall(r *rand.Rand, n int) Wall {
	var a, b [2]int
	if r.IntN(3) < 2 {
		x, y, l := r.IntN(n+1), r.IntN(n+1), 1+r.IntN(4)
		a = [2]int{400 * x, 400 * y}
		if r.IntN(2) == 0 {
			b = [2]int{400 * (x + l), 400 * y}
		} else {
			b = [2]int{400 * x, 400 * (y + l)}
		}
	} else {
		a = [2]int{r.IntN(400 * n), r.IntN(400 * n)}
		for b = a; b == a; {
			b = [2]int{a[0] + r.IntN(3201) - 1600, a[1] + r.IntN(3201) - 1600}
		}
	}
	w := Wall{A: [2]float64{float64(a[0]) / 400, float64(a[1]) / 400}, B: [2]float64{float64(b[0]) / 400, float64(b[1]) / 400}}
	if r.IntN(3) == 0 {
		lo, hi := float64(r.IntN(600))/400, float64(r.IntN(600))/400
		if lo > hi {
			lo, hi = hi, lo
		}
		switch r.IntN(3) {
		case 0:
			w.Bottom = fp(lo)
		case 1:
			w.Top = fp(hi)
		default:
			w.Bottom, w.Top = fp(lo), fp(hi)
		}
	}
	w.Open = r.IntN(10) == 0
	return w
}

// freeCell is a cell of the board that no token or obstacle holds.
func (s *wallScene) freeCell(r *rand.Rand) grid.Cell {
	for {
		if c := grid.C(r.IntN(s.n), r.IntN(s.n), 0); !s.used[c] {
			return c
		}
	}
}

// The three variants of a scene's walls that change nothing (SPEC §5.6).
func openedWalls(ws []Wall) []Wall {
	out := slices.Clone(ws)
	for i := range out {
		out[i].Open = true
	}
	return out
}

func swappedWalls(ws []Wall) []Wall {
	out := slices.Clone(ws)
	for i := range out {
		out[i].A, out[i].B = out[i].B, out[i].A
	}
	return out
}

// farWalls moves the walls 1000 squares east and south, outside the box of every segment.
func farWalls(ws []Wall) []Wall {
	out := slices.Clone(ws)
	for i := range out {
		out[i].A[0], out[i].A[1], out[i].B[0], out[i].B[1] = out[i].A[0]+1000, out[i].A[1]+1000, out[i].B[0]+1000, out[i].B[1]+1000
	}
	return out
}

// gradeRank orders the grades of one rule set: tdgs none < partial < half < full, drawsteel
// none < cover < full, dnd35 none < partial < cover < improved < total.
var gradeRank = map[Grade]int{GradeNone: 0, GradePartial: 1, GradeHalf: 2, GradeCover: 2, GradeImproved: 3, GradeFull: 4, GradeTotal: 4}

func cellsOf(cells [][3]int32) map[grid.Cell]bool {
	out := map[grid.Cell]bool{}
	for _, c := range cells {
		out[gridCell(c)] = true
	}
	return out
}

// checkMonotone: adding walls never adds a cell to a shaped area (or changes a TDGS area,
// §2.1, when same is set), never takes a target into the area or makes it affected, never
// lowers a grade, and leaves each of its cover lines as it was or blocks it where a wall
// blocks it (§5.6: walls join solid cells: a line is blocked by the solids or by a wall).
func checkMonotone(t *testing.T, what string, plain, walled *Result, ws []Wall, same bool) (cut, newlyBlocked int) {
	t.Helper()
	pc := cellsOf(plain.Cells)
	for _, c := range walled.Cells {
		if !pc[gridCell(c)] {
			t.Errorf("%s: walls added the cell %v", what, c)
		}
	}
	cut = len(plain.Cells) - len(walled.Cells)
	if same && !reflect.DeepEqual(plain.Cells, walled.Cells) {
		t.Errorf("%s: walls changed a TDGS area (§2.1)", what)
	}
	if len(plain.Targets) != len(walled.Targets) {
		t.Fatalf("%s: %d targets without walls, %d with", what, len(plain.Targets), len(walled.Targets))
	}
	for i, w := range walled.Targets {
		p := plain.Targets[i]
		switch {
		case p.ID != w.ID:
			t.Fatalf("%s: target %d is %s without walls, %s with", what, i, p.ID, w.ID)
		case w.InArea && !p.InArea, w.Affected && !p.Affected:
			t.Errorf("%s: walls took %s in: %s, without %s", what, w.ID, summary(w), summary(p))
		case !w.InArea || !p.InArea:
			continue
		case gradeRank[w.Cover] < gradeRank[p.Cover]:
			t.Errorf("%s: walls lowered %s's cover: %s, without %s", what, w.ID, summary(w), summary(p))
		case len(w.Lines) != len(p.Lines):
			t.Errorf("%s: %s has %d lines with walls, %d without", what, w.ID, len(w.Lines), len(p.Lines))
			continue
		}
		for k, l := range w.Lines {
			pl := p.Lines[k]
			if l.From != pl.From || l.To != pl.To {
				t.Errorf("%s: %s's line %d moved", what, w.ID, k)
				continue
			}
			if want := pl.Blocked || refWallsBlock(latticePoint(l.From), latticePoint(l.To), ws); l.Blocked != want {
				t.Errorf("%s: %s's line %v → %v: blocked %v, want %v (without walls %v)", what, w.ID, l.From, l.To, l.Blocked, want, pl.Blocked)
			}
			if l.Blocked && !pl.Blocked {
				newlyBlocked++
			}
		}
	}
	return cut, newlyBlocked
}

func checkCellsAre(t *testing.T, what string, got [][3]int32, want map[grid.Cell]bool, level int) {
	t.Helper()
	g := map[grid.Cell]bool{}
	for _, c := range got {
		if int(c[2]) == level {
			g[gridCell(c)] = true
		}
	}
	for c := range want {
		if !g[c] {
			t.Errorf("%s: the reference has %v, the engine does not", what, c)
		}
	}
	for c := range g {
		if !want[c] {
			t.Errorf("%s: the engine has %v, the reference does not", what, c)
		}
	}
}

// SPEC §5.6 on a few hundred random scenes (fixed seed): walls never add cells to a Draw Steel
// or 50 % circle area and never lower a cover grade; an open wall, a wall drawn b → a and a
// wall far outside every segment's box change nothing; on boards whose only barriers are
// walls, the Draw Steel burst (§3.2), the TDGS barrier (§6) and every cover line match the
// reference, and the 50 % circle (§4.3) and a one-square creature's forced movement (§3.7)
// match it on every board.
func TestWalls_5_6_PropertyRandomScenes(t *testing.T) {
	r := newRand(56)
	yes := true
	seen := map[string]int{} // how often the walls made a difference: the test is not vacuous
	bounds0 := &Bounds{Min: [3]int{-100, -100, 0}, Max: [3]int{100, 100, 0}}
	for i := range 400 {
		wallsOnly := i%2 == 0
		s := randomWallScene(r, !wallsOnly)
		var req *Request
		kind := []string{"burst", "circle50", "tdgs", "tdgs-barriers"}[i/2%4]
		k := 1 + r.IntN(3)
		switch kind {
		case "burst":
			c := s.freeCell(r)
			req = &Request{Template: TemplateRef{Text: fmt.Sprint(k, " burst")}, Caster: &Token{ID: "caster", X: c.X, Y: c.Y, Side: "party"}, Bounds: bounds0}
		case "circle50":
			o := grid.C(r.IntN(s.n), r.IntN(s.n), 0)
			req = &Request{Template: TemplateRef{Text: fmt.Sprint("circle ", k+r.IntN(2))}, Origin: &Pos{o.X, o.Y, 0}}
		default:
			o := grid.C(r.IntN(s.n), r.IntN(s.n), 0)
			req = &Request{Template: TemplateRef{Text: fmt.Sprintf("Cir%dh1", k+1)}, Origin: &Pos{o.X, o.Y, 0}}
			if kind == "tdgs-barriers" {
				req.Barriers = &yes
			}
		}
		req.Tokens, req.Obstacles = s.tokens, s.obstacles
		what := fmt.Sprintf("scene %d (%s %s, origin %v, caster %v, %d walls %+v, %d obstacles)", i, kind, req.Template.Text, req.Origin, req.Caster, len(s.walls), s.walls, len(s.obstacles))
		plain := mustEvaluate(t, req)
		wreq := *req
		wreq.Walls = s.walls
		walled := mustEvaluate(t, &wreq)
		cut, blocked := checkMonotone(t, what, plain, walled, s.walls, kind == "tdgs")
		if cut > 0 {
			seen["an area cut by walls"]++
		}
		seen["a target line blocked by walls"] += blocked
		for name, ws := range map[string][]Wall{"open": openedWalls(s.walls), "far": farWalls(s.walls)} {
			v := *req
			v.Walls = ws
			sameResult(t, what+": "+name+" walls", plain, mustEvaluate(t, &v))
		}
		v := *req
		v.Walls = swappedWalls(s.walls)
		sameResult(t, what+": walls drawn b → a", walled, mustEvaluate(t, &v))

		switch {
		case kind == "circle50":
			x := 0
			fmt.Sscanf(req.Template.Text, "circle %d", &x)
			checkCellsAre(t, what, walled.Cells, refCircle50(x, cellOf([3]int{req.Origin.X, req.Origin.Y, 0}), s.full, s.walls), 0)
		case kind == "burst" && wallsOnly:
			checkCellsAre(t, what, walled.Cells, refBurstCells(k, grid.C(req.Caster.X, req.Caster.Y, 0), s.walls), 0)
		case kind == "tdgs-barriers" && wallsOnly:
			checkCellsAre(t, what, walled.Cells, refTDGSBarrierCells(k+1, grid.C(req.Origin.X, req.Origin.Y, 0), s.walls), 0)
		}

		if checkCoverProperty(t, r, s, wallsOnly, what) {
			seen["an attack's grade raised by walls"]++
		}
		if checkMoveProperty(t, r, s, what) {
			seen["a forced movement cut short by walls"]++
		}
	}
	for _, k := range []string{"an area cut by walls", "a target line blocked by walls", "an attack's grade raised by walls", "a forced movement cut short by walls"} {
		if seen[k] < 20 {
			t.Errorf("only %d cases of %s: the random scenes test too little", seen[k], k)
		}
	}
	t.Logf("cases: %v", seen)
}

// checkCoverProperty: an attack-cover request (§5.7) on the scene, with and without its walls.
// Walls never lower the grade; the variants change nothing; without obstacles every line is
// blocked exactly when the reference says a wall blocks it, and the counts follow the lines.
func checkCoverProperty(t *testing.T, r *rand.Rand, s *wallScene, wallsOnly bool, what string) (raised bool) {
	t.Helper()
	a, b := s.freeCell(r), s.freeCell(r)
	if a == b {
		return false
	}
	kinds := []AttackKind{AttackRanged, AttackReach}
	if grid.Dist(a, b) == 1 {
		kinds = append(kinds, AttackMelee)
	}
	req := &CoverRequest{Rules: []Rules{RulesTDGS, RulesDrawSteel, RulesDnD35}[r.IntN(3)], Attack: kinds[r.IntN(len(kinds))],
		Attacker: Attacker{ID: "att", X: a.X, Y: a.Y, Flying: r.IntN(4) == 0}, Target: Token{ID: "tgt", X: b.X, Y: b.Y, Prone: r.IntN(5) == 0},
		Obstacles: s.obstacles}
	what = fmt.Sprintf("%s: cover %s %s %v → %v", what, req.Rules, req.Attack, a, b)
	plain := mustCover(t, req)
	wreq := *req
	wreq.Walls = s.walls
	walled := mustCover(t, &wreq)
	if gradeRank[walled.Grade] < gradeRank[plain.Grade] {
		t.Errorf("%s: walls lowered the grade: %s, without %s", what, brief(walled), brief(plain))
	}
	for name, ws := range map[string][]Wall{"open": openedWalls(s.walls), "far": farWalls(s.walls)} {
		v := *req
		v.Walls = ws
		sameResult(t, what+": "+name+" walls", plain, mustCover(t, &v))
	}
	v := *req
	v.Walls = swappedWalls(s.walls)
	sameResult(t, what+": walls drawn b → a", walled, mustCover(t, &v))
	n := 0
	for _, l := range walled.Lines {
		if l.Blocked {
			n++
		}
		if wallsOnly && l.Blocked != refWallsBlock(latticePoint(l.From), latticePoint(l.To), s.walls) {
			t.Errorf("%s: line %v → %v blocked %v, the reference says %v", what, l.From, l.To, l.Blocked, !l.Blocked)
		}
	}
	if n != walled.Blocked || len(walled.Lines) != walled.Total || walled.LineOfEffect != (n < walled.Total) {
		t.Errorf("%s: counts %s do not follow the %d lines (%d blocked)", what, brief(walled), len(walled.Lines), n)
	}
	return gradeRank[walled.Grade] > gradeRank[plain.Grade]
}

// checkMoveProperty: a forced movement (§3.7) on the scene, with and without its walls. Walls
// only cut the path short: with them it is the path without them up to the first step a wall
// blocks — for a one-square creature, the first step, among the squares entered and the square
// the move was stopped at, whose centre-to-centre segment the reference finds blocked — and
// that step is then a collision with the wall, at its square, with distance − i left.
func checkMoveProperty(t *testing.T, r *rand.Rand, s *wallScene, what string) (cut bool) {
	t.Helper()
	if len(s.tokens) == 0 {
		return false
	}
	g := s.tokens[r.IntN(len(s.tokens))]
	req := &MoveRequest{Target: g.ID, Tokens: s.tokens, Obstacles: s.obstacles, Distance: 1 + r.IntN(6)}
	if r.IntN(4) == 0 {
		req.Bounds = &Bounds{Max: [3]int{s.n - 1, s.n - 1, 3}}
	}
	switch r.IntN(3) {
	case 0, 1:
		req.Kind = []MoveKind{MovePush, MovePull}[r.IntN(2)]
		req.Source = Pos{r.IntN(s.n), r.IntN(s.n), 0}
	default:
		req.Kind = MoveSlide
		req.Vertical = r.IntN(3) == 0
		at := grid.C(g.X, g.Y, 0)
		req.Path = [][3]int{}
		for range 1 + r.IntN(req.Distance) {
			d := grid.C(r.IntN(3)-1, r.IntN(3)-1, 0)
			if req.Vertical && r.IntN(3) == 0 {
				d.Z = 1
			}
			if d == (grid.Cell{}) {
				d.X = 1
			}
			at = at.Add(d)
			req.Path = append(req.Path, [3]int{at.X, at.Y, at.Z})
		}
	}
	what = fmt.Sprintf("%s: %s %d of %s (size %d) from %v path %v", what, req.Kind, req.Distance, g.ID, max(g.Size, 1), req.Source, req.Path)
	plain, err := Move(req)
	wreq := *req
	wreq.Walls = s.walls
	walled, werr := Move(&wreq)
	if err != nil || werr != nil {
		if !reflect.DeepEqual(err, werr) {
			t.Errorf("%s: error %v without walls, %v with", what, err, werr)
		}
		return false
	}
	if len(walled.Path) > len(plain.Path) || !slices.Equal(walled.Path, plain.Path[:len(walled.Path)]) {
		t.Errorf("%s: walls did not cut the path short: %v, without %v", what, walled.Path, plain.Path)
	}
	if len(walled.Path) < len(plain.Path) && (walled.Collision == nil || walled.Collision.Kind != CollisionWall) {
		t.Errorf("%s: cut short without a collision with a wall: %s", what, brief(walled))
	}
	for name, ws := range map[string][]Wall{"open": openedWalls(s.walls), "far": farWalls(s.walls)} {
		v := *req
		v.Walls = ws
		sameResult(t, what+": "+name+" walls", plain, mustMove(t, &v))
	}
	v := *req
	v.Walls = swappedWalls(s.walls)
	sameResult(t, what+": walls drawn b → a", walled, mustMove(t, &v))
	cut = walled.Collision != nil && walled.Collision.Kind == CollisionWall
	if max(g.Size, 1) != 1 {
		return cut
	}
	steps := slices.Clone(plain.Path)
	if plain.Collision != nil {
		steps = append(steps, plain.Collision.At)
	}
	want := plain
	prev := grid.C(g.X, g.Y, 0)
	for i, c := range steps {
		next := gridCell(c)
		if refWallsBlock(centre3(prev), centre3(next), s.walls) {
			want = &MoveResult{Path: plain.Path[:i], End: Pos{prev.X, prev.Y, prev.Z},
				Collision: &Collision{Kind: CollisionWall, With: "wall", At: c, Left: req.Distance - i}}
			break
		}
		prev = next
	}
	sameResult(t, what+": the reference", want, walled)
	return cut
}

// ---- 7. The cost of walls ----

// benchWalls is n walls on grid lines of the n × n board, 1 to 3 squares long, scattered
// at random (fixed seed).
func benchWalls(seed uint64, board, n int) []Wall {
	r := rand.New(rand.NewPCG(seed, 5))
	out := make([]Wall, n)
	for i := range out {
		x, y, l := float64(r.IntN(board)), float64(r.IntN(board)), float64(1+r.IntN(3))
		if r.IntN(2) == 0 {
			out[i] = wl(x, y, x+l, y)
		} else {
			out[i] = wl(x, y, x, y+l)
		}
	}
	return out
}

// BenchmarkEvaluateWalls: the board of BenchmarkTypical (60 × 60, 40 tokens, 300 obstacle
// cells) with no walls and with 5 000 short walls on its grid lines, for the TDGS Cir6 of
// BenchmarkTypical, the Draw Steel 5 burst of BenchmarkBurstWalls and a TDGS Cir20 with
// barriers on the board's level (bounds z 0…0: a segment from the origin's centre to every
// square's).
func BenchmarkEvaluateWalls(b *testing.B) {
	scattered := benchWalls(7, 60, 5000)
	for _, tc := range []struct {
		name  string
		setup func(req *Request)
	}{
		{"tdgs-Cir6", func(req *Request) { req.Template = TemplateRef{Text: "Cir6"}; req.Origin = &Pos{38, 30, 0} }},
		{"drawsteel-5burst", func(req *Request) { req.Template = TemplateRef{Text: "5 burst"}; req.Range = Range{} }},
		{"tdgs-Cir20-barriers-flat", func(req *Request) {
			yes := true
			req.Template, req.Origin, req.Range, req.Barriers = TemplateRef{Text: "Cir20"}, &Pos{38, 30, 0}, Range{}, &yes
			req.Bounds = &Bounds{Max: [3]int{59, 59, 0}}
		}},
	} {
		for _, n := range []int{0, len(scattered)} {
			b.Run(fmt.Sprintf("%s/walls=%d", tc.name, n), func(b *testing.B) {
				req := benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{})
				tc.setup(req)
				req.Walls = scattered[:n]
				runBench(b, req)
			})
		}
	}
}
