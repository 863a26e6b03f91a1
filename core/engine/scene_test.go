package engine

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// A drawing is a small board drawn in ASCII, level z = 0, row y from the top (north) down and
// column x from the left:
//
//	.  empty            #  full block (fill 1)      _  low wall (fill 0.5)    =  step (fill 0.3)
//	C  the caster (side "party", facing N)
//	a…z  a token of side "enemy" whose id is the letter; A…Z (not C) a token of side "party"
//	@ ! ? marks: cells the test names (an origin, an aim, …); empty on the board
//
// A letter drawn over a k × k block is one token of size k anchored at the block's north-west
// cell (its height is the default, k). Pictures of answers use '*' for a cell in the area and
// the drawing's own character everywhere else (see render).
type drawing struct {
	rows      []string
	caster    *Token
	tokens    []Token
	obstacles []Obstacle
	marks     map[byte]grid.Cell
}

// picture splits a raw-string picture into rows, dropping blank lines and the indentation.
func picture(pic string) []string {
	var rows []string
	for _, l := range strings.Split(pic, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			rows = append(rows, l)
		}
	}
	return rows
}

func parseScene(t testing.TB, pic string) *drawing {
	t.Helper()
	s := &drawing{rows: picture(pic), marks: map[byte]grid.Cell{}}
	type ext struct{ lo, hi grid.Cell }
	letters := map[byte]*ext{}
	var order []byte
	for y, row := range s.rows {
		for x := 0; x < len(row); x++ {
			c := grid.C(x, y, 0)
			switch ch := row[x]; {
			case ch == '.':
			case ch == '#':
				s.obstacles = append(s.obstacles, Obstacle{X: x, Y: y, Fill: 1})
			case ch == '_':
				s.obstacles = append(s.obstacles, Obstacle{X: x, Y: y, Fill: 0.5})
			case ch == '=':
				s.obstacles = append(s.obstacles, Obstacle{X: x, Y: y, Fill: 0.3})
			case ch == '@' || ch == '!' || ch == '?':
				s.marks[ch] = c
			case ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
				e := letters[ch]
				if e == nil {
					e = &ext{c, c}
					letters[ch] = e
					order = append(order, ch)
				}
				e.lo = grid.C(min(e.lo.X, x), min(e.lo.Y, y), 0)
				e.hi = grid.C(max(e.hi.X, x), max(e.hi.Y, y), 0)
			default:
				t.Fatalf("scene: unknown character %q at (%d,%d)", ch, x, y)
			}
		}
	}
	for _, ch := range order {
		e := letters[ch]
		size := e.hi.X - e.lo.X + 1
		if e.hi.Y-e.lo.Y+1 != size {
			t.Fatalf("scene: token %c is not square", ch)
		}
		for y := e.lo.Y; y <= e.hi.Y; y++ {
			for x := e.lo.X; x <= e.hi.X; x++ {
				if s.rows[y][x] != ch {
					t.Fatalf("scene: token %c does not fill its square at (%d,%d)", ch, x, y)
				}
			}
		}
		tok := Token{ID: string(ch), X: e.lo.X, Y: e.lo.Y, Size: size, Side: "enemy"}
		switch {
		case ch == 'C':
			tok.ID, tok.Side, tok.Facing = "caster", "party", "N"
			s.caster = &tok
			continue
		case ch >= 'A' && ch <= 'Z':
			tok.Side = "party"
		}
		s.tokens = append(s.tokens, tok)
	}
	return s
}

// mark is the cell of a mark ('@', '!', '?') or a token's anchor.
func (s *drawing) mark(t testing.TB, ch byte) grid.Cell {
	t.Helper()
	if c, ok := s.marks[ch]; ok {
		return c
	}
	if ch == 'C' && s.caster != nil {
		return grid.C(s.caster.X, s.caster.Y, s.caster.Z)
	}
	for _, tok := range s.tokens {
		if tok.ID == string(ch) {
			return grid.C(tok.X, tok.Y, tok.Z)
		}
	}
	t.Fatalf("scene: no mark %q", ch)
	return grid.Cell{}
}

func (s *drawing) pos(t testing.TB, ch byte) *Pos {
	c := s.mark(t, ch)
	return &Pos{c.X, c.Y, c.Z}
}

// request is an evaluate request for the scene: its caster, tokens and obstacles.
func (s *drawing) request(tmpl string) *Request {
	return &Request{
		Template:  TemplateRef{Text: tmpl},
		Caster:    s.caster,
		Tokens:    slices.Clone(s.tokens),
		Obstacles: slices.Clone(s.obstacles),
	}
}

// render draws level z of the scene with '*' on every cell of cells at that level.
func (s *drawing) render(cells [][3]int, z int) string {
	in := map[[2]int]bool{}
	for _, c := range cells {
		if c[2] == z {
			in[[2]int{c[0], c[1]}] = true
		}
	}
	out := make([]string, len(s.rows))
	for y, row := range s.rows {
		b := []byte(row)
		for x := range b {
			if in[[2]int{x, y}] {
				b[x] = '*'
			}
		}
		out[y] = string(b)
	}
	return strings.Join(out, "\n")
}

// checkPicture compares level z of cells, drawn over the scene, with want: nothing missing,
// nothing extra. Cells outside the picture must not be in the area at that level.
func (s *drawing) checkPicture(t testing.TB, cells [][3]int, z int, want string) {
	t.Helper()
	for _, c := range cells {
		if c[2] == z && (c[1] < 0 || c[1] >= len(s.rows) || c[0] < 0 || c[0] >= len(s.rows[c[1]])) {
			t.Errorf("cell %v is in the area but outside the picture", c)
		}
	}
	got := s.render(cells, z)
	if w := strings.Join(picture(want), "\n"); got != w {
		t.Errorf("level %d:\ngot\n%s\nwant\n%s", z, indent(got), indent(w))
	}
}

func indent(s string) string { return "\t" + strings.ReplaceAll(s, "\n", "\n\t") }

// evaluate runs a request and fails the test on an error.
// ints is a result's cells as [3]int, to compare with cells written in tests.
func ints(cells [][3]int32) [][3]int {
	out := make([][3]int, len(cells))
	for i, c := range cells {
		out[i] = [3]int{int(c[0]), int(c[1]), int(c[2])}
	}
	return out
}

func gridCell(c [3]int32) grid.Cell { return grid.Cell{X: int(c[0]), Y: int(c[1]), Z: int(c[2])} }

func mustEvaluate(t testing.TB, req *Request) *Result {
	t.Helper()
	res, err := Evaluate(req)
	if err != nil {
		t.Fatalf("Evaluate: %v", err)
	}
	return res
}

// targetOf finds a target by id.
func targetOf(t testing.TB, res *Result, id string) Target {
	t.Helper()
	for _, tg := range res.Targets {
		if tg.ID == id {
			return tg
		}
	}
	t.Fatalf("no target %q in %v", id, targetIDs(res))
	return Target{}
}

func targetIDs(res *Result) []string {
	var ids []string
	for _, tg := range res.Targets {
		ids = append(ids, tg.ID)
	}
	return ids
}

// errorCode checks that err is a CONTRACT *Error with the code and returns its message.
func errorCode(t testing.TB, err error, code Code) string {
	t.Helper()
	e, ok := err.(*Error)
	if !ok {
		t.Fatalf("error %v (%T), want a *Error with code %s", err, err, code)
	}
	if e.Code != code {
		t.Fatalf("error code %s (%s), want %s", e.Code, e.Message, code)
	}
	return e.Message
}

// namesSquare reports whether msg names square number i (1-based) at c, in either of the
// engine's spellings of a cell ("[x, y, z]" or "(x,y,z)").
func namesSquare(msg string, i int, c [3]int) bool {
	return strings.Contains(msg, fmt.Sprintf("square %d ", i)) &&
		(strings.Contains(msg, fmt.Sprintf("[%d, %d, %d]", c[0], c[1], c[2])) ||
			strings.Contains(msg, fmt.Sprintf("(%d,%d,%d)", c[0], c[1], c[2])))
}

// summary is a target's result in a line, for failure messages.
func summary(tg Target) string {
	return fmt.Sprintf("%s inArea=%v affected=%v reason=%q cover=%s bonus=%d blocked=%d/%d",
		tg.ID, tg.InArea, tg.Affected, tg.Reason, tg.Cover, tg.Bonus, tg.Blocked, len(tg.Lines))
}

func TestSceneHelper(t *testing.T) {
	s := parseScene(t, `
		C.#_=
		.aa.@
		.aa.B
	`)
	if s.caster == nil || s.caster.X != 0 || s.caster.Y != 0 || s.caster.Side != "party" {
		t.Fatalf("caster %+v", s.caster)
	}
	want := []Token{{ID: "a", X: 1, Y: 1, Size: 2, Side: "enemy"}, {ID: "B", X: 4, Y: 2, Size: 1, Side: "party"}}
	if !slices.Equal(s.tokens, want) {
		t.Fatalf("tokens %+v, want %+v", s.tokens, want)
	}
	wantObs := []Obstacle{{X: 2, Fill: 1}, {X: 3, Fill: 0.5}, {X: 4, Fill: 0.3}}
	if !slices.Equal(s.obstacles, wantObs) {
		t.Fatalf("obstacles %+v, want %+v", s.obstacles, wantObs)
	}
	if s.mark(t, '@') != grid.C(4, 1, 0) {
		t.Fatalf("mark @ at %v", s.mark(t, '@'))
	}
	got := s.render([][3]int{{0, 0, 0}, {3, 1, 0}, {3, 1, 1}}, 0)
	if got != "*.#_=\n.aa*@\n.aa.B" {
		t.Fatalf("render:\n%s", got)
	}
}
