package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/template"
)

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0xa0e)) }

var sides = []string{"party", "enemy", ""}

var fills = []float64{1, 1, 1, 0.5, 0.3, 0.7, 0.0025}

// randomBoard fills a request with tokens and obstacles on an n × n board, levels 0 … 1.
func randomBoard(r *rand.Rand, req *Request, n int) {
	occupied := map[grid.Cell]bool{}
	if req.Caster != nil {
		e, _ := entityOf(field("caster"), req.Caster)
		e.space.Cells(func(c grid.Cell) { occupied[c] = true })
	}
	for i := range r.IntN(12) {
		size := 1
		if r.IntN(5) == 0 {
			size = 2
		}
		tok := Token{ID: fmt.Sprintf("t%d", i), X: r.IntN(n), Y: r.IntN(n), Z: r.IntN(2), Size: size,
			Side: sides[r.IntN(3)], Prone: r.IntN(5) == 0}
		if r.IntN(3) == 0 {
			tok.Height = 1
		}
		req.Tokens = append(req.Tokens, tok)
		e, _ := entityOf(field(""), &tok)
		e.space.Cells(func(c grid.Cell) { occupied[c] = true })
	}
	for range r.IntN(3 * n) {
		c := grid.C(r.IntN(n), r.IntN(n), r.IntN(4)/3)
		if !occupied[c] {
			req.Obstacles = append(req.Obstacles, Obstacle{X: c.X, Y: c.Y, Z: c.Z, Fill: fills[r.IntN(len(fills))]})
		}
	}
}

// randomRequest builds a request on a 12 × 12 board with one of the shapes below. Casters of
// cones, lines and close circles are one square (those shapes start from the caster's cell,
// which a larger caster does not single out).
func randomRequest(r *rand.Rand) *Request {
	const n = 12
	type shape struct {
		text   string
		single bool // needs a 1-square caster
		setup  func(req *Request)
	}
	at := func(req *Request) { req.Origin = &Pos{r.IntN(n), r.IntN(n), r.IntN(2)} }
	shapes := []shape{
		{"Cir2", false, at}, {"Cir3h1", false, at}, {"Cir1h3", false, at},
		{"Con3N", true, nil}, {"Con4NE", true, nil}, {"Con3E", true, nil}, {"Con2SW", true, nil},
		{"Lin5E", true, nil}, {"Lin4NEw2", true, nil}, {"Lin4Sw2", true, nil}, {"Lin3NWw3", true, nil},
		{"Rec3x2", false, func(req *Request) { at(req); req.Orientation = []string{"", "N", "E", "S", "W"}[r.IntN(5)] }},
		{"2 burst", false, nil}, {"1 aura", false, nil},
		{"2 cube within 10", false, func(req *Request) {
			at(req)
			// The default origin square breaks ties by z, then y, then x (SPEC §3.4 [ruling]),
			// which a quarter turn does not preserve: name it.
			req.OriginSquare = &Pos{req.Origin.X + r.IntN(2), req.Origin.Y + r.IntN(2), req.Origin.Z + r.IntN(2)}
		}},
		{"4 x 1 line within 10", false, func(req *Request) {
			at(req)
			req.Aim = &Pos{r.IntN(n), r.IntN(n), req.Origin.Z}
		}},
		{"4 x 2 line within 10", false, func(req *Request) {
			at(req)
			req.Aim = &Pos{r.IntN(n), r.IntN(n), req.Origin.Z}
			if dx, dy := req.Aim.X-req.Origin.X, req.Aim.Y-req.Origin.Y; num.Abs(dx) == num.Abs(dy) {
				req.Aim.X++ // see TestProperty_8_1_TurningTurnsTheAnswer: exact diagonals are not turnable
			}
		}},
		{"circle 3", false, at}, {"close circle 2", true, nil},
	}
	sh := shapes[r.IntN(len(shapes))]
	req := &Request{Template: TemplateRef{Text: sh.text}}
	size := 1
	if !sh.single && r.IntN(3) == 0 {
		size = 2
	}
	req.Caster = &Token{ID: "me", X: r.IntN(n), Y: r.IntN(n), Z: r.IntN(2), Size: size, Side: "party", Facing: grid.Dirs()[r.IntN(8)].String()}
	if sh.setup != nil {
		sh.setup(req)
	}
	randomBoard(r, req, n)
	if r.IntN(4) == 0 {
		req.Bounds = &Bounds{Min: [3]int{r.IntN(4), r.IntN(4), 0}, Max: [3]int{8 + r.IntN(4), 8 + r.IntN(4), r.IntN(2)}}
	}
	if r.IntN(4) == 0 {
		req.Targeting.ExcludeCells = [][3]int{{r.IntN(n), r.IntN(n), 0}, {r.IntN(n), r.IntN(n), 1}}
	}
	if r.IntN(3) == 0 {
		req.Rules = []Rules{RulesTDGS, RulesDrawSteel, RulesCircle50}[r.IntN(3)]
		if req.Rules != "" && r.IntN(2) == 0 {
			req.Rules = "" // the shape's own rule set
		}
	}
	return req
}

// Turning the board a quarter clockwise about the z axis (SPEC §1.2: (dx, dy) → (−dy, dx)).
// A point (x, y) goes to (−y, x); so cell (x, y), the square [x, x+1] × [y, y+1], goes to
// (−y−1, x); and a space of size s anchored at its north-west cell (x, y) goes to the space
// anchored at (−y−s, x), its new north-west cell (the old south-west one).
func turnCell(c [3]int) [3]int          { return [3]int{-c[1] - 1, c[0], c[2]} }
func turnPos(p Pos) Pos                 { c := turnCell([3]int{p.X, p.Y, p.Z}); return Pos{c[0], c[1], c[2]} }
func turnPoint(p [3]float64) [3]float64 { return [3]float64{-p[1], p[0], p[2]} }

func turnToken(t Token) Token {
	s := max(t.Size, 1)
	t.X, t.Y = -t.Y-s, t.X
	if t.Facing != "" {
		d, _ := grid.ParseDir(t.Facing)
		t.Facing = d.Turn(2).String()
	}
	return t
}

func turnRequest(req *Request) *Request {
	out := *req
	if req.Caster != nil {
		c := turnToken(*req.Caster)
		if c.Facing == "" {
			c.Facing = "E" // the default facing is N: turned, E
		}
		out.Caster = &c
	}
	cellPtr := func(p *Pos) *Pos {
		if p == nil {
			return nil
		}
		q := turnPos(*p)
		return &q
	}
	out.Origin, out.OriginSquare, out.Aim = cellPtr(req.Origin), cellPtr(req.OriginSquare), cellPtr(req.Aim)
	if s, err := shapeOf(req.Template); err == nil && req.Origin != nil {
		if cube, ok := s.(template.Cube); ok { // the cube's anchor is its north-west cell
			out.Origin = &Pos{-req.Origin.Y - cube.Side, req.Origin.X, req.Origin.Z}
		}
	}
	if req.Path != nil {
		out.Path = nil
		for _, c := range req.Path {
			out.Path = append(out.Path, turnCell(c))
		}
	}
	out.Tokens = nil
	for _, t := range req.Tokens {
		out.Tokens = append(out.Tokens, turnToken(t))
	}
	out.Obstacles = nil
	for _, o := range req.Obstacles {
		c := turnCell([3]int{o.X, o.Y, o.Z})
		out.Obstacles = append(out.Obstacles, Obstacle{X: c[0], Y: c[1], Z: c[2], Fill: o.Fill})
	}
	if b := req.Bounds; b != nil {
		out.Bounds = &Bounds{Min: [3]int{-b.Max[1] - 1, b.Min[0], b.Min[2]}, Max: [3]int{-b.Min[1] - 1, b.Max[0], b.Max[2]}}
	}
	out.Targeting.ExcludeCells = nil
	for _, c := range req.Targeting.ExcludeCells {
		out.Targeting.ExcludeCells = append(out.Targeting.ExcludeCells, turnCell(c))
	}
	if o := req.Orientation; o != "" {
		d, _ := grid.ParseDir(o)
		out.Orientation = d.Turn(2).String()
	} else if strings.HasPrefix(req.Template.Text, "Rec") {
		out.Orientation = "E" // the default orientation is N: turned, E
	}
	return &out
}

// Property (§1.2, §1.3, §8.1): turning a whole scene a quarter turn about the z axis (cells,
// tokens with their sizes, obstacles, origin, aim, bounds, the caster's facing; template
// directions stay relative) turns the answer: the same cells turned, the same targets with the
// same grades and blocked counts, their segments turned; or the same error code.
func TestProperty_8_1_TurningTurnsTheAnswer(t *testing.T) {
	r := newRand(11)
	checked := 0
	for i := 0; i < 3000; i++ {
		req := randomRequest(r)
		a, errA := Evaluate(req)
		turned := req
		var b *Result
		var errB error
		for k := 0; k < 4; k++ { // four quarter turns, checking each step
			next := turnRequest(turned)
			b, errB = Evaluate(next)
			if (errA == nil) != (errB == nil) {
				t.Fatalf("case %d turn %d: error %v, turned %v\nrequest %s", i, k+1, errA, errB, describe(turned))
			}
			if errA != nil {
				if errA.(*Error).Code != errB.(*Error).Code {
					t.Fatalf("case %d: error %v, turned %v", i, errA, errB)
				}
			} else if msg := sameTurned(a, b); msg != "" {
				t.Fatalf("case %d turn %d: %s\nrequest %s", i, k+1, msg, describe(turned))
			}
			a, errA, turned = b, errB, next
		}
		if errA == nil {
			checked++
		}
	}
	if checked < 1500 {
		t.Fatalf("only %d of 3000 requests were valid", checked)
	}
}

// sameTurned says how b differs from a turned a quarter, or "".
func sameTurned(a, b *Result) string {
	var want [][3]int
	for _, c := range ints(a.Cells) {
		want = append(want, turnCell(c))
	}
	slices.SortFunc(want, func(p, q [3]int) int { return grid.Compare(cellOf(p), cellOf(q)) })
	if !slices.Equal(want, ints(b.Cells)) {
		return fmt.Sprintf("cells %v\nturned %v", want, b.Cells)
	}
	if len(a.Targets) != len(b.Targets) {
		return fmt.Sprintf("targets %v, turned %v", targetIDs(a), targetIDs(b))
	}
	for i, ta := range a.Targets {
		tb := b.Targets[i]
		if summary(ta) != summary(tb) {
			return fmt.Sprintf("target %s\nturned %s", summary(ta), summary(tb))
		}
		var lw, lg []string
		for _, l := range ta.Lines {
			lw = append(lw, fmt.Sprint(turnPoint(l.From), turnPoint(l.To), l.Blocked))
		}
		for _, l := range tb.Lines {
			lg = append(lg, fmt.Sprint(l.From, l.To, l.Blocked))
		}
		slices.Sort(lw)
		slices.Sort(lg)
		if !slices.Equal(lw, lg) {
			return fmt.Sprintf("target %s lines\n%v\nturned\n%v", ta.ID, lw, lg)
		}
	}
	return ""
}

func describe(req *Request) string {
	return fmt.Sprintf("%s rules=%q caster=%+v origin=%+v sq=%+v aim=%+v orient=%q bounds=%+v excl=%v tokens=%+v obstacles=%+v",
		req.Template.Text, req.Rules, *req.Caster, req.Origin, req.OriginSquare, req.Aim, req.Orientation, req.Bounds, req.Targeting.ExcludeCells, req.Tokens, req.Obstacles)
}

// Property (§4.3): the 50 % circle on a board never holds a full obstacle, every cell of it is
// reached from the centre across shared sides inside it, and it holds every disc cell so
// reached (a flood fill done here, over the disc the same circle covers on an empty board).
func TestProperty_4_3_FillNeverEntersSolid(t *testing.T) {
	r := newRand(12)
	for i := 0; i < 400; i++ {
		size := 1 + r.IntN(6)
		o := Pos{10, 10, 0}
		req := &Request{Template: TemplateRef{Text: fmt.Sprintf("circle %d", size)}, Origin: &o}
		disc := ints(mustEvaluate(t, req).Cells)
		inDisc := map[[3]int]bool{}
		for _, c := range disc {
			inDisc[c] = true
		}
		solid := map[[3]int]bool{}
		for range r.IntN(60) {
			c := [3]int{r.IntN(21), r.IntN(21), 0}
			f := fills[r.IntN(len(fills))]
			req.Obstacles = append(req.Obstacles, Obstacle{X: c[0], Y: c[1], Fill: f})
			solid[c] = solid[c] || f == 1
		}
		got := ints(mustEvaluate(t, req).Cells)
		// Reference flood fill.
		want := map[[3]int]bool{}
		start := [3]int{10, 10, 0}
		if !solid[start] {
			want[start] = true
			stack := [][3]int{start}
			for len(stack) > 0 {
				c := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					n := [3]int{c[0] + d[0], c[1] + d[1], 0}
					if inDisc[n] && !solid[n] && !want[n] {
						want[n] = true
						stack = append(stack, n)
					}
				}
			}
		}
		if len(got) != len(want) {
			t.Fatalf("case %d: %d cells, the flood fill %d", i, len(got), len(want))
		}
		for _, c := range got {
			if solid[c] {
				t.Fatalf("case %d: the circle holds the full obstacle %v", i, c)
			}
			if !want[c] {
				t.Fatalf("case %d: %v is not reached from the centre", i, c)
			}
		}
	}
}

// §4.1: the counts of the table, on an empty board.
func TestCircle50_4_1_Counts(t *testing.T) {
	counts := []int{9, 21, 37, 69, 97, 137, 177, 225, 293, 349}
	for i, n := range counts {
		req := &Request{Template: TemplateRef{Text: fmt.Sprintf("circle %d", i+1)}, Origin: &Pos{}}
		if got := mustEvaluate(t, req).Count; got != n {
			t.Errorf("circle %d: %d cells, want %d", i+1, got, n)
		}
	}
}
