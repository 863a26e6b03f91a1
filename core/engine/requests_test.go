package engine

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// §3.6: wall placement errors, each an invalid_wall naming the first offending square.
func TestWall_3_6_PlacementErrors(t *testing.T) {
	s := parseScene(t, `
		C.....
		...#..
		....g.
	`)
	cases := []struct {
		name   string
		tmpl   string
		path   [][3]int
		square int
		cell   [3]int
	}{
		{"occupied by a token", "3 wall within 10", [][3]int{{4, 0, 0}, {4, 1, 0}, {4, 2, 0}}, 3, [3]int{4, 2, 0}},
		{"occupied by the caster", "3 wall within 10", [][3]int{{1, 0, 0}, {0, 0, 0}}, 2, [3]int{0, 0, 0}},
		{"obstacle", "3 wall within 10", [][3]int{{2, 1, 0}, {3, 1, 0}}, 2, [3]int{3, 1, 0}},
		{"diagonal only", "3 wall within 10", [][3]int{{1, 1, 0}, {2, 2, 0}}, 2, [3]int{2, 2, 0}},
		{"edge only, across levels", "3 wall within 10", [][3]int{{1, 1, 0}, {2, 1, 1}}, 2, [3]int{2, 1, 1}},
		{"too many squares", "2 wall within 10", [][3]int{{1, 1, 0}, {1, 2, 0}, {2, 2, 0}}, 3, [3]int{2, 2, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := s.request(c.tmpl)
			req.Path = c.path
			_, err := Evaluate(req)
			msg := errorCode(t, err, CodeInvalidWall)
			if !namesSquare(msg, c.square, c.cell) {
				t.Errorf("message %q does not name square %d %v", msg, c.square, c.cell)
			}
			if !err.(*Error).Rule() {
				t.Errorf("invalid_wall is a rule violation (HTTP 422)")
			}
		})
	}
}

// §3.6: a valid wall, stacked two high where it turns; its squares are the area.
func TestWall_3_6_Valid(t *testing.T) {
	s := parseScene(t, `
		C.....
		......
	`)
	req := s.request("4 wall within 10")
	req.Path = [][3]int{{2, 0, 0}, {3, 0, 0}, {3, 0, 1}, {3, 1, 1}}
	res := mustEvaluate(t, req)
	want := [][3]int{{2, 0, 0}, {3, 0, 0}, {3, 0, 1}, {3, 1, 1}} // sorted by z, y, x
	if !slices.Equal(ints(res.Cells), want) {
		t.Errorf("cells %v, want %v", res.Cells, want)
	}
}

// §3.5, §3.7: a Draw Steel line given as squares must be straight.
func TestDSLine_3_7_NotStraight(t *testing.T) {
	s := parseScene(t, `C.....`)
	for name, path := range map[string][][3]int{
		"turns back": {{1, 0, 0}, {2, 0, 0}, {1, 1, 0}},
		"jumps":      {{1, 0, 0}, {3, 0, 0}, {4, 0, 0}},
	} {
		t.Run(name, func(t *testing.T) {
			req := s.request("3 x 1 line within 5")
			req.Path = path
			_, err := Evaluate(req)
			errorCode(t, err, CodeNotStraight)
		})
	}
	req := s.request("3 x 1 line within 5")
	req.Path = [][3]int{{1, 0, 0}, {2, 1, 0}, {3, 1, 0}} // a knight's bend is straight (§3.7)
	res := mustEvaluate(t, req)
	if res.Count != 3 {
		t.Errorf("count %d, want 3", res.Count)
	}
}

// §3.1, §5.3: the origin square of a Draw Steel area must be in the caster's line of
// effect. Every corner of the caster's cell and of the cube's origin square (4, 0, 0) lies
// strictly inside y ∈ (0, 400), z ∈ (0, 400), so every segment between them crosses the block
// (2, 0, 0).
func TestDrawSteel_3_1_OriginWithoutLineOfEffect(t *testing.T) {
	s := parseScene(t, `C.#....`)
	req := s.request("3 cube within 10")
	req.Origin = &Pos{4, 0, 0}
	_, err := Evaluate(req)
	msg := errorCode(t, err, CodeNoLineOfEffect)
	if !strings.Contains(msg, "[4, 0, 0]") {
		t.Errorf("message %q does not name the origin square", msg)
	}
	// Without the block it is fine.
	req.Obstacles = nil
	mustEvaluate(t, req)
}

// §2.9: a placement out of range is an error that says the distance and the range.
func TestRange_2_9_OutOfRange(t *testing.T) {
	s := parseScene(t, `C`)
	req := s.request("Cir3")
	req.Origin = &Pos{30, 4, 0}
	req.Range = Range{Kind: "squares", Squares: 20}
	_, err := Evaluate(req)
	msg := errorCode(t, err, CodeOutOfRange)
	if !strings.Contains(msg, "30") || !strings.Contains(msg, "20") {
		t.Errorf("message %q must say the distance (30) and the range (20)", msg)
	}
	// The boundary is inclusive (§1.4).
	req.Origin = &Pos{20, 4, 0}
	mustEvaluate(t, req)
	// Draw Steel "within" is the range when none is given.
	req = s.request("2 cube within 5")
	req.Origin = &Pos{6, 0, 0}
	_, err = Evaluate(req)
	errorCode(t, err, CodeOutOfRange)
}

// §3.7, CONTRACT move: a push stopped by a wall, with squares left.
//
// g at (1,0) is pushed 4 squares east, away from the source (0,0): (2,0), (3,0), then (4,0)
// holds an obstacle. It stops at (3,0) after 2 squares; 2 are left.
func TestMove_3_7_PushStoppedByWall(t *testing.T) {
	s := parseScene(t, `@g..#.`)
	res, err := Move(&MoveRequest{Kind: "push", Distance: 4, Source: *s.pos(t, '@'), Target: "g", Tokens: s.tokens, Obstacles: s.obstacles})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Path, [][3]int32{{2, 0, 0}, {3, 0, 0}}) || res.End != (Pos{3, 0, 0}) {
		t.Errorf("path %v end %v, want [[2 0 0] [3 0 0]] ending at (3,0,0)", res.Path, res.End)
	}
	if res.Collision == nil || *res.Collision != (Collision{Kind: CollisionObstacle, With: "obstacle", At: [3]int32{4, 0, 0}, Left: 2}) {
		t.Errorf("collision %+v, want obstacle at [4 0 0] with 2 left", res.Collision)
	}
	// A low wall stops a forced move too (any fill is an obstacle, §1.6, §3.7).
	s = parseScene(t, `@g._..`)
	res, _ = Move(&MoveRequest{Kind: "push", Distance: 4, Source: *s.pos(t, '@'), Target: "g", Tokens: s.tokens, Obstacles: s.obstacles})
	if res.Collision == nil || res.Collision.Left != 3 || res.End != (Pos{2, 0, 0}) {
		t.Errorf("push into a low wall: %+v end %v, want a collision with 3 left at (2,0,0)", res.Collision, res.End)
	}
}

// §3.7: a push into another creature stops before it and names it.
func TestMove_3_7_PushIntoCreature(t *testing.T) {
	s := parseScene(t, `
		......
		.@....
		..g...
		......
		....h.
	`)
	// Pushed away diagonally from (1,1): (3,3) is free, (4,4) holds h.
	res, err := Move(&MoveRequest{Kind: "push", Distance: 3, Source: *s.pos(t, '@'), Target: "g", Tokens: s.tokens})
	if err != nil {
		t.Fatal(err)
	}
	if res.End != (Pos{3, 3, 0}) || res.Collision == nil || *res.Collision != (Collision{Kind: CollisionToken, With: "h", At: [3]int32{4, 4, 0}, Left: 2}) {
		t.Errorf("end %v collision %+v, want end (3,3,0), collision with h at [4 4 0], 2 left", res.End, res.Collision)
	}
}

// §3.7 and §0's 2-D boards: bounds with z from 0 to 0 stop a push at the map's edge, and not a
// Large creature, two levels tall (its height is its size), whose upper level was above them
// before it moved: it is pushed as far as without bounds, and stopped at the map's edge by its
// leading side.
func TestMove_3_7_EdgeOfATwoDBoard(t *testing.T) {
	bounds := &Bounds{Min: [3]int{0, 0, 0}, Max: [3]int{13, 19, 0}}
	large := Token{ID: "g", X: 10, Y: 10, Size: 2}
	push := func(b *Bounds, distance int) *MoveResult {
		res, err := Move(&MoveRequest{Kind: "push", Distance: distance, Source: Pos{X: 9, Y: 10}, Target: "g", Tokens: []Token{large}, Bounds: b})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	free, bounded := push(nil, 2), push(bounds, 2)
	if !reflect.DeepEqual(free, bounded) || bounded.End != (Pos{X: 12, Y: 10}) || bounded.Collision != nil {
		t.Errorf("pushed 2 on a 2-D board: %+v; without bounds %+v; want end (12,10,0), no collision", bounded, free)
	}
	// 4 squares: the space's east side is at x 11; x 13 is the last column inside, so the
	// third step (to anchor 13, its side at 14) meets the edge.
	res := push(bounds, 4)
	want := Collision{Kind: CollisionEdge, With: "edge", At: [3]int32{13, 10, 0}, Left: 2}
	if res.End != (Pos{X: 12, Y: 10}) || res.Collision == nil || *res.Collision != want {
		t.Errorf("pushed 4 toward the edge: end %v collision %+v, want end (12,10,0) and %+v", res.End, res.Collision, want)
	}
}

// For a creature within the bounds, leavesBounds is leaving them: a cell of the space entered
// outside them (brute force over its cells), for every step to a neighbouring square, levels
// included, of spaces of sizes and heights 1 to 3 all over small bounds.
func TestMove_3_7_LeavesBoundsWhenInside(t *testing.T) {
	b := &Bounds{Min: [3]int{-1, 0, 0}, Max: [3]int{3, 4, 2}}
	inside := func(sp grid.Space) bool {
		ok := true
		sp.Cells(func(c grid.Cell) {
			ok = ok && c.X >= b.Min[0] && c.X <= b.Max[0] && c.Y >= b.Min[1] && c.Y <= b.Max[1] && c.Z >= b.Min[2] && c.Z <= b.Max[2]
		})
		return ok
	}
	n := 0
	for size := 1; size <= 3; size++ {
		for height := 1; height <= 3; height++ {
			for x := -2; x <= 4; x++ {
				for y := -1; y <= 5; y++ {
					for z := -1; z <= 3; z++ {
						from := grid.Space{Anchor: grid.C(x, y, z), Size: size, Height: height}
						if !inside(from) {
							continue
						}
						for k := range 27 {
							d := grid.C(k%3-1, k/3%3-1, k/9-1)
							to := grid.Space{Anchor: from.Anchor.Add(d), Size: size, Height: height}
							if got, want := leavesBounds(b, from, to), !inside(to); got != want {
								t.Fatalf("%+v → %+v: leavesBounds %v, want %v", from, to, got, want)
							}
							n++
						}
					}
				}
			}
		}
	}
	if n < 1000 {
		t.Errorf("only %d steps tried", n)
	}
}

// §3.7: a pull moves the target closer each square and stops beside the source; the source
// square itself is never entered, and stopping there is not a collision.
func TestMove_3_7_PullStopsNextToSource(t *testing.T) {
	s := parseScene(t, `@...g`)
	res, err := Move(&MoveRequest{Kind: "pull", Distance: 6, Source: *s.pos(t, '@'), Target: "g", Tokens: s.tokens})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Path, [][3]int32{{3, 0, 0}, {2, 0, 0}, {1, 0, 0}}) || res.Collision != nil {
		t.Errorf("path %v collision %+v, want [[3 0 0] [2 0 0] [1 0 0]] and no collision", res.Path, res.Collision)
	}
	// The same with the puller on the board as a token: still no collision with it.
	s = parseScene(t, `P...g`)
	res, _ = Move(&MoveRequest{Kind: "pull", Distance: 6, Source: *s.pos(t, 'P'), Target: "g", Tokens: s.tokens})
	if res.End != (Pos{1, 0, 0}) || res.Collision != nil {
		t.Errorf("end %v collision %+v, want (1,0,0) and no collision", res.End, res.Collision)
	}
	// Diagonally, a 2×2 target: it stops when its space is next to the source.
	s = parseScene(t, `
		@.....
		......
		......
		....gg
		....gg
	`)
	res, _ = Move(&MoveRequest{Kind: "pull", Distance: 6, Source: *s.pos(t, '@'), Target: "g", Tokens: s.tokens})
	if res.End != (Pos{1, 1, 0}) || res.Collision != nil {
		t.Errorf("2×2: end %v collision %+v, want (1,1,0) and no collision", res.End, res.Collision)
	}
}

// §3.7: explicit paths: a push must move away every square, a pull toward; a slide may turn.
func TestMove_3_7_ExplicitPaths(t *testing.T) {
	s := parseScene(t, `
		@g...
		.....
	`)
	src := *s.pos(t, '@')
	_, err := Move(&MoveRequest{Kind: "push", Distance: 3, Source: src, Target: "g", Tokens: s.tokens, Path: [][3]int{{2, 0, 0}, {1, 1, 0}}})
	errorCode(t, err, CodeNotStraight)
	_, err = Move(&MoveRequest{Kind: "push", Distance: 3, Source: src, Target: "g", Tokens: s.tokens, Path: [][3]int{{2, 0, 0}, {2, 0, 1}}})
	errorCode(t, err, CodeNotStraight) // vertical without "vertical"
	res, err := Move(&MoveRequest{Kind: "slide", Distance: 3, Source: src, Target: "g", Tokens: s.tokens, Path: [][3]int{{2, 0, 0}, {2, 1, 0}, {1, 1, 0}}})
	if err != nil || res.End != (Pos{1, 1, 0}) {
		t.Errorf("slide: %v %v, want end (1,1,0)", res, err)
	}
}

// §7.3 smart targeting and excludeCells; §7.4 order: the caster first, then the tokens in
// request order. n has no side: it is nobody's ally and nobody's enemy (see allowed).
func TestTargeting_7_3_Traits(t *testing.T) {
	s := parseScene(t, `
		.....
		.AC..
		..ne.
	`)
	cases := []struct {
		name      string
		targeting Targeting
		affected  string // ids affected, in order
	}{
		{"none", Targeting{}, "caster A n e"},
		{"none spelled out", Targeting{Trait: "none"}, "caster A n e"},
		{"alliesExcluded", Targeting{Trait: "alliesExcluded"}, "n e"},
		{"enemiesOnly", Targeting{Trait: "enemiesOnly"}, "e"},
		{"selective", Targeting{Trait: "selective", IDs: []string{"e", "caster"}}, "caster e"},
		{"excludeCaster", Targeting{ExcludeCaster: true}, "A n e"},
		{"excludeCells", Targeting{ExcludeCells: [][3]int{{3, 2, 0}, {1, 1, 0}}}, "caster n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			req := s.request("Cir1h1")
			req.Origin = s.pos(t, 'C')
			req.Tokens[1].Side = "" // n
			req.Targeting = c.targeting
			res := mustEvaluate(t, req)
			if ids := strings.Join(targetIDs(res), " "); ids != "caster A n e" {
				t.Fatalf("targets %q, want every one listed in order", ids)
			}
			var got []string
			for _, tg := range res.Targets {
				if tg.Affected {
					got = append(got, tg.ID)
				} else if tg.Reason != "targeting" {
					t.Errorf("%s", summary(tg))
				}
			}
			if g := strings.Join(got, " "); g != c.affected {
				t.Errorf("affected %q, want %q", g, c.affected)
			}
		})
	}
	// excludeCells removes the cells from the area; excluded tokens are not in it.
	req := s.request("Cir1h1")
	req.Origin = s.pos(t, 'C')
	req.Targeting.ExcludeCells = [][3]int{{3, 2, 0}, {1, 1, 0}}
	res := mustEvaluate(t, req)
	if res.Count != 7 || slices.Contains(ints(res.Cells), [3]int{3, 2, 0}) {
		t.Errorf("cells %v, want the 9 of Cir1h1 less the 2 excluded", res.Cells)
	}
	if tg := targetOf(t, res, "e"); tg.InArea {
		t.Errorf("e stands on an excluded cell: %s", summary(tg))
	}
	req.Targeting = Targeting{Trait: "friends"}
	_, err := Evaluate(req)
	errorCode(t, err, CodeBadRequest)
	// An unknown trait is an error even when nothing is in the area to apply it to.
	req.Tokens, req.Caster, req.Range = nil, nil, Range{}
	_, err = Evaluate(req)
	errorCode(t, err, CodeBadRequest)
	req.Targeting.Trait = "none"
	if _, err := Evaluate(req); err != nil {
		t.Errorf("the same request with a known trait: %v", err)
	}
}

// §7.1: a 2×2 token overlapping several cells of the area counts once, rolls once.
func TestTargets_7_1_MultiCellOnce(t *testing.T) {
	s := parseScene(t, `
		@...
		.gg.
		.gg.
	`)
	req := s.request("Cir3h1")
	req.Origin = s.pos(t, '@')
	req.Resolve = &Resolve{Stat: 5, Seed: 1}
	res := mustEvaluate(t, req)
	if len(res.Targets) != 1 || res.Targets[0].Roll == nil || len(res.Targets[0].Roll.Dice) != 1 {
		t.Fatalf("targets %+v, want g once with one die", res.Targets)
	}
}

// CONTRACT bounds: cells outside are clipped, not an error; tokens outside are still targets.
// Cir2 at (0,0) is 5 × 5 × 2 (levels 0 and 1, §2.8); inside bounds 0…59 × 0…59 × 0…0 only
// the 3 × 3 cells x, y ∈ 0…2 at level 0 remain. g at (−1,−1) is off the board but in the area.
func TestBounds_Contract_ClipCellsNotTargets(t *testing.T) {
	req := &Request{
		Template: TemplateRef{Text: "Cir2"},
		Origin:   &Pos{0, 0, 0},
		Tokens:   []Token{{ID: "g", X: -1, Y: -1}},
		Bounds:   &Bounds{Min: [3]int{0, 0, 0}, Max: [3]int{59, 59, 0}},
	}
	res := mustEvaluate(t, req)
	var cells [][3]int
	for y := 0; y <= 2; y++ {
		for x := 0; x <= 2; x++ {
			cells = append(cells, [3]int{x, y, 0})
		}
	}
	if !slices.Equal(ints(res.Cells), cells) || res.Count != 9 {
		t.Errorf("cells %v (count %d), want %v", res.Cells, res.Count, cells)
	}
	// g is diagonal to the origin: edge-on, 6 lines, all clear.
	checkTarget(t, targetOf(t, res, "g"), want{inArea: true, affected: true, cover: "none", lines: 6})
	req.Bounds = &Bounds{Min: [3]int{5, 0, 0}, Max: [3]int{4, 9, 0}}
	_, err := Evaluate(req)
	errorCode(t, err, CodeBadRequest)
}

// CONTRACT evaluate: cells are sorted by z, then y, then x, with no duplicates; count is
// their number. Con2N from a caster facing E points east (§1.3), 4 cells per level, 2 levels.
func TestCells_Contract_SortedOnce(t *testing.T) {
	req := &Request{Template: TemplateRef{Text: "Con2N"}, Caster: &Token{ID: "c", X: 5, Y: 5, Facing: "E"}}
	res := mustEvaluate(t, req)
	// Cone offsets for N are (0, −1), (−1, −2), (0, −2), (1, −2); turned a quarter clockwise
	// ((dx, dy) → (−dy, dx), §1.2) they are (1, 0), (2, −1), (2, 0), (2, 1).
	want := [][3]int{{7, 4, 0}, {6, 5, 0}, {7, 5, 0}, {7, 6, 0}, {7, 4, 1}, {6, 5, 1}, {7, 5, 1}, {7, 6, 1}}
	if !slices.Equal(ints(res.Cells), want) || res.Count != len(want) || res.Direction != "E" {
		t.Errorf("cells %v dir %s, want %v toward E", res.Cells, res.Direction, want)
	}
}

// §6 circle50: cover is reported with tdgs grades and not applied. g stands behind the
// pillar east of the centre, where the circle wraps around it (§4.3): every segment from the
// centre (2200, 2200) to g's west corners (x = 2801) crosses the pillar (6,5): "full", yet
// affected and no bonus.
func TestCircle50_6_CoverReportedNotApplied(t *testing.T) {
	s := parseScene(t, `
		.........
		.........
		.....@#g.
		.........
	`)
	req := s.request("circle 3")
	req.Origin = s.pos(t, '@')
	res := mustEvaluate(t, req)
	checkTarget(t, targetOf(t, res, "g"), want{inArea: true, affected: true, cover: "full", blocked: 4, lines: 4})
	// Applied on request (§6: each column may be overridden).
	apply := true
	req.ApplyCover = &apply
	checkTarget(t, targetOf(t, mustEvaluate(t, req), "g"), want{inArea: true, reason: "cover", cover: "full", blocked: 4, lines: 4})
}

// §6 overrides: obstacles shaping a TDGS area, Draw Steel grades, no cover at all.
func TestRuleSets_6_Overrides(t *testing.T) {
	s := parseScene(t, `
		.....
		.@#g.
		.....
	`)
	base := func() *Request {
		req := s.request("Cir2h1")
		req.Origin = s.pos(t, '@')
		return req
	}
	// tdgs: the area ignores obstacles (§2.1); g behind the pillar has full cover.
	res := mustEvaluate(t, base())
	if res.Count != 25 {
		t.Errorf("tdgs: %d cells, want all 25", res.Count)
	}
	checkTarget(t, targetOf(t, res, "g"), want{inArea: true, reason: "cover", cover: "full", blocked: 4, lines: 4})
	// Barriers on: §3.2's test cuts the pillar's cell and the cells in its shadow.
	on := true
	req := base()
	req.Barriers = &on
	res = mustEvaluate(t, req)
	if slices.Contains(ints(res.Cells), [3]int{2, 1, 0}) || slices.Contains(ints(res.Cells), [3]int{3, 1, 0}) {
		t.Errorf("barriers: the pillar or its shadow is in the area: %v", res.Cells)
	}
	checkTarget(t, targetOf(t, res, "g"), want{reason: "barrier", cover: "none"})
	// Draw Steel grades: all blocked is "full" (no line of effect).
	req = base()
	req.Cover = "drawsteel"
	checkTarget(t, targetOf(t, mustEvaluate(t, req), "g"), want{inArea: true, reason: "cover", cover: "full", blocked: 4, lines: 4})
	// No cover: no lines, affected.
	req = base()
	req.Cover = "none"
	checkTarget(t, targetOf(t, mustEvaluate(t, req), "g"), want{inArea: true, affected: true, cover: "none"})
}

// §2.9: TDGS does not require the caster to see the origin; it reports it. The centre line
// from C (200, 600) to @ (1800, 600) runs along y = 600 through the wall (2, 1).
func TestOrigin_2_9_VisibilityReported(t *testing.T) {
	s := parseScene(t, `
		.....
		C.#.@
		.....
	`)
	req := s.request("Cir1h1")
	req.Origin = s.pos(t, '@')
	req.Range = Range{Kind: "squares", Squares: 10}
	if res := mustEvaluate(t, req); res.OriginVisible {
		t.Errorf("originVisible = true through a wall")
	}
	req.Obstacles = nil
	if res := mustEvaluate(t, req); !res.OriginVisible {
		t.Errorf("originVisible = false on an empty board")
	}
}

// §2.9 ranges "self" and "touch".
func TestRange_2_9_SelfAndTouch(t *testing.T) {
	s := parseScene(t, `C..`)
	req := s.request("Cir1h1")
	req.Range = Range{Kind: "self"}
	req.Origin = &Pos{0, 0, 0}
	mustEvaluate(t, req)
	req.Origin = &Pos{1, 0, 0}
	_, err := Evaluate(req)
	errorCode(t, err, CodeOutOfRange)
	req.Range = Range{Kind: "touch"}
	mustEvaluate(t, req)
	req.Origin = &Pos{2, 0, 0}
	_, err = Evaluate(req)
	errorCode(t, err, CodeOutOfRange)
}

// §8.2 metrics, from the gaps between two spaces. Gaps (3, 4, 0): Chebyshev 4; Manhattan 7;
// Euclidean √25 = 5; 5-10-5, 3 diagonal steps (1 + 2 + 1) and 1 straight: 5. Gaps (1, 1, 1):
// Euclidean √3 rounded up, 2; alternating 1 + ⌊2/2⌋ = 2.
func TestMetric_8_2(t *testing.T) {
	a := grid.Unit(grid.C(0, 0, 0))
	b := grid.Space{Anchor: grid.C(3, 4, 0), Size: 2, Height: 1} // nearest cell (3, 4): gaps 3, 4, 0
	c := grid.Unit(grid.C(1, -1, 1))
	for _, tc := range []struct {
		metric string
		x, y   grid.Space
		want   int
	}{
		{"", a, b, 4}, {"chebyshev", a, b, 4}, {"manhattan", a, b, 7}, {"euclidean", a, b, 5}, {"alternating", a, b, 5},
		{"euclidean", a, c, 2}, {"alternating", a, c, 2}, {"manhattan", a, c, 3}, {"chebyshev", a, a, 0},
	} {
		if got := metricDist(Metric(tc.metric), tc.x, tc.y); got != tc.want {
			t.Errorf("%s(%v, %v) = %d, want %d", tc.metric, tc.x, tc.y, got, tc.want)
		}
	}
}

// CONTRACT: template as an object, as parse returns it.
func TestTemplate_Contract_Object(t *testing.T) {
	tmpl, err := Parse("Con4NE")
	if err != nil {
		t.Fatal(err)
	}
	caster := &Token{ID: "c", X: 5, Y: 5}
	text := mustEvaluate(t, &Request{Template: TemplateRef{Text: "Con4NE"}, Caster: caster})
	obj := mustEvaluate(t, &Request{Template: TemplateRef{Object: &tmpl}, Caster: caster})
	if !slices.Equal(text.Cells, obj.Cells) || obj.Count != 40 {
		t.Errorf("object %v, text %v; want the same 40 cells (10 per level, 4 levels)", obj.Cells, text.Cells)
	}
	_, err = Evaluate(&Request{Template: TemplateRef{Object: &Template{Shape: "hexagon"}}})
	errorCode(t, err, CodeBadRequest)
	_, err = Evaluate(&Request{Template: TemplateRef{Text: "Lin5SW2"}, Caster: caster})
	if e := err.(*Error); e.Code != CodeBadNotation || e.At == 0 {
		t.Errorf("error %+v, want bad_notation with a position", e)
	}
}
