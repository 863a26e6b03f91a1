package engine

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// randomWalls draws up to 7 thin walls on the n × n board (scatteredWall).
func randomWalls(r interface{ IntN(int) int }, n int) []Wall {
	var ws []Wall
	for range r.IntN(8) {
		ws = append(ws, scatteredWall(r, 0, n+1))
	}
	return ws
}

// scatteredWall is a thin wall from a grid point of lo … lo+span−1 on each axis (SPEC §5.6): on a
// grid line (1 to 4 squares), diagonal, long and off the lattice's grid lines, or through the
// middle of squares; some are fences (a top), some start above the floor (a bottom), some are
// open doors.
func scatteredWall(r interface{ IntN(int) int }, lo, span int) Wall {
	x, y := float64(lo+r.IntN(span)), float64(lo+r.IntN(span))
	w := Wall{A: [2]float64{x, y}}
	switch r.IntN(5) {
	case 0:
		w.B = [2]float64{x + float64(1+r.IntN(4)), y}
	case 1:
		w.B = [2]float64{x, y + float64(1+r.IntN(4))}
	case 2:
		w.B = [2]float64{x + float64(r.IntN(5)) - 2.25, y + float64(r.IntN(5)) + 0.5}
	case 3:
		w.B = [2]float64{float64(lo + r.IntN(span)), float64(lo+r.IntN(span)) + 0.0025}
	default:
		w.A, w.B = [2]float64{x + 0.5, y}, [2]float64{x + 0.5, y + float64(1+r.IntN(3))} // mid-square
	}
	if r.IntN(4) == 0 {
		top := []float64{0.5, 1, 1.5, 2.5}[r.IntN(4)]
		w.Top = &top
	}
	if r.IntN(6) == 0 {
		bottom := []float64{-1, 0.5, 1}[r.IntN(3)]
		if w.Top == nil || *w.Top >= bottom {
			w.Bottom = &bottom
		}
	}
	w.Open = r.IntN(6) == 0
	return w
}

// withBoard is req carrying the board b, as a stateless request does.
func withBoard(req *Request, b Board) *Request {
	q := *req
	q.Tokens, q.Obstacles, q.Walls, q.Bounds = b.Tokens, b.Obstacles, b.Walls, b.Bounds
	return &q
}

// withoutBoard is req with its board taken out, as a scene's request is.
func withoutBoard(req *Request) *Request {
	q := *req
	q.Tokens, q.Obstacles, q.Walls, q.Bounds = nil, nil, nil, nil
	return &q
}

// randomEdit draws an edit of s's board: tokens moved, added, removed; cells set and cleared;
// walls replaced; bounds set or taken away. About one in eight is invalid somewhere.
func randomEdit(r *rand.Rand, s *Scene, n int, next *int) SceneEdit {
	var e SceneEdit
	b := s.Board()
	for range r.IntN(3) { // a move
		if len(b.Tokens) > 0 {
			t := b.Tokens[r.IntN(len(b.Tokens))]
			t.X, t.Y = r.IntN(n), r.IntN(n)
			e.Tokens = append(e.Tokens, t)
		}
	}
	if r.IntN(3) == 0 {
		*next++
		e.Tokens = append(e.Tokens, Token{ID: fmt.Sprintf("n%d", *next), X: r.IntN(n), Y: r.IntN(n), Z: r.IntN(2),
			Size: 1 + r.IntN(2), Side: sides[r.IntN(3)]})
	}
	if r.IntN(4) == 0 && len(b.Tokens) > 0 {
		e.Remove = append(e.Remove, b.Tokens[r.IntN(len(b.Tokens))].ID)
	}
	for range r.IntN(4) {
		e.Obstacles = append(e.Obstacles, Obstacle{X: r.IntN(n), Y: r.IntN(n), Z: r.IntN(2), Fill: fills[r.IntN(len(fills))]})
	}
	if r.IntN(4) == 0 && len(e.Obstacles) > 0 { // a cell listed twice (SPEC §1.6: the larger fill)
		o := e.Obstacles[r.IntN(len(e.Obstacles))]
		o.Fill = fills[r.IntN(len(fills))]
		e.Obstacles = append(e.Obstacles, o)
	}
	for range r.IntN(3) {
		if r.IntN(2) == 0 && len(b.Obstacles) > 0 {
			o := b.Obstacles[r.IntN(len(b.Obstacles))]
			e.Clear = append(e.Clear, [3]int{o.X, o.Y, o.Z})
		} else {
			e.Clear = append(e.Clear, [3]int{r.IntN(n), r.IntN(n), 0}) // often empty already
		}
	}
	switch r.IntN(6) {
	case 0:
		e.Walls = randomWalls(r, n)
	case 1:
		e.Walls = []Wall{}
	}
	switch r.IntN(8) {
	case 0:
		e.Bounds = &Bounds{Min: [3]int{r.IntN(4), r.IntN(4), 0}, Max: [3]int{8 + r.IntN(4), 8 + r.IntN(4), r.IntN(2)}}
	case 1:
		e.NoBounds = true
	}
	switch r.IntN(16) { // invalid, somewhere
	case 0:
		e.Tokens = append(e.Tokens, Token{ID: "", X: 1})
	case 1:
		e.Obstacles = append(e.Obstacles, Obstacle{X: 1, Fill: 2})
	case 2:
		e.Walls = []Wall{{A: [2]float64{1, 1}, B: [2]float64{1, 1}}}
	case 3:
		e.Remove = append(e.Remove, "nobody")
	case 4:
		e.Clear = append(e.Clear, [3]int{MaxCoord + 1, 0, 0})
	}
	return e
}

// Issue 11's property: a Scene answers exactly as the stateless Evaluate does with the
// scene's board in the request, after any sequence of edits; an invalid edit leaves the scene
// as it was. Random boards of randomRequest with thin walls; 200 scenes of 30 edits, 3
// requests after each.
func TestScene_SameAsStatelessAfterEdits(t *testing.T) {
	r := newRand(11)
	const n = 12
	compared, failed, rejected := 0, 0, 0
	for sc := range 200 {
		first := randomRequest(r)
		first.Walls = randomWalls(r, n)
		for range r.IntN(3) { // cells listed twice (SPEC §1.6: the larger fill)
			if len(first.Obstacles) > 0 {
				o := first.Obstacles[r.IntN(len(first.Obstacles))]
				o.Fill = fills[r.IntN(len(fills))]
				first.Obstacles = append(first.Obstacles, o)
			}
		}
		board := Board{Tokens: first.Tokens, Obstacles: first.Obstacles, Walls: first.Walls, Bounds: first.Bounds}
		s, err := NewScene(&board)
		if err != nil {
			t.Fatalf("scene %d: %v", sc, err)
		}
		for range 3 { // the new scene answers as the board it was made from does
			req := withoutBoard(randomRequest(r))
			got, gerr := s.Evaluate(req)
			want, werr := Evaluate(withBoard(req, board))
			if !reflect.DeepEqual(gerr, werr) || !reflect.DeepEqual(got, want) {
				t.Fatalf("scene %d, new: the scene answers\n%+v %v\nstateless\n%+v %v\nrequest %s", sc, got, gerr, want, werr, describe(withBoard(req, board)))
			}
		}
		next := 0
		for step := range 30 {
			before := s.Board()
			e := randomEdit(r, s, n, &next)
			if err := s.Update(&e); err != nil {
				rejected++
				if _, ok := err.(*Error); !ok {
					t.Fatalf("scene %d step %d: %T %v", sc, step, err, err)
				}
				if after := s.Board(); !reflect.DeepEqual(before, after) {
					t.Fatalf("scene %d step %d: the failed edit (%v) changed the board", sc, step, err)
				}
				continue
			}
			b := s.Board()
			if err := editApplied(before, &e, b); err != "" {
				t.Fatalf("scene %d step %d: %s\nedit %+v", sc, step, err, e)
			}
			for range 3 {
				req := withoutBoard(randomRequest(r))
				got, gerr := s.Evaluate(req)
				want, werr := Evaluate(withBoard(req, b))
				if !reflect.DeepEqual(gerr, werr) || !reflect.DeepEqual(got, want) {
					t.Fatalf("scene %d step %d: the scene answers\n%+v %v\nstateless\n%+v %v\nrequest %s", sc, step, got, gerr, want, werr, describe(withBoard(req, b)))
				}
				compared++
				if gerr != nil {
					failed++
				}
			}
		}
	}
	t.Logf("%d requests compared (%d errors among them), %d invalid edits refused", compared, failed, rejected)
	if compared-failed < 5000 || rejected < 300 {
		t.Errorf("too few valid answers (%d) or refused edits (%d) to mean much", compared-failed, rejected)
	}
}

// editApplied checks the cells of the board after, the edit e applied to the board before, by
// CONTRACT's scene.update: a cell e lists among its obstacles has the largest fill e gives it
// (SPEC §1.6); a cell e clears and does not list is empty; every other cell is as it was. It
// returns what is wrong, or "".
func editApplied(before Board, e *SceneEdit, after Board) string {
	want := map[grid.Cell]int{}
	for _, o := range before.Obstacles {
		want[grid.C(o.X, o.Y, o.Z)] = units(o.Fill)
	}
	for _, c := range e.Clear {
		delete(want, grid.C(c[0], c[1], c[2]))
	}
	listed := map[grid.Cell]bool{}
	for _, o := range e.Obstacles {
		c := grid.C(o.X, o.Y, o.Z)
		if !listed[c] {
			listed[c], want[c] = true, units(o.Fill)
		}
		want[c] = max(want[c], units(o.Fill))
	}
	got := map[grid.Cell]int{}
	for _, o := range after.Obstacles {
		got[grid.C(o.X, o.Y, o.Z)] = units(o.Fill)
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("the board's cells are %v, want %v", got, want)
	}
	return ""
}

// A scene's request carries no board, and its caster may not share a token's id: the error is
// the stateless one.
func TestScene_RequestErrors(t *testing.T) {
	s, err := NewScene(&Board{Tokens: []Token{{ID: "a", X: 3}, {ID: "b", X: 5}}})
	if err != nil {
		t.Fatal(err)
	}
	req := &Request{Template: TemplateRef{Text: "Cir2"}, Caster: &Token{ID: "b"}, Origin: &Pos{X: 2}}
	_, gerr := s.Evaluate(req)
	_, werr := Evaluate(withBoard(req, s.Board()))
	if !reflect.DeepEqual(gerr, werr) || werr == nil {
		t.Errorf("caster clash: scene %v, stateless %v", gerr, werr)
	}
	for _, q := range []*Request{
		{Template: TemplateRef{Text: "Cir2"}, Tokens: []Token{{ID: "x"}}},
		{Template: TemplateRef{Text: "Cir2"}, Obstacles: []Obstacle{}},
		{Template: TemplateRef{Text: "Cir2"}, Walls: []Wall{{}}},
		{Template: TemplateRef{Text: "Cir2"}, Bounds: &Bounds{}},
	} {
		if _, err := s.Evaluate(q); err == nil || err.(*Error).Code != CodeBadRequest {
			t.Errorf("a board in a scene's request: %v, want bad_request", err)
		}
	}
}

// Edits: a moved token keeps its place in the list, a new one joins the end, a removed one
// leaves; cells set and cleared; limits.
func TestScene_Edits(t *testing.T) {
	s, err := NewScene(&Board{Tokens: []Token{{ID: "a"}, {ID: "b", X: 1}, {ID: "c", X: 2}}, Obstacles: []Obstacle{{X: 5, Fill: 0.5}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Update(&SceneEdit{Remove: []string{"a"}, Tokens: []Token{{ID: "c", X: 9}, {ID: "d", X: 4}},
		Clear: [][3]int{{5, 0, 0}}, Obstacles: []Obstacle{{X: 7}, {X: 5, Y: 1, Fill: 0.25}}}); err != nil {
		t.Fatal(err)
	}
	b := s.Board()
	want := Board{Tokens: []Token{{ID: "b", X: 1}, {ID: "c", X: 9}, {ID: "d", X: 4}},
		Obstacles: []Obstacle{{X: 7, Fill: 1}, {X: 5, Y: 1, Fill: 0.25}}}
	if !reflect.DeepEqual(b.Tokens, want.Tokens) || !reflect.DeepEqual(b.Obstacles, want.Obstacles) {
		t.Errorf("board %+v\nwant %+v", b, want)
	}
	bounds := Bounds{Min: [3]int{-1, -2, 0}, Max: [3]int{9, 9, 0}}
	if err := s.Update(&SceneEdit{Bounds: &bounds}); err != nil || s.Board().Bounds == nil || *s.Board().Bounds != bounds {
		t.Errorf("bounds set: %v, board %+v", err, s.Board().Bounds)
	}
	if err := s.Update(&SceneEdit{NoBounds: true}); err != nil || s.Board().Bounds != nil {
		t.Errorf("bounds taken away: %v, board %+v", err, s.Board().Bounds)
	}
	for name, e := range map[string]SceneEdit{
		"duplicate id in one edit":  {Tokens: []Token{{ID: "x"}, {ID: "x"}}},
		"no id":                     {Tokens: []Token{{X: 1}}},
		"unknown removal":           {Remove: []string{"zz"}},
		"bad fill":                  {Obstacles: []Obstacle{{Fill: -1}}},
		"a = b":                     {Walls: []Wall{{}}},
		"bounds min past max":       {Bounds: &Bounds{Min: [3]int{1, 0, 0}}},
		"bad bounds with noBounds":  {Bounds: &Bounds{Min: [3]int{5, 0, 0}, Max: [3]int{4, 9, 0}}, NoBounds: true}, // bounds apply first
		"cell past the coordinates": {Clear: [][3]int{{0, 0, -MaxCoord - 1}}},
	} {
		if err := s.Update(&e); err == nil {
			t.Errorf("%s: accepted", name)
		} else if after := s.Board(); !reflect.DeepEqual(after, b) {
			t.Errorf("%s: the refused edit changed the board", name)
		}
	}
	many := make([]Token, MaxTokens)
	for i := range many {
		many[i] = Token{ID: fmt.Sprint("m", i)}
	}
	if err := s.Update(&SceneEdit{Tokens: many}); err == nil || err.(*Error).Code != CodeTooLarge {
		t.Errorf("past MaxTokens on the board: %v, want too_large", err)
	}
}

// runSceneBench is runBench for a Scene: the board of req read once, then only the per-frame
// part of req (template, caster, origin, range) evaluated.
func runSceneBench(b *testing.B, req *Request) {
	s, err := NewScene(&Board{Tokens: req.Tokens, Obstacles: req.Obstacles, Walls: req.Walls, Bounds: req.Bounds})
	if err != nil {
		b.Fatal(err)
	}
	frame := withoutBoard(req)
	want := mustEvaluate(b, req)
	if got, err := s.Evaluate(frame); err != nil || !reflect.DeepEqual(got, want) {
		b.Fatalf("the scene answers %v %v, not as Evaluate does", got, err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	for b.Loop() {
		if _, err := s.Evaluate(frame); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(want.Count), "cells")
}

// BenchmarkScene: the engine benchmarks' boards through a Scene (issue 11): Typical, Stress,
// BurstWalls, and Typical with 5 000 thin walls.
func BenchmarkScene(b *testing.B) {
	typical := func() *Request {
		req := benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{})
		req.Template, req.Origin = TemplateRef{Text: "Cir6"}, &Pos{38, 30, 0}
		return req
	}
	b.Run("Typical", func(b *testing.B) { runSceneBench(b, typical()) })
	b.Run("TypicalWalls5000", func(b *testing.B) {
		req := typical()
		req.Walls = benchWalls(7, 60, 5000)
		runSceneBench(b, req)
	})
	// Drags: the origin a square further each frame, so that no frame's window is the last
	// one's (Scene.terrainFor indexes the window's walls for each).
	drag := func(b *testing.B, req *Request, x, y int) {
		s, err := NewScene(&Board{Tokens: req.Tokens, Obstacles: req.Obstacles, Walls: req.Walls})
		if err != nil {
			b.Fatal(err)
		}
		frame := withoutBoard(req)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			frame.Origin = &Pos{x + i%20, y, 0}
			if _, err := s.Evaluate(frame); err != nil {
				b.Fatal(err)
			}
			i++
		}
	}
	b.Run("TypicalDrag", func(b *testing.B) { drag(b, typical(), 20, 30) })
	b.Run("TypicalWalls5000Drag", func(b *testing.B) {
		req := typical()
		req.Walls = benchWalls(7, 60, 5000)
		drag(b, req, 20, 30)
	})
	b.Run("Stress", func(b *testing.B) {
		req := benchScene(2, 500, 2000, 20000, grid.Cell{}, grid.Cell{})
		req.Template, req.Origin = TemplateRef{Text: "Cir60h1"}, &Pos{265, 250, 0}
		runSceneBench(b, req)
	})
	b.Run("StressDrag", func(b *testing.B) {
		req := benchScene(2, 500, 2000, 20000, grid.Cell{}, grid.Cell{})
		req.Template = TemplateRef{Text: "Cir60h1"}
		drag(b, req, 250, 250)
	})
	b.Run("BurstWalls", func(b *testing.B) {
		req := benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{})
		req.Template, req.Range = TemplateRef{Text: "5 burst"}, Range{}
		runSceneBench(b, req)
	})
}

// A board with several faults gets the same error from NewScene and from Evaluate with the board
// in the request (the first fault in evaluate's order: tokens, bounds, obstacles, walls), for
// every pair of faults.
func TestScene_FaultsInEvaluatesOrder(t *testing.T) {
	faults := map[string]func(b *Board){
		"token":    func(b *Board) { b.Tokens = []Token{{ID: "t", Size: -1}} },
		"bounds":   func(b *Board) { b.Bounds = &Bounds{Min: [3]int{5, 0, 0}, Max: [3]int{4, 9, 0}} },
		"obstacle": func(b *Board) { b.Obstacles = []Obstacle{{X: 2 * MaxCoord}} },
		"fill":     func(b *Board) { b.Obstacles = []Obstacle{{X: 1, Fill: -1}} },
		"wall":     func(b *Board) { b.Walls = []Wall{{A: [2]float64{1, 1}, B: [2]float64{1, 1}}} },
	}
	for n1, f1 := range faults {
		for n2, f2 := range faults {
			var b Board
			f1(&b)
			f2(&b)
			_, got := NewScene(&b)
			_, want := Evaluate(&Request{Template: TemplateRef{Text: "Cir1"}, Origin: &Pos{}, Tokens: b.Tokens, Obstacles: b.Obstacles, Walls: b.Walls, Bounds: b.Bounds})
			if got == nil || want == nil || !reflect.DeepEqual(got, want) {
				t.Errorf("%s and %s: NewScene %v, Evaluate %v", n1, n2, got, want)
			}
		}
	}
}

// A scene reckons an evaluation's work (SPEC §8.3) exactly as Evaluate does with the scene's
// board in the request, walls far from the area included: the wall index's tiles enter the
// reckoning, and a scene that indexed its walls whole (far walls widening the tiles) refused,
// near the limit, requests Evaluate answered. Over random boards with walls near and 100–1000
// squares away, Draw Steel bursts from casters of 1–3 squares and TDGS circles with barriers,
// the steps reckoned must be equal and the answers the same — and the scene's kept window
// (terrainFor) must not carry one request's walls into the next. The two cases the scene
// review found are first. (The boards' obstacles lie within a dozen squares, on levels 0 and 1:
// a scene indexes its obstacles whole, and ones farther out or on other levels may make its
// index's tiles and levels reckon more than Evaluate's window's; see Scene's doc.)
func TestScene_8_3_WorkAsEvaluate(t *testing.T) {
	sceneWork := func(s *Scene, req *Request) (*Result, int, *Error) {
		st, e := setupOf(req, s)
		if e != nil {
			return nil, 0, e
		}
		res, e := st.answer(st.window())
		return res, st.w.spent, e
	}
	one, half, three := 1.5, 0.5, 3
	type tc struct {
		board Board
		req   Request
	}
	cases := []tc{
		{Board{Obstacles: []Obstacle{{X: 7, Y: 10, Fill: 0.75}},
			Walls: []Wall{{A: [2]float64{7, 4}, B: [2]float64{1, 3}, Bottom: &half, Top: &one}, {A: [2]float64{8, 2}, B: [2]float64{0, 0.5}}}},
			Request{Template: TemplateRef{Text: "4 burst"}, Caster: &Token{X: 4, Y: 9, Size: three}}},
	}
	far := Board{Obstacles: []Obstacle{{X: 3, Y: 2, Fill: 1}}}
	for range 20 {
		far.Walls = append(far.Walls, Wall{A: [2]float64{500, 500}, B: [2]float64{503, 500}})
	}
	cases = append(cases, tc{far, Request{Template: TemplateRef{Text: "12 burst"}, Caster: &Token{X: 0, Y: 0}}})
	r := rand.New(rand.NewPCG(21, 22))
	for range 150 {
		var c tc
		c.board.Walls = randomWalls(r, 12)
		for range r.IntN(12) {
			d := 100 + r.IntN(900)
			c.board.Walls = append(c.board.Walls, scatteredWall(r, []int{-d, d}[r.IntN(2)], 30))
		}
		req := &Request{}
		randomBoard(r, req, 12)
		c.board.Tokens, c.board.Obstacles = req.Tokens, req.Obstacles
		if r.IntN(2) == 0 {
			c.req = Request{Template: TemplateRef{Text: strconv.Itoa(1+r.IntN(4)) + " burst"}, Caster: &Token{ID: "c", X: -4, Y: -4, Size: 1 + r.IntN(3)}}
		} else {
			yes := true
			c.req = Request{Template: TemplateRef{Text: "Cir" + strconv.Itoa(2+r.IntN(6))}, Origin: &Pos{r.IntN(12), r.IntN(12), 0}, Barriers: &yes}
		}
		cases = append(cases, c)
	}
	s, err := NewScene(&Board{})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cases {
		// Each board once as a fresh scene, once as an edit of the last one (its kept window
		// made from other walls).
		fresh, err := NewScene(&c.board)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		walls := c.board.Walls
		if walls == nil {
			walls = []Wall{}
		}
		var remove []string
		for _, tok := range s.Board().Tokens {
			remove = append(remove, tok.ID)
		}
		var clear [][3]int
		for _, o := range s.Board().Obstacles {
			clear = append(clear, [3]int{o.X, o.Y, o.Z})
		}
		if err := s.Update(&SceneEdit{Remove: remove, Clear: clear, Tokens: c.board.Tokens, Obstacles: c.board.Obstacles, Walls: walls}); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		full := c.req
		full.Tokens, full.Obstacles, full.Walls = c.board.Tokens, c.board.Obstacles, c.board.Walls
		want, wantWork, wantErr := evaluateWork(&full)
		for name, sc := range map[string]*Scene{"fresh": fresh, "edited": s} {
			req := c.req
			got, work, gotErr := sceneWork(sc, &req)
			if work != wantWork || !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotErr, wantErr) {
				t.Fatalf("case %d, %s scene: %d steps, %v; Evaluate %d steps, %v", i, name, work, gotErr, wantWork, wantErr)
			}
		}
	}
}

// An edit that indexes the board again drops the last window's terrain (terrainFor), which
// would keep the old index alive — for good when the edit took every wall away.
func TestScene_EditDropsTheKeptWindow(t *testing.T) {
	s, err := NewScene(&Board{Obstacles: []Obstacle{{X: 3}}, Walls: []Wall{{A: [2]float64{2, 0}, B: [2]float64{2, 3}}, {A: [2]float64{400, 0}, B: [2]float64{400, 3}}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Evaluate(&Request{Template: TemplateRef{Text: "Cir2"}, Origin: &Pos{}}); err != nil {
		t.Fatal(err)
	}
	if c := s.windowed.Load(); c == nil || c.t == s.solids {
		t.Fatalf("no window kept, or the whole board's: %+v", c)
	}
	if err := s.Update(&SceneEdit{Walls: []Wall{}, Obstacles: []Obstacle{{X: 4}}}); err != nil {
		t.Fatal(err)
	}
	if c := s.windowed.Load(); c != nil {
		t.Errorf("the old index is still kept after an edit")
	}
}
