package engine

import (
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// §8.3 (issue 29, 1): an area around a caster of many squares allocates in proportion to the
// cells it tries, not to the caster's volume. A size-98 caster's 1 aura (941 192 squares, one
// obstacle above it, bounds of one square) made a line-of-effect source for every one of its
// cells before any work was reckoned: 3.3 GB natively, and the module died of it. Counted in
// bytes, never time.
func TestBudget_8_3_BigCasterAllocatesLittle(t *testing.T) {
	for _, c := range []struct {
		name string
		req  Request
	}{
		{"1 aura, size 98", Request{Template: TemplateRef{Text: "1 aura"}, Caster: &Token{ID: "c", Size: 98, Height: 98},
			Obstacles: []Obstacle{{X: 49, Y: 49, Z: 98}}, Bounds: &Bounds{}}},
		{"1 burst, size 99", Request{Template: TemplateRef{Text: "1 burst"}, Caster: &Token{ID: "c", Size: 99, Height: 99},
			Obstacles: []Obstacle{{X: 49, Y: 49, Z: 99}}, Bounds: &Bounds{}}},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		res, err := Evaluate(&c.req)
		runtime.ReadMemStats(&after)
		checkAnswer(t, res, err)
		if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
			t.Errorf("%s: %d MB allocated, want at most 64 MB", c.name, got>>20)
		}
	}
}

// §7.3 (issue 29, 3): a selective trait keeps exactly the listed ids, whether the list is
// scanned (up to 16) or made a set (longer lists: a look-up an entity, not a scan).
func TestTargeting_7_3_SelectiveLongList(t *testing.T) {
	for _, n := range []int{0, 1, 16, 17, 5000} {
		req := &Request{Template: TemplateRef{Text: "Cir5h1"}, Origin: &Pos{5, 5, 0}, Targeting: Targeting{Trait: TraitSelective}}
		for i := range 100 {
			req.Tokens = append(req.Tokens, Token{ID: "t" + strconv.Itoa(i), X: i % 10, Y: i / 10})
		}
		for i := range n {
			req.Targeting.IDs = append(req.Targeting.IDs, "t"+strconv.Itoa(i*7%300)) // some not on the board
		}
		res, err := Evaluate(req)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range res.Targets {
			if want := slices.Contains(req.Targeting.IDs, tg.ID); tg.Affected != want {
				t.Errorf("%d ids: %s affected %v, want %v", n, tg.ID, tg.Affected, want)
			}
		}
	}
}

// BenchmarkWorstCase_Selective: issue 29's 10 000 tokens and 129 938 listed ids (20 s natively
// before the ids were a set).
func BenchmarkWorstCase_Selective(b *testing.B) {
	req := &Request{Template: TemplateRef{Text: "Cir60h1"}, Origin: &Pos{50, 50, 0}, Targeting: Targeting{Trait: TraitSelective}}
	for i := range 10000 {
		req.Tokens = append(req.Tokens, Token{ID: "t" + strconv.Itoa(i), X: i % 100, Y: i / 100})
	}
	for i := range 129938 {
		req.Targeting.IDs = append(req.Targeting.IDs, "x"+strconv.Itoa(i))
	}
	for b.Loop() {
		if _, err := Evaluate(req); err != nil {
			b.Fatal(err)
		}
	}
}

// §3.7, §5.6 (issue 29, 2): the leading side a step tests for walls is exactly the cells of the
// space whose step leaves it, each once, and the work reckoned counts them.
func TestMove_3_7_LeadingSide(t *testing.T) {
	r := rand.New(rand.NewPCG(29, 2))
	for range 3000 {
		lo := grid.Cell{X: r.IntN(9) - 4, Y: r.IntN(9) - 4, Z: r.IntN(5) - 2}
		b := grid.Box{Min: lo, Max: lo.Add(grid.Cell{X: r.IntN(4), Y: r.IntN(4), Z: r.IntN(3)})}
		d := grid.Cell{X: r.IntN(5) - 2, Y: r.IntN(5) - 2, Z: r.IntN(3) - 1}
		seen := map[grid.Cell]int{}
		leadingSide(b, d, func(c grid.Cell) bool { seen[c]++; return false })
		want := 0
		for z := b.Min.Z; z <= b.Max.Z; z++ {
			for y := b.Min.Y; y <= b.Max.Y; y++ {
				for x := b.Min.X; x <= b.Max.X; x++ {
					c := grid.Cell{X: x, Y: y, Z: z}
					if lead := !b.Contains(c.Add(d)); lead != (seen[c] == 1) {
						t.Fatalf("box %v step %v: cell %v visited %d times, leading %v", b, d, c, seen[c], lead)
					} else if lead {
						want++
					}
				}
			}
		}
		if len(seen) != want {
			t.Fatalf("box %v step %v: %d cells visited, %d lead", b, d, len(seen), want)
		}
	}
}

// BenchmarkWorstCase_PushAlongWall: issue 29's size-100 token (10 high) pushed 1 000 squares
// beside a long wall: each step's walls are tested from its leading side alone (8.6 s natively
// when every cell of the space was visited twice a step).
func BenchmarkWorstCase_PushAlongWall(b *testing.B) {
	req := &MoveRequest{Kind: MovePush, Distance: 1000, Source: Pos{-1, 0, 0}, Target: "big",
		Tokens: []Token{{ID: "big", X: 0, Y: 0, Size: 100, Height: 10}},
		Walls:  []Wall{{A: [2]float64{-5000, -1}, B: [2]float64{5000, -1}}}}
	for b.Loop() {
		if _, err := Move(req); err != nil {
			b.Fatal(err)
		}
	}
}

// holed is issue 29's board of 249 000 obstacles: 500 × 500 squares, full blocks but for a
// hole of 1 000 in its middle (x 200 … 239, y 200 … 224).
func holed() []Obstacle {
	var obs []Obstacle
	for y := range 500 {
		for x := range 500 {
			if !(200 <= x && x < 240 && 200 <= y && y < 225) {
				obs = append(obs, Obstacle{X: x, Y: y, Fill: 1})
			}
		}
	}
	return obs
}

// BenchmarkWorstCase_SceneEditOne: issue 29's scene of 249 000 obstacles (holed), one obstacle set and cleared by each edit (150–320 ms natively
// when each edit indexed the whole board anew), and a refused edit, which costs its
// validation only.
func BenchmarkWorstCase_SceneEditOne(b *testing.B) {
	obs := holed()
	s, err := NewScene(&Board{Obstacles: obs})
	if err != nil {
		b.Fatal(err)
	}
	set, clear := SceneEdit{Obstacles: []Obstacle{{X: 210, Y: 210, Fill: 1}}}, SceneEdit{Clear: [][3]int{{210, 210, 0}}}
	bad := SceneEdit{Obstacles: []Obstacle{{X: 210, Y: 210, Fill: 2}}}
	for b.Loop() {
		if s.Update(&set) != nil || s.Update(&clear) != nil || s.Update(&bad) == nil {
			b.Fatal("an edit answered wrong")
		}
	}
}

// §8.3 (issue 29, 5): a scene's one-obstacle edit, and a refused one, cost what the edit
// touches: a scene of 249 000 obstacles allocated some 20 MB for either (its cells copied,
// its index made anew). Counted in bytes.
func TestScene_8_3_EditCostsTheEdit(t *testing.T) {
	obs := holed()
	s, err := NewScene(&Board{Obstacles: obs})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		e    SceneEdit
		ok   bool
	}{
		{"one obstacle set (a new fill)", SceneEdit{Obstacles: []Obstacle{{X: 210, Y: 210, Fill: 0.5}}}, true},
		{"one set", SceneEdit{Obstacles: []Obstacle{{X: 211, Y: 210, Fill: 1}}}, true},
		{"one cleared", SceneEdit{Clear: [][3]int{{600, 600, 0}, {210, 210, 0}}}, true},
		{"refused", SceneEdit{Obstacles: []Obstacle{{X: 210, Y: 210, Fill: 2}}}, false},
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := s.Update(&c.e)
		runtime.ReadMemStats(&after)
		if (err == nil) != c.ok {
			t.Errorf("%s: %v", c.name, err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
			t.Errorf("%s: %d KB allocated, want at most 64 KB", c.name, got>>10)
		}
	}
	want, err := NewScene(&Board{Obstacles: append(holed(), Obstacle{X: 211, Y: 210, Fill: 1})})
	if err != nil {
		t.Fatal(err)
	}
	req := &Request{Rules: RulesDrawSteel, Template: TemplateRef{Text: "2 burst"}, Caster: &Token{ID: "c", X: 210, Y: 210}}
	got, gerr := s.Evaluate(req)
	w, werr := want.Evaluate(req)
	if !reflect.DeepEqual(got, w) || gerr != nil || werr != nil {
		t.Errorf("after the edits: %+v %v; a new scene of the same board: %+v %v", got, gerr, w, werr)
	}
}
