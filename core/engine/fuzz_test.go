package engine

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// bytesReader hands out the bytes of a fuzz input, then zeros.
type bytesReader struct{ b []byte }

func (r *bytesReader) byte() byte {
	if len(r.b) == 0 {
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *bytesReader) n(k int) int            { return int(r.byte()) % k }
func (r *bytesReader) coord() int             { return int(int8(r.byte())) / 8 } // −16 … 15, mostly small
func (r *bytesReader) pick(s []string) string { return s[r.n(len(s))] }

// rare picks one of valid, or bad once in 16 (never once the input runs out).
func (r *bytesReader) rare(bad string, valid ...string) string {
	if v := r.byte(); v%16 == 15 {
		return bad
	} else {
		return valid[int(v/16)%len(valid)]
	}
}

func (r *bytesReader) rareInt(bad, n int) int {
	if v := r.byte(); v%16 == 15 {
		return bad
	} else {
		return int(v/16) % n
	}
}

var fuzzTemplates = []string{
	"Cir1", "Cir3h1", "Cir2h4", "Con3N", "Con4NE", "Con2SWh1", "Lin5E", "Lin4NEw2", "Lin3Sw3h2", "Rec3x4",
	"Rec1x5h2", "2 burst", "1 aura", "3 cube within 10", "1 cube", "4 x 1 line within 8", "3 x 2 line",
	"3 wall within 10", "5 wall", "circle 2", "close circle 1", "circle 6", "Cir0", "Con4", "", "nonsense",
	"0 burst", "Lin5SW2", "circle 0",
}

// decodeRequest turns a fuzz input into an evaluate request: every field is drawn from the
// bytes, small enough to run fast, wild enough to reach the error paths.
func decodeRequest(b []byte) *Request {
	r := &bytesReader{b}
	req := &Request{Template: TemplateRef{Text: r.pick(fuzzTemplates)}}
	req.Rules = Rules(r.rare("bogus", "", "", "", "tdgs", "drawsteel", "circle50"))
	if r.n(5) != 0 {
		req.Caster = &Token{ID: r.rare("a1", "me", "", "me"), X: r.coord(), Y: r.coord(), Z: r.coord() / 4,
			Size: r.n(4), Height: r.rareInt(-1, 4), Side: r.pick(sides), Facing: r.rare("x", "", "N", "SE", "W")}
	}
	if r.n(3) != 0 {
		req.Origin = &Pos{r.coord(), r.coord(), r.coord() / 4}
	}
	if r.n(4) == 0 {
		req.OriginSquare = &Pos{r.coord(), r.coord(), r.coord() / 4}
	}
	if r.n(3) == 0 {
		req.Aim = &Pos{r.coord(), r.coord(), r.coord() / 4}
	}
	if k := r.n(7); k > 0 {
		c := grid.C(r.coord(), r.coord(), 0)
		for range k {
			req.Path = append(req.Path, [3]int{c.X, c.Y, c.Z})
			c = c.Add(grid.C(r.n(3)-1, r.n(3)-1, r.n(5)/4))
		}
	}
	switch r.n(5) {
	case 1:
		req.Range = Range{Kind: "squares", Squares: r.n(30) - 2}
	case 2:
		req.Range = Range{Kind: "self"}
	case 3:
		req.Range = Range{Kind: "touch"}
	case 4:
		req.Range = Range{Kind: "far"}
	}
	for i := range r.n(8) {
		req.Tokens = append(req.Tokens, Token{ID: r.rare("a1", "a", "b", "c") + string(rune('0'+i)),
			X: r.coord(), Y: r.coord(), Z: r.coord() / 4, Size: r.n(4), Height: r.n(4), Side: r.pick(sides), Prone: r.n(2) == 0})
	}
	for range r.n(30) {
		req.Obstacles = append(req.Obstacles, Obstacle{X: r.coord(), Y: r.coord(), Z: r.coord() / 8, Fill: []float64{1, 0.5, 0.3, 0, -1, 2, 0.001, 1, 1, 0.5, 0.3, 1, 0.0025, 1, 1, 1, 1, 1, 1, 1, 1}[r.n(21)]})
	}
	if r.n(4) == 0 {
		req.Bounds = &Bounds{Min: [3]int{r.coord(), r.coord(), r.coord() / 4}, Max: [3]int{r.coord(), r.coord(), r.coord() / 4}}
	}
	req.Targeting = Targeting{Trait: Trait(r.rare("x", "", "none", "alliesExcluded", "enemiesOnly", "selective")),
		IDs: []string{"a0", "me"}, ExcludeCaster: r.n(2) == 0}
	for range r.n(3) {
		req.Targeting.ExcludeCells = append(req.Targeting.ExcludeCells, [3]int{r.coord(), r.coord(), 0})
	}
	if r.n(2) == 0 {
		req.Resolve = &Resolve{Stat: r.n(20), Luck: r.n(25) - 12, Seed: uint64(r.byte()), Defence: map[string]int{"a0": r.n(20)}}
	}
	req.Metric = Metric(r.rare("x", "", "", "chebyshev", "manhattan", "euclidean", "alternating"))
	req.Orientation = r.rare("NE", "", "", "", "N", "E", "S", "W")
	req.Cover = CoverRules(r.rare("x", "", "", "", "tdgs", "drawsteel", "none"))
	return req
}

func decodeMove(b []byte) *MoveRequest {
	r := &bytesReader{b}
	req := &MoveRequest{Kind: MoveKind(r.pick([]string{"push", "pull", "slide", "shove"})), Distance: r.n(12) - 1,
		Source: Pos{r.coord(), r.coord(), r.coord() / 4}, Target: r.pick([]string{"a0", "b1", "zz"}), Vertical: r.n(2) == 0}
	for i := range r.n(6) {
		req.Tokens = append(req.Tokens, Token{ID: string(rune('a'+i)) + string(rune('0'+i%3)), X: r.coord(), Y: r.coord(), Z: r.coord() / 4, Size: r.n(4)})
	}
	for range r.n(20) {
		req.Obstacles = append(req.Obstacles, Obstacle{X: r.coord(), Y: r.coord(), Z: r.coord() / 8, Fill: []float64{1, 0.5, 0.3}[r.n(3)]})
	}
	if k := r.n(6); k > 0 {
		c := grid.C(r.coord(), r.coord(), 0)
		for range k {
			c = c.Add(grid.C(r.n(3)-1, r.n(3)-1, r.n(5)/4))
			req.Path = append(req.Path, [3]int{c.X, c.Y, c.Z})
		}
	}
	if r.n(3) == 0 {
		req.Bounds = &Bounds{Min: [3]int{-10, -10, -2}, Max: [3]int{10, 10, 2}}
	}
	return req
}

var codes = []Code{CodeBadNotation, CodeBadRequest, CodeOutOfRange, CodeNoLineOfEffect, CodeInvalidWall, CodeNotStraight, CodeTooLarge}

// checkAnswer is what every answer must satisfy: a CONTRACT error, or a result whose cells
// are sorted and unique, counted, and whose targets are consistent.
func checkAnswer(t *testing.T, res *Result, err error) {
	t.Helper()
	if err != nil {
		e, ok := err.(*Error)
		if !ok || !slices.Contains(codes, e.Code) || e.Message == "" {
			t.Fatalf("error %v (%T) is not a CONTRACT error", err, err)
		}
		if res != nil {
			t.Fatalf("a result with an error")
		}
		return
	}
	if res.Count != len(res.Cells) {
		t.Fatalf("count %d of %d cells", res.Count, len(res.Cells))
	}
	for i := 1; i < len(res.Cells); i++ {
		if grid.Compare(gridCell(res.Cells[i-1]), gridCell(res.Cells[i])) >= 0 {
			t.Fatalf("cells not sorted or repeated at %d: %v %v", i, res.Cells[i-1], res.Cells[i])
		}
	}
	for _, tg := range res.Targets {
		n := 0
		for _, l := range tg.Lines {
			if l.Blocked {
				n++
			}
		}
		if n != tg.Blocked || tg.Affected != (tg.Reason == "") || tg.Affected && !tg.InArea {
			t.Fatalf("inconsistent target %s", summary(tg))
		}
	}
}

func FuzzEvaluate(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{0, 0, 1, 5, 5, 0, 1, 1, 2, 1, 1})
	f.Add([]byte("Draw Steel burst by a wall, with tokens and obstacles"))
	f.Add([]byte{17, 3, 1, 0, 0, 0, 0, 0, 2, 3, 200, 100, 50, 25, 12, 6})
	f.Fuzz(func(t *testing.T, b []byte) {
		req := decodeRequest(b)
		res, err := Evaluate(req)
		checkAnswer(t, res, err)
		sameAsWholeBoard(t, "fuzz", req)
		m, err := Move(decodeMove(b))
		if err != nil {
			checkAnswer(t, nil, err)
		} else if m.Collision != nil && (m.Collision.Left < 1) {
			t.Fatalf("collision with %d squares left", m.Collision.Left)
		}
	})
}

// §8.3: Evaluate and Move never panic and always answer a result or a CONTRACT error, on
// random requests (the fuzz decoder on random bytes, with a fixed seed).
func TestEvaluate_8_3_NeverPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	valid := 0
	for i := 0; i < 20000; i++ {
		b := make([]byte, r.IntN(200))
		for k := range b {
			b[k] = byte(r.UintN(256))
		}
		req := decodeRequest(b)
		res, err := Evaluate(req)
		checkAnswer(t, res, err)
		sameAsWholeBoard(t, fmt.Sprint("request ", i), req)
		if err == nil {
			valid++
		}
		if _, err := Move(decodeMove(b)); err != nil {
			checkAnswer(t, nil, err)
		}
	}
	if valid < 2000 {
		t.Errorf("only %d of 20000 requests were valid: the decoder does not reach the engine", valid)
	}
	if _, err := Evaluate(nil); err == nil {
		t.Errorf("a nil request must be an error")
	}
	if _, err := Move(nil); err == nil {
		t.Errorf("a nil move must be an error")
	}
}
