package engine

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/cover"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
	"github.com/aoekit/aoekit/core/template"
)

// The tests of SPEC §8.3's bound on work: the worst cases an attack found, generated worst
// cases at the limits, and the analytic bound itself. None of them times anything: work is
// counted — by the budget's reckoning (s.w.spent), which TestBudget_ReckoningBoundsTheWalks
// holds to be an upper bound of the cells the walks read, by the rows and slots a cell set
// goes through, by the bytes an evaluation allocates.

// evaluateWork answers req as Evaluate does and returns the work its budget reckoned.
func evaluateWork(req *Request) (*Result, int, *Error) {
	s, e := setupOf(req, nil)
	if e != nil {
		return nil, 0, e
	}
	res, e := s.answer(s.window())
	return res, s.w.spent, e
}

// allocated is the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// §8.3: the attack's Lin1000SE with 10 000 tokens of size 100 in its box (589 KB of request)
// ran for hours: each token's 10⁶ cells were looked up in the line's cells. A token now meets
// the line through its rows: 100 rows a token, and no cell of the line's columns, which lie
// elsewhere on those rows.
func TestWorstCase_8_3_LineTokensMeetTheLineByRows(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 500
	}
	req := lineTokens(n)
	res, work, err := evaluateWork(req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Count != 1 || len(res.Targets) != 0 {
		t.Fatalf("%d cells, targets %v; want 1 cell, no targets", res.Count, targetIDs(res))
	}
	if work > 101*n+1000 {
		t.Errorf("the budget reckoned %d steps for %d tokens: more than their 100 rows each", work, n)
	}
	s, _ := setupOf(req, nil)
	set := newCellSet(s.shape, s.at.Placement, s.foot, stIn)
	e, _ := entityOf(field("t"), &req.Tokens[0])
	if w := set.scan(e.space.Box(), nil); w > 100 {
		t.Errorf("finding a token in the line goes through %d rows and slots, past its 100 rows", w)
	}
}

// §8.3: a 135-byte Lin1000SE request peaked near 70 MB (a map of its 10⁶ cells, in a box of
// 10⁹). Its answer lists 10⁶ cells (12 MB); the cell set takes a byte a cell. Clipped by the
// bounds to a 60 × 60 board, the answer is small and so is the memory.
func TestWorstCase_8_3_Lin1000SEMemoryIsTheAnswers(t *testing.T) {
	req := &Request{Template: TemplateRef{Text: "Lin1000SE"}, Caster: &Token{ID: "c"}}
	var res *Result
	if b := allocated(func() { res = mustEvaluate(t, req) }); b > 16<<20 {
		t.Errorf("Lin1000SE allocates %d bytes, for an answer of %d cells", b, res.Count)
	}
	if res.Count != 1000000 {
		t.Errorf("%d cells, want 10⁶", res.Count)
	}
	req.Bounds = &Bounds{Max: [3]int{59, 59, 0}}
	if b := allocated(func() { res = mustEvaluate(t, req) }); b > 2<<20 {
		t.Errorf("Lin1000SE on a 60 × 60 board allocates %d bytes, for an answer of %d cells", b, res.Count)
	}
	if res.Count != 59 {
		t.Errorf("%d cells on the board, want 59", res.Count)
	}
}

// §3.2, §8.3: a Draw Steel burst from a caster boxed in by full obstacles. Every segment from
// the caster leaves through them, so no cell beyond the box has line of effect: the flood of
// reachable finds that once, and no cell beyond is walked to. The attack's 49 burst inside the
// 26 cells around the caster took 4.9 s; with the shell at distance 5, 7.3 s; a 40 burst from
// a size-20 caster inside a shell, over 120 s. Now the budget reckons only the cells inside.
func TestWorstCase_3_2_BoxedInBurstWalksOnlyInside(t *testing.T) {
	cases := []struct {
		name         string
		req          *Request
		cells        int // the caster's cells and those inside the shell
		maxWork      int // the budget's reckoning: the cells inside, 49 segments each at most; finding the caster
		slowerThanMs int // the attack's native time before
	}{
		{"49 burst, 26 cells around", boxedBurst(49, 1, 1), 1, 100, 4900},
		{"49 burst, shell at 5", boxedBurst(49, 1, 5), 729, 729 * (1 + 49*(segCost+30)), 7300},
		{"40 burst, size 20, shell at 1", boxedBurst(40, 20, 1), 8000, 8000*2 + 100, 120000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if testing.Short() && c.cells > 1000 {
				t.Skip("a size-20 caster: 1.4 × 10⁶ cells to mark")
			}
			res, work, err := evaluateWork(c.req)
			if err != nil {
				t.Fatal(err)
			}
			if res.Count != c.cells {
				t.Errorf("%d cells in the area, want %d", res.Count, c.cells)
			}
			if work > c.maxWork {
				t.Errorf("the budget reckoned %d steps, past %d (the cells inside)", work, c.maxWork)
			}
		})
	}
}

// worstCase is a generated request at the limits (SPEC §8.3), or a move.
type worstCase struct {
	name string
	req  *Request
	move *MoveRequest
	slow bool // skipped by -short
}

// worstCases generates requests at the limits: huge lines with many huge tokens, boxed-in and
// open bursts at the size limits, 50 % circles of size 500 with rings of obstacles, walls,
// Draw Steel lines climbing through space, crowds of huge tokens in barred areas, huge
// casters, cover for thousands of tokens, and long forced movements of huge tokens.
func worstCases() []worstCase {
	yes := true
	var cs []worstCase
	add := func(name string, slow bool, req *Request) {
		cs = append(cs, worstCase{name: name, req: req, slow: slow})
	}
	add("line, 10 000 size-100 tokens in its box", true, lineTokens(10000))
	add("line, 20 size-100 tokens", false, lineTokens(20))
	add("line of 10⁶ cells", false, &Request{Template: TemplateRef{Text: "Lin1000SE"}, Caster: &Token{ID: "c"}})
	wide := &Request{Template: TemplateRef{Text: "Lin1000Ew1000h1"}, Caster: &Token{ID: "c"}, Barriers: &yes, Obstacles: []Obstacle{{X: 1, Y: 1, Fill: 0.5}}}
	add("line 1000 wide cut by barriers", false, wide)
	add("49 burst boxed in", false, boxedBurst(49, 1, 1))
	add("49 burst, shell at 5", false, boxedBurst(49, 1, 5))
	add("40 burst, size 20 caster, shell", true, boxedBurst(40, 20, 1))
	add("49 burst by a low wall", false, &Request{Template: TemplateRef{Text: "49 burst"}, Caster: &Token{ID: "c"}, Obstacles: []Obstacle{{X: 1, Fill: 0.5}}})
	add("49 burst by a pillar", false, &Request{Template: TemplateRef{Text: "49 burst"}, Caster: &Token{ID: "c"}, Obstacles: []Obstacle{{X: 2}}})
	holed := boxedBurst(49, 1, 5)
	holed.Obstacles = holed.Obstacles[1:] // a hole in the shell
	add("49 burst, shell at 5 with a hole", false, holed)
	add("16 burst behind a wall", false, func() *Request {
		req := &Request{Template: TemplateRef{Text: "16 burst"}, Caster: &Token{ID: "c"}, Obstacles: []Obstacle{{X: -1, Fill: 0.5}}}
		for y := -16; y <= 16; y++ {
			for z := -16; z <= 16; z++ {
				req.Obstacles = append(req.Obstacles, Obstacle{X: 14, Y: y, Z: z})
			}
		}
		return req
	}())
	rings := &Request{Template: TemplateRef{Text: "circle 500"}, Origin: &Pos{}}
	for a := range 4000 {
		for _, r := range []float64{100, 200, 300, 400} {
			if a%500 != 0 { // gaps
				s, c := math.Sincos(float64(a) * math.Pi / 2000)
				rings.Obstacles = append(rings.Obstacles, Obstacle{X: int(r * c), Y: int(r * s)})
			}
		}
	}
	for i := range 2000 {
		rings.Tokens = append(rings.Tokens, Token{ID: fmt.Sprint("t", i), X: -450 + i%30*30, Y: -450 + i/30*14, Size: 4})
	}
	add("circle 500 with rings and 2000 tokens", false, rings)
	add("close circle 500 as a Draw Steel area", false, &Request{Template: TemplateRef{Text: "close circle 500"}, Rules: "drawsteel",
		Caster: &Token{ID: "c"}, Obstacles: shell(grid.C(0, 0, 0), 1, 3)})
	add("Cir200h1 cut by barriers", false, &Request{Template: TemplateRef{Text: "Cir200h1"}, Origin: &Pos{}, Barriers: &yes, Obstacles: []Obstacle{{X: 1, Fill: 0.5}}})
	add("Cir500h1 as a 50 % circle", false, &Request{Template: TemplateRef{Text: "Cir500h1"}, Origin: &Pos{}, Rules: "circle50", Obstacles: []Obstacle{{X: 1}, {X: 3, Y: 3}}})
	add("Lin1000SE as a 50 % circle", false, &Request{Template: TemplateRef{Text: "Lin1000SE"}, Caster: &Token{ID: "c"}, Rules: "circle50", Obstacles: []Obstacle{{X: 5, Y: 5, Z: 3}}})
	add("1000 x 32 line climbing", false, &Request{Template: TemplateRef{Text: "1000 x 32 line"}, Caster: &Token{ID: "c"}, Origin: &Pos{1, 1, 1}, Aim: &Pos{1000, 900, 800},
		Obstacles: []Obstacle{{X: 3, Y: 2, Z: 2, Fill: 0.5}}})
	wall := &Request{Template: TemplateRef{Text: "1000 wall"}, Caster: &Token{ID: "c", X: -5}}
	for i := range 1000 {
		wall.Path = append(wall.Path, [3]int{i / 40, i%40*(1-i/40%2*2) + i/40%2*39, 0})
	}
	for i := range 10000 {
		wall.Tokens = append(wall.Tokens, Token{ID: fmt.Sprint("t", i), X: -100 - i%100, Y: i / 100, Size: 1})
	}
	add("1000 wall, 10 000 tokens", false, wall)
	crowd := boxedBurst(40, 1, 1) // every cell barred but the caster's
	for i := range 10000 {
		crowd.Tokens = append(crowd.Tokens, Token{ID: fmt.Sprint("t", i), X: -40 + i%10, Y: -40, Z: -40, Size: 39})
	}
	add("10 000 size-39 tokens in a barred area", true, crowd)
	cube := &Request{Template: TemplateRef{Text: "1 cube within 1000"}, Caster: &Token{ID: "c", Size: 100, Height: 100}, Origin: &Pos{800, 800, 800},
		Obstacles: shell(grid.C(800, 800, 800), 1, 1)}
	add("size-100 caster, origin square boxed in", false, cube)
	cover := &Request{Template: TemplateRef{Text: "Cir60h4"}, Origin: &Pos{}, Obstacles: []Obstacle{{X: 1, Fill: 0.5}}}
	for i := range 10000 {
		cover.Tokens = append(cover.Tokens, Token{ID: fmt.Sprint("t", i), X: -60 + i%120, Y: -60 + i/120, Size: 1 + i%4})
	}
	add("cover for 10 000 tokens", false, cover)
	push := longPush()
	cs = append(cs, worstCase{name: "push a size-100 token 1000 squares", move: push})
	slide := *push
	slide.Kind, slide.Path = "slide", nil
	for i := range 1000 {
		slide.Path = append(slide.Path, [3]int{1 - i%2, 0, 0}) // back and forth
	}
	cs = append(cs, worstCase{name: "slide a size-100 token back and forth", move: &slide})
	return cs
}

// Property (§8.3): every generated worst case either is refused by the budget (too_large,
// naming the steps of work or the cover lines, MaxLines) or answers with its reckoned work under the limit — and the
// reckoning bounds the walks' work (TestBudget_ReckoningBoundsTheWalks), the rest being
// bounded by the sizes (MaxCells, MaxTokens, MaxObstacles). Each case runs once; -short skips
// the slowest to mark.
func TestWorstCase_8_3_RefusedOrUnderTheLimit(t *testing.T) {
	refused := 0
	for _, c := range worstCases() {
		t.Run(c.name, func(t *testing.T) {
			if c.slow && testing.Short() {
				t.Skip("slow to mark: skipped by -short")
			}
			if c.move != nil {
				if _, err := Move(c.move); err != nil {
					t.Fatal(err)
				}
				return
			}
			_, work, err := evaluateWork(c.req)
			switch {
			case err != nil && err.Code == CodeTooLarge && (strings.Contains(err.Message, "steps of work, past the limit of") ||
				strings.Contains(err.Message, "cover lines, past the limit of")):
				refused++
				t.Logf("refused: %s", err.Message)
			case err != nil:
				t.Fatal(err)
			case work > MaxWork:
				t.Errorf("answered with %d steps of work reckoned, past the limit", work)
			default:
				t.Logf("%d steps of work", work)
			}
		})
	}
	if refused == 0 && !testing.Short() {
		t.Errorf("no worst case was refused: the cases are not at the limits")
	}
}

// sceneOf is the scene an evaluation of req works on (its window's); ok is false when req is
// refused before that.
func sceneOf(req *Request) (sc *scene, ok bool) {
	s, e := setupOf(req, nil)
	if e != nil {
		return nil, false
	}
	sc, e = s.sceneIn(s.window())
	return sc, e == nil
}

// countingSolids counts the cells a walk reads (Fill), keeping the board's Regions shortcut
// but not its level arrays (los.Layers), whose reads it could not count.
type countingSolids struct {
	*board.Solids
	n *int
}

func (s countingSolids) Fill(c grid.Cell) int { *s.n++; return s.Solids.Fill(c) }

func (countingSolids) Layer(int) ([]uint8, int, grid.Cell, []uint16) { return nil, 0, grid.Cell{}, nil }

// Property (§8.3): the budget's reckoning of a line-of-effect check (lineWork, with
// profile.segments, or corners for cover) bounds the cells its walks read: a walk step reads
// at most 8 (one per octant around a crossing), so reads ≤ 8 × the steps reckoned. On random
// boards with full, partial and no obstacles, for every cell of Draw Steel and TDGS areas cut
// by barriers, the origin square and every target's cover.
func TestBudget_ReckoningBoundsTheWalks(t *testing.T) {
	r := newRand(83)
	checked := 0
	for i := 0; i < 300; i++ {
		req := randomRequest(r)
		req.Rules = []Rules{"drawsteel", "tdgs"}[i%2]
		yes := true
		req.Barriers = &yes
		sc, ok := sceneOf(req)
		if !ok {
			continue
		}
		n := 0
		count := countingSolids{sc.solids.Solids, &n}
		check := func(what string, reckoned int, walk func()) {
			n = 0
			walk()
			if n > 8*reckoned {
				t.Fatalf("case %d: %s reads %d cells, reckoned %d steps\nrequest %s", i, what, n, reckoned, describe(req))
			}
			checked++
		}
		cl := sc.prof.cornerLines()
		sc.shape.Cells(sc.at.Placement, func(c grid.Cell) {
			u := grid.Unit(c)
			check(fmt.Sprint("line of effect to ", c), sc.areaCellWork(sc.at.from, c, sc.prof.areaSegments(sc.at.from)), func() {
				if cl {
					cover.AnyCellLine(sc.at.from, u, count) // SPEC §3.2: from any of its cells
				} else {
					los.Blocked(sc.at.src, los.Centre(c), count)
				}
			})
		})
		if sc.caster != nil && !sc.at.fromSelf {
			sq := grid.Unit(sc.at.square)
			check("line of effect to the origin square", sc.cellWork(sc.caster.space, sc.at.square, sc.prof.segments(sc.caster.space)), func() {
				if cl {
					cover.CornerLine(sc.caster.space, sq, count)
				} else {
					cover.CentreLine(sc.caster.space.Nearest(sc.at.square), sc.at.square, count)
				}
			})
		}
		for _, tk := range sc.tokens {
			check("cover of "+tk.tok.ID, sc.lineWork(sc.at.from, tk.space, corners(tk.space, sc.at.src, false)), func() {
				cover.FromPoint(sc.at.src, cover.Target{Space: tk.space, Prone: tk.tok.Prone}, count)
			})
			if got := len(cover.FromPoint(sc.at.src, cover.Target{Space: tk.space}, sc.solids).Segments); got > corners(tk.space, sc.at.src, false) {
				t.Fatalf("case %d: %s shows %d segments, reckoned %d", i, tk.tok.ID, got, corners(tk.space, sc.at.src, false))
			}
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d checks", checked)
	}
}

// Property (§8.3, §3.2): an area traced from a caster of several squares, corner to corner,
// reckons a cell only its nearest square's segments when nothing blocks near their box
// (areaCellWork), and rightly: line of effect from any of the caster's cells (cover's
// AnyCellLine, and Source.Sees, which the engine walks) tries that square first, and decides
// there, reading no cell. Draw Steel bursts and auras from casters of 2 … 5 squares, some
// flying, among a few obstacles and walls, on boards with and without bounds.
func TestBudget_8_3_AnAreaFromSeveralSquaresTriesTheNearestFirst(t *testing.T) {
	r := newRand(85)
	cheap, full := 0, 0
	for i := 0; i < 200; i++ {
		size := 2 + r.IntN(4)
		req := &Request{Template: TemplateRef{Text: fmt.Sprint(1+r.IntN(5), []string{" burst", " aura"}[r.IntN(2)])},
			Caster: &Token{ID: "c", X: 10, Y: 10, Z: r.IntN(3), Size: size}}
		for range r.IntN(4) {
			req.Obstacles = append(req.Obstacles, Obstacle{X: 4 + r.IntN(18), Y: 4 + r.IntN(18), Z: r.IntN(3), Fill: fills[r.IntN(len(fills))]})
		}
		if r.IntN(3) == 0 {
			req.Walls = append(req.Walls, Wall{A: [2]float64{float64(4 + r.IntN(18)), float64(4 + r.IntN(18))}, B: [2]float64{float64(4 + r.IntN(18)), float64(4 + r.IntN(18))}})
		}
		if r.IntN(2) == 0 {
			req.Bounds = &Bounds{Max: [3]int{30, 30, 0}}
		}
		sc, ok := sceneOf(req)
		if !ok {
			t.Fatalf("case %d: %s refused", i, describe(req))
		}
		from := cover.NewSourceCells(sc.at.from)
		sc.shape.Cells(sc.at.Placement, func(c grid.Cell) {
			u := grid.Unit(c)
			if sc.at.from.Contains(c) {
				return
			}
			near := grid.Unit(cover.NearestCell(sc.at.from.Box(), u.Box()))
			if sc.areaCellWork(sc.at.from, c, sc.prof.areaSegments(sc.at.from)) != sc.lineWork(near, u, sc.prof.segments(near)) {
				full++
				return
			}
			cheap++
			n := 0
			count := countingSolids{sc.solids.Solids, &n}
			any := cover.AnyCellLine(sc.at.from, u, count)
			sees := from.Sees(u, count)
			if n != 0 || !any || !sees {
				t.Fatalf("case %d: %v, reckoned from %v alone, read %d cells (line of effect %v, %v)\nrequest %s", i, c, near.Anchor, n, any, sees, describe(req))
			}
		})
	}
	if cheap < 10000 || full < 1000 {
		t.Errorf("%d cells reckoned from the nearest square alone, %d in full: too few of one to show anything", cheap, full)
	}
}

// Property (§8.3): neededAtMost, the count of cells cutByBarriers reckons before it walks,
// is at least the number of cells needed visits, with bounds (random ones, flat ones, ones
// the area spills past) and without, on random requests of every shape.
func TestBudget_NeededAtMostBoundsTheCellsVisited(t *testing.T) {
	r := newRand(84)
	checked, tighter := 0, 0
	for i := 0; i < 600; i++ {
		req := randomRequest(r)
		switch i % 3 {
		case 0:
			req.Bounds = &Bounds{Max: [3]int{11, 11, 0}}
		case 1:
			req.Bounds = &Bounds{Min: [3]int{r.IntN(6), r.IntN(6), r.IntN(2) - 1}, Max: [3]int{6 + r.IntN(6), 6 + r.IntN(6), r.IntN(2)}}
		}
		sc, ok := sceneOf(req)
		if !ok {
			continue
		}
		set := newCellSet(sc.shape, sc.at.Placement, sc.foot, stBarred)
		visited := 0
		sc.needed(set, func(grid.Cell) { visited++ })
		bound := sc.neededAtMost(set)
		if visited > bound {
			t.Fatalf("case %d: needed visits %d cells, neededAtMost says %d\nrequest %s", i, visited, bound, describe(req))
		}
		if bound > sc.foot.count {
			t.Fatalf("case %d: neededAtMost %d, past the shape's %d cells", i, bound, sc.foot.count)
		}
		checked++
		if bound < sc.foot.count {
			tighter++
		}
	}
	if checked < 400 || tighter < 100 {
		t.Fatalf("%d requests checked, %d of them with a bound below the shape's count", checked, tighter)
	}
}

// Property (§3.2, §5.2): no clear segment leaves the flood of reachable. On random small
// boards of full, partly filled and empty cells, segments between the points line of effect
// and cover use — centres and inset corners of cells, the centre of the source space — and
// between points picked to pass exactly through edges and corners: when one from a point of
// the source space to a point inside cell Q is clear, the flood from the source reaches Q.
func TestReachable_NoClearSegmentLeavesTheFlood(t *testing.T) {
	r := newRand(53)
	const n = 5
	clear := 0
	for i := 0; i < 3000; i++ {
		var solids []board.Solid
		for range r.IntN(40) {
			f := []int{board.Full, board.Full, board.Full, 200, 1, 399, 120}[r.IntN(7)]
			solids = append(solids, board.Solid{Cell: grid.C(r.IntN(n), r.IntN(n), r.IntN(n)), Fill: f})
		}
		sc := &scene{solids: terrainOf(board.New(solids), nil)}
		sc.w = &budget{}
		size := 1 + r.IntN(2)
		from := grid.Space{Anchor: grid.C(r.IntN(n-size+1), r.IntN(n-size+1), r.IntN(n-size+1)), Size: size, Height: size}
		sc.at.from = from
		hull := grid.Box{Min: grid.C(0, 0, 0), Max: grid.C(n-1, n-1, n-1)}
		sc.foot.count = n * n * n
		set := &cellSet{} // no cells of a shape: only the flood is wanted
		seen, _ := sc.reachable(set, hull, math.MaxInt)
		point := func(c grid.Cell) los.Point {
			switch r.IntN(3) {
			case 0:
				return los.Centre(c)
			case 1: // an inset corner
				v := los.Vertex(c)
				pick := func(k int) int64 { return []int64{1, los.Unit - 1}[k] }
				return los.Point{X: v.X + pick(r.IntN(2)), Y: v.Y + pick(r.IntN(2)), Z: v.Z + pick(r.IntN(2))}
			}
			v := los.Vertex(c) // any point inside
			return los.Point{X: v.X + 1 + r.Int64N(los.Unit-1), Y: v.Y + 1 + r.Int64N(los.Unit-1), Z: v.Z + 1 + r.Int64N(los.Unit-1)}
		}
		for range 40 {
			a := from.Anchor.Add(grid.C(r.IntN(size), r.IntN(size), r.IntN(size)))
			p, onPlanes := point(a), false
			if r.IntN(4) == 0 {
				p, onPlanes = centre(from), size == 2
			}
			q := grid.C(r.IntN(n), r.IntN(n), r.IntN(n))
			qp := point(q)
			if r.IntN(2) == 0 && !onPlanes { // through edges and corners: whole diagonal steps from p
				d := q.Sub(a)
				k := max(abs(d.X), abs(d.Y), abs(d.Z))
				if k == 0 {
					continue
				}
				qp = p.Add(los.Point{X: int64(sgn(d.X) * k * los.Unit), Y: int64(sgn(d.Y) * k * los.Unit), Z: int64(sgn(d.Z) * k * los.Unit)})
				if !qp.InRange() || qp.Cell().X >= n || qp.Cell().Y >= n || qp.Cell().Z >= n || qp.Cell().X < 0 || qp.Cell().Y < 0 || qp.Cell().Z < 0 {
					continue
				}
				q = qp.Cell()
			}
			if los.Blocked(p, qp, sc.solids) {
				continue
			}
			clear++
			if !seen[boxIndex(hull, q)] {
				t.Fatalf("case %d: the segment %v → %v is clear, but the flood from %+v does not reach %v\nsolids %v", i, p, qp, from, q, solids)
			}
		}
	}
	if clear < 20000 {
		t.Fatalf("only %d clear segments", clear)
	}
}

func abs(v int) int { return max(v, -v) }
func sgn(v int) int { return min(max(v, -1), 1) }

// §3.2, §5.2: what the flood of reachable must let through, which a flood that refuses every
// diagonal squeeze between full obstacles would not: a segment grazing the top of a partly
// filled cell between two full blocks meeting at an edge, and a segment through a corner
// ringed by six full blocks (they meet by faces, not only diagonally). And what it stops: two
// full blocks meeting at an edge between empty cells.
func TestReachable_5_2_Squeezes(t *testing.T) {
	full := func(cells ...grid.Cell) []board.Solid {
		var out []board.Solid
		for _, c := range cells {
			out = append(out, board.Solid{Cell: c, Fill: board.Full})
		}
		return out
	}
	flat, cube := grid.C(1, 1, 0), grid.C(1, 1, 1) // the far corner of the hull from (0, 0, 0)
	cases := []struct {
		name           string
		solids         []board.Solid
		top            grid.Cell // the hull is (0, 0, 0) … top
		p, q           los.Point
		clear, reached bool
	}{
		{"edge pinch over a low wall", append(full(grid.C(1, 0, 0), grid.C(0, 1, 0)), board.Solid{Cell: grid.C(0, 0, 0), Fill: 200}), flat,
			los.Point{X: 300, Y: 300, Z: 250}, los.Point{X: 500, Y: 500, Z: 150}, true, true},
		{"edge pinch", full(grid.C(1, 0, 0), grid.C(0, 1, 0)), flat,
			los.Point{X: 300, Y: 300, Z: 250}, los.Point{X: 500, Y: 500, Z: 150}, false, false},
		{"corner ringed by six", full(grid.C(1, 0, 0), grid.C(0, 1, 0), grid.C(0, 0, 1), grid.C(1, 1, 0), grid.C(0, 1, 1), grid.C(1, 0, 1)), cube,
			los.Centre(grid.C(0, 0, 0)), los.Centre(cube), true, true},
		{"corner pinched by two, open by faces", full(grid.C(1, 0, 0), grid.C(0, 1, 1)), cube,
			los.Centre(grid.C(0, 0, 0)), los.Centre(cube), false, true},
		{"corner ringed by five, one run", full(grid.C(1, 0, 0), grid.C(0, 1, 0), grid.C(0, 0, 1), grid.C(1, 1, 0), grid.C(0, 1, 1)), cube,
			los.Centre(grid.C(0, 0, 0)), los.Centre(cube), true, true},
		{"corner pinched by four in two runs", full(grid.C(1, 0, 0), grid.C(0, 1, 0), grid.C(0, 1, 1), grid.C(1, 0, 1)), cube,
			los.Centre(grid.C(0, 0, 0)), los.Centre(cube), false, false},
		{"corner pinched, closed by faces", full(grid.C(1, 0, 0), grid.C(0, 1, 0), grid.C(0, 0, 1), grid.C(0, 1, 1)), cube,
			los.Centre(grid.C(0, 0, 0)), los.Centre(cube), false, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			solids := board.New(c.solids)
			if clear := !los.Blocked(c.p, c.q, solids); clear != c.clear {
				t.Fatalf("the segment is clear: %v, want %v", clear, c.clear)
			}
			sc := &scene{solids: terrainOf(solids, nil)}
			sc.w = &budget{}
			sc.at.from = grid.Unit(c.p.Cell())
			hull := grid.Box{Min: grid.C(0, 0, 0), Max: c.top}
			sc.foot.count = 8
			seen, _ := sc.reachable(&cellSet{}, hull, math.MaxInt)
			if got := seen[boxIndex(hull, c.q.Cell())]; got != c.reached {
				t.Errorf("the flood reaches %v: %v, want %v", c.q.Cell(), got, c.reached)
			}
		})
	}
}

// §3.2: the flood of reachable changes no answer. On random boards, every Draw Steel and
// TDGS area cut by barriers is the same with the cells the flood does not reach left out as
// with every cell walked to.
func TestCut_3_2_TheFloodChangesNoAnswer(t *testing.T) {
	r := newRand(32)
	compared := 0
	for i := 0; i < 600; i++ {
		req := randomRequest(r)
		req.Rules = []Rules{"drawsteel", "tdgs"}[i%2]
		yes := true
		req.Barriers = &yes
		for range r.IntN(60) { // walls of full blocks to box things in
			req.Obstacles = append(req.Obstacles, Obstacle{X: r.IntN(12), Y: r.IntN(12), Z: r.IntN(3) - 1})
		}
		sc, ok := sceneOf(req)
		if !ok || template.CheckCount(sc.foot.count) != nil {
			continue
		}
		hull := sc.foot.box.Union(sc.at.from.Box())
		all := newCellSet(sc.shape, sc.at.Placement, sc.foot, stBarred)
		sc.cut(all, nil, hull, math.MaxInt, true)
		pruned := newCellSet(sc.shape, sc.at.Placement, sc.foot, stBarred)
		seen, _ := sc.reachable(pruned, hull, math.MaxInt)
		if seen == nil {
			continue
		}
		sc.cut(pruned, seen, hull, math.MaxInt, true)
		if string(all.st) != string(pruned.st) {
			t.Fatalf("case %d: the flood changes the area\nrequest %s", i, describe(req))
		}
		compared++
	}
	if compared < 300 {
		t.Fatalf("only %d areas compared", compared)
	}
}

// The cell set holds exactly the cells of the shape (SPEC §2–§4), whatever their shape, in
// memory proportional to them: a byte a cell and a little per row or column.
func TestCellSet_HoldsTheShapeAndNoMore(t *testing.T) {
	r := newRand(7)
	for i := 0; i < 2000; i++ {
		req := randomRequest(r)
		if i%7 == 0 {
			req.Template = TemplateRef{Text: []string{"Lin9SEh4", "Lin6NWw2h3", "Con5SWh2", "circle 6"}[r.IntN(4)]}
			req.Caster.Size = 1
		}
		if i%11 == 0 {
			req.Template, req.Origin = TemplateRef{Text: "6 x 2 line within 20"}, &Pos{2, 3, 1}
			req.Aim = &Pos{r.IntN(20) - 10, r.IntN(20) - 10, r.IntN(20) - 10}
		}
		if i%13 == 0 { // a wall with gaps in its rows and columns
			req.Template, req.Aim = TemplateRef{Text: "12 wall"}, nil
			req.Path = [][3]int{{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {2, 0, 1}, {2, 0, 2}, {1, 0, 2}, {0, 0, 2}, {0, 1, 2}, {0, 2, 2}, {1, 2, 2}, {2, 2, 2}}
		}
		s, e := setupOf(req, nil)
		if e != nil || s.foot.count == 0 {
			continue
		}
		set := newCellSet(s.shape, s.at.Placement, s.foot, stIn)
		in := map[grid.Cell]bool{}
		s.shape.Cells(s.at.Placement, func(c grid.Cell) { in[c] = true })
		b := s.foot.box
		for z := b.Min.Z - 1; z <= b.Max.Z+1; z++ {
			for y := b.Min.Y - 1; y <= b.Max.Y+1; y++ {
				for x := b.Min.X - 1; x <= b.Max.X+1; x++ {
					c := grid.C(x, y, z)
					if got := set.get(c) == stIn; got != in[c] {
						t.Fatalf("case %d %s: %v in the set %v, in the shape %v", i, s.shape, c, got, in[c])
					}
				}
			}
		}
		if len(set.st) > 2*s.foot.count+4096 {
			t.Fatalf("case %d %s: %d slots for %d cells", i, s.shape, len(set.st), s.foot.count)
		}
		n, cells := set.appendCells([][3]int32{}, b, stIn)
		if n != len(in) || len(cells) != n || !sorted(cells) {
			t.Fatalf("case %d %s: %d cells listed (sorted %v), the shape has %d", i, s.shape, n, sorted(cells), len(in))
		}
	}
}

// sorted reports whether cells are in CONTRACT order, once each.
func sorted(cells [][3]int32) bool {
	for i := 1; i < len(cells); i++ {
		a, b := cells[i-1], cells[i]
		if a[2] > b[2] || a[2] == b[2] && (a[1] > b[1] || a[1] == b[1] && a[0] >= b[0]) {
			return false
		}
	}
	return true
}

// Property (§3.7): a move looks only at the cells each square adds to the target's space, and
// stops where looking at the whole space each square would. Random pushes, pulls and slides
// of tokens of sizes 1 … 4 among obstacles, against that reference.
func TestMove_3_7_LooksOnlyAtTheCellsEachSquareAdds(t *testing.T) {
	r := newRand(37)
	for i := 0; i < 2000; i++ {
		size := 1 + r.IntN(4)
		req := &MoveRequest{Kind: []MoveKind{"push", "pull", "slide"}[r.IntN(3)], Distance: 1 + r.IntN(8),
			Source: Pos{r.IntN(16), r.IntN(16), 0}, Target: "g", Vertical: r.IntN(2) == 0,
			Tokens: []Token{{ID: "g", X: 6 + r.IntN(4), Y: 6 + r.IntN(4), Size: size, Height: 1 + r.IntN(size)}}}
		for range r.IntN(30) {
			req.Obstacles = append(req.Obstacles, Obstacle{X: r.IntN(20), Y: r.IntN(20), Z: r.IntN(3), Fill: fills[r.IntN(len(fills))]})
		}
		if req.Kind == "slide" {
			c := [3]int{req.Tokens[0].X, req.Tokens[0].Y, 0}
			for range req.Distance {
				c = [3]int{c[0] + r.IntN(3) - 1, c[1] + r.IntN(3) - 1, 0}
				req.Path = append(req.Path, c)
			}
		}
		res, err := Move(req)
		if err != nil {
			continue
		}
		solids, _ := solidsOf(req.Obstacles)
		g := grid.Space{Anchor: grid.C(req.Tokens[0].X, req.Tokens[0].Y, 0), Size: size, Height: req.Tokens[0].Height}
		stop := -1 // the reference: the first square whose whole space holds an obstacle
		for k, p := range res.Path {
			sp := grid.Space{Anchor: gridCell(p), Size: g.Size, Height: g.Height}
			sp.Cells(func(c grid.Cell) {
				if solids.Fill(c) > 0 && stop < 0 {
					stop = k
				}
			})
		}
		if stop >= 0 {
			t.Fatalf("case %d: square %d of the path %v holds an obstacle", i, stop+1, res.Path)
		}
		if res.Collision != nil && res.Collision.With == "obstacle" {
			sp := grid.Space{Anchor: gridCell(res.Collision.At), Size: g.Size, Height: g.Height}
			hit := false
			sp.Cells(func(c grid.Cell) { hit = hit || solids.Fill(c) > 0 })
			if !hit {
				t.Fatalf("case %d: stopped by an obstacle at %v, where there is none", i, res.Collision.At)
			}
		}
	}
}

// Property (§3.7): a move stops where a walk that looks at every obstacle and every other
// token at every square of its path stops, whatever lies off the path: random pushes, pulls
// and slides, flat and vertical, of tokens of sizes 1 … 6 among obstacles and tokens, some of
// them thousands of squares away (their index's tiles then span many columns, which walk's
// addsSolid halves until it can clear them). The reference takes the engine's path (given
// for a slide; for a push or pull, straightPath's, which this does not test).
func TestMove_3_7_StopsAsAWalkThatLooksAtEverything(t *testing.T) {
	r := newRand(371)
	stops := map[CollisionKind]int{}
	for i := 0; i < 3000; i++ {
		size := 1 + r.IntN(6)
		req := &MoveRequest{Kind: []MoveKind{"push", "pull", "slide"}[r.IntN(3)], Distance: 1 + r.IntN(14),
			Source: Pos{r.IntN(30), r.IntN(30), r.IntN(4)}, Target: "g", Vertical: r.IntN(3) == 0,
			Tokens: []Token{{ID: "g", X: 10 + r.IntN(8), Y: 10 + r.IntN(8), Z: r.IntN(3), Size: size, Height: 1 + r.IntN(size)}}}
		for k := range r.IntN(12) {
			req.Tokens = append(req.Tokens, Token{ID: "t" + strconv.Itoa(k), X: r.IntN(40), Y: r.IntN(40), Z: r.IntN(4), Size: 1 + r.IntN(3)})
		}
		spread := []int{40, 40, 3000}[r.IntN(3)] // sometimes far: the index's tiles grow wide
		for range r.IntN(60) {
			req.Obstacles = append(req.Obstacles, Obstacle{X: r.IntN(spread), Y: r.IntN(spread), Z: r.IntN(6), Fill: fills[r.IntN(len(fills))]})
		}
		g := &req.Tokens[0]
		if req.Kind == "slide" {
			c := [3]int{g.X, g.Y, g.Z}
			for range req.Distance {
				c = [3]int{c[0] + r.IntN(3) - 1, c[1] + r.IntN(3) - 1, c[2]}
				if req.Vertical {
					c[2] += r.IntN(3) - 1
				}
				req.Path = append(req.Path, c)
			}
		}
		res, err := Move(req)
		if err != nil {
			continue
		}
		sp := grid.Space{Anchor: grid.C(g.X, g.Y, g.Z), Size: size, Height: g.Height}
		path := pathCells(req.Path)
		if req.Path == nil {
			path, _ = straightPath(req, cellAt(req.Source), sp)
		}
		var want *Collision
		entered := 0
		for k, c := range path {
			next := grid.Space{Anchor: c, Size: size, Height: g.Height}
			for _, o := range req.Obstacles {
				if want == nil && next.Contains(grid.C(o.X, o.Y, o.Z)) {
					want = &Collision{Kind: CollisionObstacle, With: "obstacle"}
				}
			}
			for _, tok := range req.Tokens[1:] {
				other := grid.Space{Anchor: grid.C(tok.X, tok.Y, tok.Z), Size: tok.Size, Height: tok.Size}
				if want == nil && other.Dist(next) == 0 {
					want = &Collision{Kind: CollisionToken, With: tok.ID}
				}
			}
			if want != nil {
				want.At, want.Left = cell32(c), req.Distance-k
				break
			}
			entered++
		}
		if len(res.Path) != entered || (res.Collision == nil) != (want == nil) || want != nil && *res.Collision != *want {
			t.Fatalf("case %d: %+v\nentered %d squares, stopped by %+v; the reference enters %d, stopped by %+v", i, req, len(res.Path), res.Collision, entered, want)
		}
		if want != nil {
			stops[want.Kind]++
		}
	}
	if stops[CollisionObstacle] < 200 || stops[CollisionToken] < 200 {
		t.Errorf("too few stops to show anything: %v", stops)
	}
}

// solidsOf validates the obstacles and indexes them all.
func solidsOf(obstacles []Obstacle) (*board.Solids, *Error) {
	in, err := checkObstacles(obstacles, nil)
	if err != nil {
		return nil, err
	}
	return indexObstacles(obstacles, in), nil
}

func pathCells(p [][3]int) []grid.Cell {
	out := make([]grid.Cell, len(p))
	for i, c := range p {
		out[i] = cellOf(c)
	}
	return out
}

// cancelAfter is a context done after n looks.
type cancelAfter struct{ n int }

var errDone = errors.New("context deadline exceeded")

func (c *cancelAfter) Err() error {
	if c.n--; c.n < 0 {
		return errDone
	}
	return nil
}

// §8.3: EvaluateContext and MoveContext stop when the context is done, with a too_large error
// "cancelled: …"; before, they answer as Evaluate and Move do.
func TestContext_8_3_Cancels(t *testing.T) {
	req := boxedBurst(8, 1, 4) // some 5 000 line-of-effect checks
	want := mustEvaluate(t, req)
	if got, err := EvaluateContext(&cancelAfter{n: 1 << 30}, req); err != nil || got.Count != want.Count {
		t.Fatalf("not cancelled: %v, %v cells, want %d", err, got, want.Count)
	}
	cheap := &Request{Template: TemplateRef{Text: "Cir1"}, Origin: &Pos{}} // no work to reckon
	if _, err := EvaluateContext(&cancelAfter{}, cheap); errorCode(t, err, CodeTooLarge) != "cancelled: context deadline exceeded" {
		t.Errorf("a context done before: %v", err)
	}
	for _, n := range []int{0, 1, 2, 5} {
		_, err := EvaluateContext(&cancelAfter{n: n}, req)
		if msg := errorCode(t, err, CodeTooLarge); msg != "cancelled: context deadline exceeded" {
			t.Errorf("cancelled after %d looks: %q", n, msg)
		}
	}
	push := longPush()
	push.Tokens = push.Tokens[:1] // the target alone
	if _, err := MoveContext(&cancelAfter{n: 10}, push); errorCode(t, err, CodeTooLarge) != "cancelled: context deadline exceeded" {
		t.Errorf("move: %v", err)
	}
	if _, err := MoveContext(nil, push); err != nil {
		t.Errorf("move: %v", err)
	}
}

// Property (§8.3, MaxLines): an answer holds at most MaxLines cover lines over all its targets.
// Each token's line count is read off a request of that token alone; a request of several is
// answered when their sum is within MaxLines, with every token's lines as alone, and refused
// (too_large, naming the lines) when it passes. Tokens of size 100 have over 100 000 lines each:
// eight of them answered 66 MB of JSON under the work limit alone.
func TestMaxLines_8_3_AnAnswerHoldsAtMostMaxLines(t *testing.T) {
	tokens := []Token{
		{ID: "huge", X: 1, Y: 1, Z: 1, Size: 100, Height: 100},
		{ID: "big", X: -60, Y: 1, Z: 1, Size: 60, Height: 20},
		{ID: "other", X: 1, Y: -70, Z: 0, Size: 70, Height: 70},
		{ID: "small", X: -3, Y: -3, Size: 2},
	}
	base := func(tokens ...Token) *Request {
		return &Request{Template: TemplateRef{Text: "Cir2"}, Origin: &Pos{}, Tokens: tokens}
	}
	alone := map[string]int{}
	for _, tok := range tokens {
		res := mustEvaluate(t, base(tok))
		if len(res.Targets) != 1 || !res.Targets[0].InArea {
			t.Fatalf("%s alone: %+v; want it in the area", tok.ID, res.Targets)
		}
		alone[tok.ID] = len(res.Targets[0].Lines)
	}
	t.Logf("lines alone: %v (MaxLines %d)", alone, MaxLines)
	if alone["huge"] > MaxLines || alone["huge"]+alone["other"] <= MaxLines {
		t.Fatalf("lines alone %v: the cases do not straddle MaxLines = %d", alone, MaxLines)
	}
	for _, set := range [][]int{{0}, {0, 3}, {1, 2}, {1, 2, 3}, {0, 1}, {0, 2}, {2, 0, 3}, {0, 1, 2, 3}} {
		var req []Token
		sum := 0
		for _, i := range set {
			req = append(req, tokens[i])
			sum += alone[tokens[i].ID]
		}
		res, _, err := evaluateWork(base(req...))
		switch {
		case sum <= MaxLines && err != nil:
			t.Errorf("%v: %d lines in all, refused: %v", set, sum, err)
		case sum <= MaxLines:
			for _, tg := range res.Targets {
				if len(tg.Lines) != alone[tg.ID] {
					t.Errorf("%v: %s has %d lines, %d alone", set, tg.ID, len(tg.Lines), alone[tg.ID])
				}
			}
		case err == nil || err.Code != CodeTooLarge || !strings.Contains(err.Message, "cover lines, past the limit of "+strconv.Itoa(MaxLines)):
			t.Errorf("%v: %d lines in all, past %d; got %v", set, sum, MaxLines, err)
		}
	}
	// cover "none" draws no lines: nothing to refuse.
	none := base(tokens...)
	none.Cover = CoverNone
	if _, _, err := evaluateWork(none); err != nil {
		t.Errorf("cover none: %v", err)
	}
}
