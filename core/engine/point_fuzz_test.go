package engine

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// decodePointRequest builds a point-origin request (SPEC §10, §11) from fuzz bytes: every
// shape of both games by notation or object, points on and off the grid lines, every form of
// toward, walls (one-way, with heights, open), obstacles, tokens, bounds or none, the cover
// options — and now and then a bad value of each.
func decodePointRequest(b []byte) *Request {
	r := &bytesReader{b}
	req := &Request{Rules: Rules(r.rare("tdgs", "dnd5e", "pf2e", "dnd5e", "pf2e"))}
	texts := []string{"20-foot-radius sphere", "sphere 5", "15-foot cone", "cone 30", "10-foot cube", "10-foot-radius, 20-foot-high cylinder",
		"60-foot line", "line 30 wide 10", "10-foot emanation", "20-foot burst", "burst 5", "cone 22", ""}
	switch r.n(3) {
	case 0:
		req.Template = TemplateRef{Text: r.pick(texts)}
	default:
		// The fields of the shape drawn, sizes from 1 (a zero now and then, from rareInt).
		o := &Template{Shape: r.rare("circle", "sphere", "cylinder", "cone", "cube", "line", "emanation", "burst")}
		size := func(n int) int { return r.rareInt(0, n) + 1 }
		switch o.Shape {
		case "sphere", "emanation", "burst":
			o.Radius = size(5)
		case "cylinder":
			o.Radius, o.Height, o.Down = size(4), size(4), r.n(4) == 0
		case "cone":
			o.Length, o.Base = size(7), r.rare("square", "", "", "flat", "round")
			if r.n(3) == 0 {
				o.Angle = []float64{30, 90, 0.001, 179, 180, 53.13, 1, 120}[r.n(8)]
			}
		case "cube":
			o.Side = size(4)
		case "line":
			o.Length, o.Width = size(8), r.n(3)
		}
		req.Template = TemplateRef{Object: o}
	}
	frac := func() float64 { return float64(r.coord()) + float64(r.n(9))/8 }
	if r.n(4) != 0 {
		req.Point = &Point{frac(), frac(), float64(r.n(5)-2) / 2}
	}
	switch r.n(5) {
	case 1:
		req.Toward = Toward{Compass: r.rare("up", "N", "NE", "E", "SE", "S", "SW", "W", "NW")}
	case 2:
		req.Toward = Toward{Degrees: float64(r.n(720) - 360), IsDegrees: true}
	case 3:
		req.Toward = Toward{Degrees: float64(45 * r.n(9)), IsDegrees: true}
	case 4:
		req.Toward = Toward{Aim: &Point{frac(), frac(), float64(r.n(3)) / 2}}
	}
	if r.n(4) != 0 {
		req.Caster = &Token{ID: "me", X: r.coord(), Y: r.coord(), Z: r.n(3) - 1, Size: 1 + r.n(3), Side: "party"}
	}
	if r.n(3) == 0 {
		req.Range = Range{Kind: "squares", Squares: r.n(20)}
	}
	for i := range r.n(6) {
		req.Tokens = append(req.Tokens, Token{ID: string(rune('a' + i)), X: r.coord(), Y: r.coord(), Z: r.n(3) - 1, Size: 1 + r.n(3),
			Side: r.pick(sides), TakingCover: r.n(3) == 0})
	}
	for range r.n(20) {
		req.Obstacles = append(req.Obstacles, Obstacle{X: r.coord(), Y: r.coord(), Z: r.n(3) - 1, Fill: []float64{1, 0.5, 0.25, 1}[r.n(4)]})
	}
	for range r.n(5) {
		w := Wall{A: [2]float64{float64(r.coord()), float64(r.coord())}, B: [2]float64{frac(), frac()}, Open: r.n(6) == 0,
			From: r.rare("up", "", "", "left", "right")}
		if r.n(3) == 0 {
			top := float64(r.n(4)) / 2
			w.Top = &top
		}
		req.Walls = append(req.Walls, w)
	}
	if r.n(5) != 0 {
		req.Bounds = &Bounds{Min: [3]int{-16, -16, -1}, Max: [3]int{15, 15, r.n(3) - 1}}
	}
	req.CreatureCover = CreatureCover(r.rare("most", "", "half", "full", "none"))
	req.Targeting = Targeting{Trait: Trait(r.rare("x", "", "", "enemiesOnly", "selective")), IDs: []string{"a"},
		IncludeCaster: r.n(2) == 0, ExcludeCaster: r.n(3) == 0}
	req.Targeting.ExcludeCells = [][3]int{{r.coord(), r.coord(), 0}}
	if r.n(3) == 0 {
		req.Resolve = &Resolve{Stat: r.n(20), Seed: uint64(r.byte())}
	}
	req.Cover = CoverRules(r.rare("tdgs", "", "", "none"))
	return req
}

// checkPoint holds a point-origin answer to CONTRACT (checkAnswer), its cells to the bounds,
// and a scene's answer to Evaluate's.
func checkPoint(t *testing.T, req *Request) {
	res, err := Evaluate(req)
	checkAnswer(t, res, err)
	if err == nil && req.Bounds != nil {
		for _, c := range res.Cells {
			for a := range 3 {
				if int(c[a]) < req.Bounds.Min[a] || int(c[a]) > req.Bounds.Max[a] {
					t.Fatalf("cell %v outside the bounds %v", c, req.Bounds)
				}
			}
		}
	}
	sc, serr := NewScene(&Board{Tokens: req.Tokens, Obstacles: req.Obstacles, Walls: req.Walls, Bounds: req.Bounds})
	if serr != nil {
		return // the board is at fault: Evaluate said so too, or will in its own order
	}
	bare := *req
	bare.Tokens, bare.Obstacles, bare.Walls, bare.Bounds = nil, nil, nil, nil
	got, gerr := sc.Evaluate(&bare)
	if !reflect.DeepEqual(got, res) || (gerr == nil) != (err == nil) {
		t.Fatalf("scene %+v, %v; evaluate %+v, %v", got, gerr, res, err)
	}
}

func FuzzEvaluatePoint(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{1, 0, 1, 3, 3, 2, 0, 1, 5, 5, 1, 2, 3, 4})
	f.Add([]byte("a fireball among walls and creatures, with bounds"))
	f.Fuzz(func(t *testing.T, b []byte) { checkPoint(t, decodePointRequest(b)) })
}

// §8.3, §10: a point-origin evaluate never panics, answers a result or a CONTRACT error, keeps
// its cells in the bounds and answers as a scene does, on 5 000 random requests.
func TestPoint_8_3_NeverPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 10))
	answered := 0
	for range 5000 {
		b := make([]byte, r.IntN(160))
		for k := range b {
			b[k] = byte(r.UintN(256))
		}
		req := decodePointRequest(b)
		checkPoint(t, req)
		if _, err := Evaluate(req); err == nil {
			answered++
		}
	}
	t.Logf("%d of 5 000 answered", answered)
	if answered < 500 {
		t.Errorf("only %d of 5 000 random requests answered: the generator makes too few valid ones", answered)
	}
}
