package engine

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/los"
)

// Point-origin areas (SPEC §10, §11): counts and pictures from the rule books and the SPEC's
// worked examples, cover from the DMG's and Player Core's cases. Every expectation is read off
// the SPEC's definitions by hand (each picture's derivation is beside it), never from the code.

// flat is a one-level board, z 0 … 0, wide enough for every picture here.
var flat = &Bounds{Min: [3]int{-40, -40, 0}, Max: [3]int{40, 40, 0}}

// picture reads a drawing of level 0: '#' is a cell in the area, '.' one outside; the drawing's
// top-left character is cell (x0, y0).
func areaPicture(x0, y0 int, rows string) [][3]int32 {
	var out [][3]int32
	for j, row := range strings.Fields(rows) {
		for i, c := range row {
			if c == '#' {
				out = append(out, [3]int32{int32(x0 + i), int32(y0 + j), 0})
			}
		}
	}
	return out
}

func evalPoint(t *testing.T, req *Request) *Result {
	t.Helper()
	res, err := Evaluate(req)
	if err != nil {
		t.Fatalf("Evaluate: %v", err)
	}
	return res
}

func wantCells(t *testing.T, res *Result, want [][3]int32) {
	t.Helper()
	if !slices.Equal(res.Cells, want) || res.Count != len(want) {
		t.Errorf("cells (%d) = %v\nwant (%d) %v", res.Count, res.Cells, len(want), want)
	}
}

// TestPoint_10_5_SphereOnAnIntersection: a 20-foot fireball placed on a grid intersection (the
// issue's Foundry case) covers the squares whose centres lie within 4 squares of the point,
// (i − ½)² + (j − ½)² + (½)² ≤ 16 in each quadrant (the centres of level 0 are ½ above the
// point): i = 1, 2 reach j = 4 (3.5² + 2.25 ≤ 16 needs i = 2: 2.25 + 12.25 + 0.25 = 14.75), i = 3
// reaches j = 3 (6.25 + 6.25 + 0.25 = 12.75; j = 4: 18.75), i = 4 reaches j = 2 (12.25 + 2.25 +
// 0.25 = 14.75; j = 3: 18.75): 4 + 4 + 3 + 2 = 13 a quadrant, 52 squares (DMG p.251's circle on
// an intersection).
func TestPoint_10_5_SphereOnAnIntersection(t *testing.T) {
	for _, tmpl := range []TemplateRef{{Text: "20-foot-radius sphere"}, {Text: "sphere 20"}, {Object: &Template{Shape: "sphere", Radius: 4}}} {
		res := evalPoint(t, &Request{Rules: RulesDnD5e, Template: tmpl, Point: &Point{10, 6, 0}, Bounds: flat})
		wantCells(t, res, areaPicture(6, 2, `
			..####..
			.######.
			########
			########
			########
			########
			.######.
			..####..`))
		if res.Origin != (Point{10, 6, 0}) || res.Template.Shape != "sphere" || res.Template.Radius != 4 || res.Template.Notation != "20-foot-radius sphere" {
			t.Errorf("origin %v template %+v", res.Origin, res.Template)
		}
	}
}

// TestPoint_11_2_BurstOnAnIntersection: a pf2e 20-foot burst, the squares at §11.1 distance ≤ 4
// from the intersection (the first square out counts 1, every second diagonal 2): per quadrant
// the row nearest the point holds i = 1 … 4, the second i = 1 … 3 (2 + ⌊3/2⌋... (3,2): 3 + 1 = 4),
// the third i = 1 … 3 ((3,3): 3 + 1 = 4), the fourth i = 1 ((2,4): 4 + 1 = 5): 11 a quadrant, 44.
func TestPoint_11_2_BurstOnAnIntersection(t *testing.T) {
	res := evalPoint(t, &Request{Rules: RulesPF2e, Template: TemplateRef{Text: "20-foot burst"}, Point: &Point{10, 6, 0}, Bounds: flat})
	wantCells(t, res, areaPicture(6, 2, `
		...##...
		.######.
		.######.
		########
		########
		.######.
		.######.
		...##...`))
}

// TestPoint_11_2_ConeFifteenFeet: a pf2e 15-foot cone from a Medium caster at (5, 5) is 7
// squares aimed east (1, 3, 3: its origin is the middle of the east face) and 6 aimed south-east
// (from its corner: (1,1), (2,1), (1,2), (2,2) at 2 + 1 = 3, (3,1), (1,3)).
func TestPoint_11_2_ConeFifteenFeet(t *testing.T) {
	caster := &Token{ID: "c", X: 5, Y: 5, Side: "party"}
	res := evalPoint(t, &Request{Rules: RulesPF2e, Template: TemplateRef{Text: "15-foot cone"}, Caster: caster, Toward: Toward{Compass: "E"}, Bounds: flat})
	wantCells(t, res, areaPicture(6, 4, `
		.##
		###
		.##`))
	if res.Origin != (Point{6, 5.5, 0.5}) || res.Direction != "E" {
		t.Errorf("origin %v direction %q, want the east face's middle (6, 5.5, 0.5) and E", res.Origin, res.Direction)
	}
	res = evalPoint(t, &Request{Rules: RulesPF2e, Template: TemplateRef{Text: "cone 15"}, Caster: caster, Toward: Toward{Compass: "SE"}, Bounds: flat})
	wantCells(t, res, areaPicture(6, 6, `
		###
		##.
		#..`))
	if res.Origin != (Point{6, 6, 0.5}) {
		t.Errorf("origin %v, want the south-east corner (6, 6, 0.5)", res.Origin)
	}
	// Degrees: 45° is SE, exactly; 30° is refused (a pf2e cone aims along the grid).
	deg := evalPoint(t, &Request{Rules: RulesPF2e, Template: TemplateRef{Text: "cone 15"}, Caster: caster, Toward: Toward{Degrees: 45, IsDegrees: true}, Bounds: flat})
	if !slices.Equal(deg.Cells, res.Cells) {
		t.Errorf("45°: %v, want SE's %v", deg.Cells, res.Cells)
	}
	_, err := Evaluate(&Request{Rules: RulesPF2e, Template: TemplateRef{Text: "cone 15"}, Caster: caster, Toward: Toward{Degrees: 30, IsDegrees: true}, Bounds: flat})
	wantCode(t, err, CodeBadRequest, "multiple of 45")
}

// TestPoint_10_5_ConeFromAnIntersection: a 5e 15-foot cone (half-angle tangent ½) from the
// intersection (6, 5, 0) aimed east. A centre w = (dx, dy, ½) is in when 0 ≤ dx ≤ 3 and
// 4(dy² + ¼) ≤ dx²: dx = ½ never (4·½ > ¼); dx = 1½ for dy = ±½ (2 ≤ 2¼), not ±1½; dx = 2½ for
// dy = ±½ (2 ≤ 6¼), not ±1½ (10 > 6¼); dx = 3½ is past the base. Four squares.
func TestPoint_10_5_ConeFromAnIntersection(t *testing.T) {
	res := evalPoint(t, &Request{Rules: RulesDnD5e, Template: TemplateRef{Text: "15-foot cone"}, Point: &Point{6, 5, 0}, Toward: Toward{Compass: "E"}, Bounds: flat})
	wantCells(t, res, areaPicture(7, 4, `
		##
		##`))
	// A round base (Foundry's) reaches the same squares here: |w|² ≤ 9 holds for (2½, ½, ½).
	round := evalPoint(t, &Request{Rules: RulesDnD5e, Template: TemplateRef{Object: &Template{Shape: "cone", Length: 3, Base: "round"}}, Point: &Point{6, 5, 0}, Toward: Toward{Compass: "E"}, Bounds: flat})
	if !slices.Equal(round.Cells, res.Cells) || round.Template.Base != "round" {
		t.Errorf("round base: %v %+v", round.Cells, round.Template)
	}
	// A 90° cone (tangent 1): dx = 1½ now takes dy = ±½ and not ±1½ (9 + ¼ > 2¼); dx = 2½ takes
	// ±½ and ±1½ (2¼ + ¼ ≤ 6¼), not ±2½: 2 + 4 squares; dx = ½: ¼ + ¼ > ¼, none.
	wide := evalPoint(t, &Request{Rules: RulesDnD5e, Template: TemplateRef{Object: &Template{Shape: "cone", Length: 3, Angle: 90}}, Point: &Point{6, 5, 0}, Toward: Toward{Compass: "E"}, Bounds: flat})
	wantCells(t, wide, areaPicture(7, 3, `
		.#
		##
		##
		.#`))
}

// TestPoint_10_2_DegreesAtCompassMultiples: 45° multiples give the compass vectors' areas
// exactly (§10.2), for a 5e cone and a line.
func TestPoint_10_2_DegreesAtCompassMultiples(t *testing.T) {
	names := []string{"E", "SE", "S", "SW", "W", "NW", "N", "NE"}
	for _, text := range []string{"30-foot cone", "60-foot line"} {
		for k, name := range names {
			base := Request{Rules: RulesDnD5e, Template: TemplateRef{Text: text}, Point: &Point{10.5, 10.5, 0.5}, Bounds: flat}
			a, b := base, base
			a.Toward, b.Toward = Toward{Compass: name}, Toward{Degrees: float64(45*k - 360), IsDegrees: true}
			ra, rb := evalPoint(t, &a), evalPoint(t, &b)
			if !slices.Equal(ra.Cells, rb.Cells) || ra.Count == 0 {
				t.Errorf("%s toward %s: %d cells; %d°: %d cells", text, name, ra.Count, 45*k-360, rb.Count)
			}
		}
	}
}

// TestPoint_10_4_ClearPath: an area does not spread behind total cover. A wall from (8, 2) to
// (8, 10) between the fireball's point (10, 6) and its west part keeps the squares of x < 8 out
// (52 − 10 = 42: the picture's two west columns, 1 + 3 + 4 + 4 + ... = the columns x = 6, 7 hold
// 4 + 6 = 10 squares); a one-way wall stops it only from its own side.
func TestPoint_10_4_ClearPath(t *testing.T) {
	wall := Wall{A: [2]float64{8, 2}, B: [2]float64{8, 10}}
	req := Request{Rules: RulesDnD5e, Template: TemplateRef{Text: "20-foot-radius sphere"}, Point: &Point{10, 6, 0}, Bounds: flat, Walls: []Wall{wall}}
	res := evalPoint(t, &req)
	if res.Count != 42 {
		t.Errorf("behind a wall: %d squares, want 42", res.Count)
	}
	for _, c := range res.Cells {
		if c[0] < 8 {
			t.Errorf("cell %v is behind the wall", c)
		}
	}
	// a = (8, 2), b = (8, 10) points south: its left is east (x > 8), where the point is.
	for from, want := range map[string]int{"left": 42, "right": 52} {
		w := wall
		w.From = from
		req.Walls = []Wall{w}
		if got := evalPoint(t, &req).Count; got != want {
			t.Errorf("one-way wall from %s: %d squares, want %d", from, got, want)
		}
	}
	// An open door blocks nothing; a wall whose top is below the segments' heights neither.
	wall.Open = true
	req.Walls = []Wall{wall}
	if got := evalPoint(t, &req).Count; got != 52 {
		t.Errorf("open door: %d, want 52", got)
	}
	// A full block stops the squares behind it, and is not in the area itself: (11, 6)'s centre
	// is inside it; (12, 6) and (13, 6) lie behind it (their segments run through it at y 6½).
	req.Walls = nil
	req.Obstacles = []Obstacle{{X: 11, Y: 6, Z: 0}}
	res = evalPoint(t, &req)
	for _, c := range [][3]int32{{11, 6, 0}, {12, 6, 0}, {13, 6, 0}} {
		if slices.Contains(res.Cells, c) {
			t.Errorf("cell %v should be cut off by the block at (11, 6)", c)
		}
	}
	if !slices.Contains(res.Cells, [3]int32{12, 5, 0}) {
		t.Errorf("cell (12, 5) is not behind the block")
	}
}

// TestPoint_10_4_OriginAndCaster: an origin inside solid matter is refused; so is a point the
// caster has no line of effect to; a point on a block's face is not inside it.
func TestPoint_10_4_OriginAndCaster(t *testing.T) {
	base := Request{Rules: RulesDnD5e, Template: TemplateRef{Text: "sphere 10"}, Bounds: flat}
	req := base
	req.Point, req.Obstacles = &Point{3.5, 3.5, 0.5}, []Obstacle{{X: 3, Y: 3}}
	_, err := Evaluate(&req)
	wantCode(t, err, CodeNoLineOfEffect, "inside solid matter")
	req.Point = &Point{4, 3.5, 0.5} // on the block's east face: outside it
	if res := evalPoint(t, &req); slices.Contains(res.Cells, [3]int32{3, 3, 0}) || !slices.Contains(res.Cells, [3]int32{4, 3, 0}) {
		t.Errorf("from the block's face: %v", res.Cells)
	}
	req = base
	req.Caster = &Token{ID: "w", X: 0, Y: 0}
	req.Point = &Point{6, 0.5, 0}
	req.Range = Range{Kind: RangeSquares, Squares: 10}
	req.Walls = []Wall{{A: [2]float64{3, -5}, B: [2]float64{3, 5}}}
	_, err = Evaluate(&req)
	wantCode(t, err, CodeNoLineOfEffect, "no line of effect to the point")
	req.Walls = nil
	req.Range = Range{Kind: RangeSquares, Squares: 4} // the point is 5 squares east of the caster's box
	_, err = Evaluate(&req)
	wantCode(t, err, CodeOutOfRange, "5 squares from the caster")
	req.Range = Range{Kind: RangeSquares, Squares: 5}
	evalPoint(t, &req)
}

// TestPoint_10_5_Emanation: an emanation spreads from its caster's space, which it includes; in
// dnd5e it spares its caster unless includeCaster, in pf2e it takes it unless excludeCaster.
func TestPoint_10_5_Emanation(t *testing.T) {
	caster := &Token{ID: "c", X: 5, Y: 5, Side: "party"}
	ally := Token{ID: "a", X: 6, Y: 6, Side: "party"}
	for _, c := range []struct {
		rules              Rules
		include, exclude   bool
		casterHit, allyHit bool
	}{
		{RulesDnD5e, false, false, false, true},
		{RulesDnD5e, true, false, true, true},
		{RulesPF2e, false, false, true, true},
		{RulesPF2e, false, true, false, true},
	} {
		res := evalPoint(t, &Request{Rules: c.rules, Template: TemplateRef{Text: "10-foot emanation"}, Caster: caster, Tokens: []Token{ally}, Bounds: flat,
			Targeting: Targeting{IncludeCaster: c.include, ExcludeCaster: c.exclude}})
		// A 1-square caster's 2-square emanation: 5 × 5 squares (both games' distances reach the
		// corners at 2: chebyshev 2, and pf2e's (2, 2) is 2 + 1 = 3 — so pf2e's lacks the 4 corners).
		want := 25
		if c.rules == RulesPF2e {
			want = 21
		}
		if res.Count != want || len(res.Targets) != 2 || res.Targets[0].Affected != c.casterHit || res.Targets[1].Affected != c.allyHit {
			t.Errorf("%s include %v exclude %v: count %d targets %+v", c.rules, c.include, c.exclude, res.Count, res.Targets)
		}
	}
}

// TestCover_10_8_DnD5e: the DMG's cover on a grid, in three dimensions (SPEC §10.8): an attacker
// at (0, 0) and a target at (4, 0) on a flat board.
func TestCover_10_8_DnD5e(t *testing.T) {
	attacker, target := Attacker{ID: "a"}, Token{ID: "t", X: 4}
	cov := func(req CoverRequest) *CoverResult {
		t.Helper()
		req.Rules, req.Attack, req.Attacker, req.Target = RulesDnD5e, AttackRanged, attacker, target
		res, err := Cover(&req)
		if err != nil {
			t.Fatalf("Cover: %v", err)
		}
		return res
	}
	if r := cov(CoverRequest{}); r.Grade != GradeNone || r.Bonus != 0 || r.Blocked != 0 || r.Total != 8 {
		t.Errorf("open board: %+v", r)
	}
	// A wall across the board between them: every line crosses it.
	if r := cov(CoverRequest{Walls: []Wall{{A: [2]float64{3, -10}, B: [2]float64{3, 10}}}}); r.Grade != GradeTotal || r.Bonus != 0 || r.LineOfEffect {
		t.Errorf("behind a wall: %+v", r)
	}
	// A low wall (fill ½) across x = 2: from the attacker's upper corners the target's 4 upper
	// corners are clear, and no line to its lower corners (height 1/400) is: at x = 3 it is at
	// most a third of the way up, inside the wall. 4 of 8: half cover, +2 (the DMG's low wall).
	var low []Obstacle
	for y := -10; y <= 10; y++ {
		low = append(low, Obstacle{X: 2, Y: y, Fill: 0.5})
	}
	if r := cov(CoverRequest{Obstacles: low}); r.Grade != GradeHalf || r.Bonus != 2 || r.Blocked != 4 {
		t.Errorf("behind a low wall: %+v", r)
	}
	// A creature between them: every line from a corner of the attacker's square to one of the
	// target's runs inside its square (y and z strictly between 0 and 1 all along). Creatures
	// give at most half cover (the default), count as walls (full) or not at all (none).
	orc := []Token{{ID: "orc", X: 2}}
	for mode, want := range map[CreatureCover]Grade{"": GradeHalf, CreatureHalf: GradeHalf, CreatureFull: GradeTotal, CreatureNone: GradeNone} {
		if r := cov(CoverRequest{Tokens: orc, CreatureCover: mode}); r.Grade != want {
			t.Errorf("creature, creatureCover %q: %+v, want %s", mode, r, want)
		}
	}
	// The table of §10.8, on 8 lines.
	for b, want := range []int{0, 1, 1, 1, 1, 2, 2, 2, 3} {
		if got := grade5e(b); got != want {
			t.Errorf("grade5e(%d) = %d, want %d", b, got, want)
		}
	}
}

// TestCover_11_5_PF2e: one line from the centre of the attacker's space to the target's.
func TestCover_11_5_PF2e(t *testing.T) {
	attacker, target := Attacker{ID: "a"}, Token{ID: "t", X: 4}
	cov := func(req CoverRequest) *CoverResult {
		t.Helper()
		req.Rules, req.Attack, req.Attacker = RulesPF2e, AttackRanged, attacker
		if req.Target.ID == "" {
			req.Target = target
		}
		res, err := Cover(&req)
		if err != nil {
			t.Fatalf("Cover: %v", err)
		}
		return res
	}
	// A creature on the line (y ½ runs through its square): lesser, +1.
	if r := cov(CoverRequest{Tokens: []Token{{ID: "orc", X: 2}}}); r.Grade != GradeLesser || r.Bonus != 1 || r.Total != 1 {
		t.Errorf("creature: %+v", r)
	}
	// A short wall across the centre line only, (3, ¼) to (3, ¾): standard, +2; lines from the
	// corners near y = 0 pass below it, so the target can still be targeted.
	short := []Wall{{A: [2]float64{3, 0.25}, B: [2]float64{3, 0.75}}}
	if r := cov(CoverRequest{Walls: short}); r.Grade != GradeStandard || r.Bonus != 2 || !r.LineOfEffect {
		t.Errorf("wall: %+v", r)
	}
	// Taking cover: standard becomes greater (+4), none becomes standard.
	tc := target
	tc.TakingCover = true
	if r := cov(CoverRequest{Walls: short, Target: tc}); r.Grade != GradeGreater || r.Bonus != 4 {
		t.Errorf("taking cover behind the wall: %+v", r)
	}
	if r := cov(CoverRequest{Target: tc}); r.Grade != GradeStandard || r.Bonus != 2 {
		t.Errorf("taking cover in the open: %+v", r)
	}
	// A wall across the board: no line of effect at all, total.
	if r := cov(CoverRequest{Walls: []Wall{{A: [2]float64{3, -10}, B: [2]float64{3, 10}}}}); r.Grade != GradeTotal || r.Bonus != 0 || r.LineOfEffect {
		t.Errorf("behind a full wall: %+v", r)
	}
}

// TestPoint_10_8_AreaCover: in an area the lines come from the origin point; a target with
// total cover is in the area (its square is reached) and not affected.
func TestPoint_10_8_AreaCover(t *testing.T) {
	// The fireball at (10, 6); the orc at (13, 5) (centre 3.5, 0.5 away: in). A creature at
	// (12, 5), on every line from the point to the orc's corners (x from 12 to 13, y inside
	// (5, 6) for the corners' y ≈ 5 and ≈ 6 — the lines from y = 6 to y ≈ 5.0025 at x = 12 are at
	// y > 5.3): half cover, capped.
	res := evalPoint(t, &Request{Rules: RulesDnD5e, Template: TemplateRef{Text: "20-foot sphere"}, Point: &Point{10, 6, 0}, Bounds: flat,
		Tokens: []Token{{ID: "orc", X: 13, Y: 5, Side: "enemy"}, {ID: "ogre", X: 12, Y: 5, Side: "enemy"}}})
	if len(res.Targets) != 2 || res.Targets[0].ID != "orc" {
		t.Fatalf("targets %+v", res.Targets)
	}
	if orc := res.Targets[0]; orc.Cover != GradeHalf || orc.Bonus != 2 || !orc.Affected || len(orc.Lines) != 8 || orc.Lines[0].From != [3]float64{10, 6, 0} {
		t.Errorf("orc behind the ogre: %+v", orc)
	}
	// pf2e: the centre line from the point to the orc's centre (13.5, 5.5, 0.5) runs inside the
	// ogre's square: lesser.
	res = evalPoint(t, &Request{Rules: RulesPF2e, Template: TemplateRef{Text: "20-foot burst"}, Point: &Point{10, 6, 0}, Bounds: flat,
		Tokens: []Token{{ID: "orc", X: 13, Y: 5, Side: "enemy"}, {ID: "ogre", X: 12, Y: 5, Side: "enemy"}}})
	if orc := res.Targets[0]; orc.ID != "orc" || orc.Cover != GradeLesser || orc.Bonus != 1 {
		t.Errorf("pf2e orc: %+v", orc)
	}
}

// TestPoint_5_6_OneWayWallsElsewhere: the other rule sets refuse a one-way wall (our ruling:
// their shared fields treat a segment as undirected).
func TestPoint_5_6_OneWayWallsElsewhere(t *testing.T) {
	_, err := Evaluate(&Request{Template: TemplateRef{Text: "Cir2"}, Origin: &Pos{5, 5, 0}, Walls: []Wall{{A: [2]float64{0, 0}, B: [2]float64{0, 1}, From: "left"}}})
	wantCode(t, err, CodeBadRequest, "walls[0].from: one-way walls are honoured by the dnd5e and pf2e rule sets only")
	_, err = Evaluate(&Request{Rules: RulesDnD5e, Template: TemplateRef{Text: "sphere 5"}, Point: &Point{}, Walls: []Wall{{A: [2]float64{0, 0}, B: [2]float64{0, 1}, From: "up"}}})
	wantCode(t, err, CodeBadRequest, `walls[0].from: expected "left" or "right", got "up"`)
}

// TestPoint_10_3_NotationNeedsRules: point-origin notation without rules is a bad_request that
// names both games; with rules, parse gives the object.
func TestPoint_10_3_NotationNeedsRules(t *testing.T) {
	_, err := Parse("20-foot-radius sphere")
	wantCode(t, err, CodeBadRequest, `give "rules": "dnd5e" or "pf2e"`)
	_, err = Evaluate(&Request{Template: TemplateRef{Text: "15-foot cone"}, Point: &Point{}})
	wantCode(t, err, CodeBadRequest, "dnd5e")
	tm, err := ParseRules("100-foot line 10 feet wide", RulesPF2e)
	if err != nil || tm.Rules != RulesPF2e || tm.Shape != "line" || tm.Length != 20 || tm.Width != 2 || tm.Notation != "100-foot line 10 feet wide" {
		t.Errorf("ParseRules = %+v, %v", tm, err)
	}
	_, err = ParseRules("20-foot sphere", RulesPF2e)
	wantCode(t, err, CodeBadNotation, "burst")
}

func wantCode(t *testing.T, err error, code Code, part string) {
	t.Helper()
	e, ok := err.(*Error)
	if !ok || e.Code != code || !strings.Contains(e.Message, part) {
		t.Errorf("error %v, want %s containing %q", err, code, part)
	}
}

// TestPoint_SceneIsEvaluate: a scene answers a point-origin request as Evaluate does with the
// scene's board in it (CONTRACT scene), for every shape of both games, and refuses a one-way
// wall only for the other rule sets.
func TestPoint_SceneIsEvaluate(t *testing.T) {
	board := &Board{
		Tokens:    []Token{{ID: "orc", X: 11, Y: 4, Side: "enemy"}, {ID: "ogre", X: 11, Y: 6, Size: 2, Side: "enemy"}, {ID: "imp", X: 9, Y: 9, Z: 1, Side: "enemy", TakingCover: true}},
		Obstacles: []Obstacle{{X: 12, Y: 3}, {X: 9, Y: 7, Fill: 0.5}},
		Walls:     []Wall{{A: [2]float64{8, 2}, B: [2]float64{8, 5}}, {A: [2]float64{13, 8}, B: [2]float64{15, 8}, From: "left"}},
		Bounds:    &Bounds{Min: [3]int{0, 0, 0}, Max: [3]int{29, 19, 2}},
	}
	sc, err := NewScene(board)
	if err != nil {
		t.Fatal(err)
	}
	caster := &Token{ID: "wiz", X: 5, Y: 6, Side: "party"}
	var reqs []Request
	for _, rules := range []Rules{RulesDnD5e, RulesPF2e} {
		for _, tm := range []string{"20-foot sphere", "20-foot burst", "10-foot-radius, 20-foot-high cylinder", "10-foot cube", "10-foot emanation"} {
			reqs = append(reqs, Request{Rules: rules, Template: TemplateRef{Text: tm}, Point: &Point{10, 6, 0}, Caster: caster})
		}
		for _, tw := range []Toward{{Compass: "E"}, {Compass: "SE"}, {Degrees: 22.5, IsDegrees: true}, {Aim: &Point{14, 9, 0.5}}} {
			reqs = append(reqs, Request{Rules: rules, Template: TemplateRef{Text: "30-foot cone"}, Caster: caster, Toward: tw},
				Request{Rules: rules, Template: TemplateRef{Text: "60-foot line 10 feet wide"}, Caster: caster, Toward: tw})
		}
	}
	answered := 0
	for i := range reqs {
		req := reqs[i]
		if req.Template.Text == "10-foot emanation" {
			req.Point = nil
		}
		got, gerr := sc.Evaluate(&req)
		full := req
		full.Tokens, full.Obstacles, full.Walls, full.Bounds = board.Tokens, board.Obstacles, board.Walls, board.Bounds
		want, werr := Evaluate(&full)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gerr, werr) {
			t.Errorf("%s %s toward %+v: scene %+v, %v\nevaluate %+v, %v", req.Rules, req.Template.Text, req.Toward, got, gerr, want, werr)
		}
		if werr == nil {
			answered++
		}
	}
	if answered < len(reqs)/2 {
		t.Errorf("only %d of %d requests answered", answered, len(reqs))
	}
	_, err = sc.Evaluate(&Request{Template: TemplateRef{Text: "Cir2"}, Origin: &Pos{5, 5, 0}})
	wantCode(t, err, CodeBadRequest, "walls[1].from")
}

// TestCentreUnit holds spread's reckoning of its segments, term by term, to segWork's own: a
// cell centre's coordinate over los.Unit (truncated toward zero) for cells either side of 0.
func TestCentreUnit(t *testing.T) {
	for v := -1000; v <= 1000; v++ {
		c := los.Centre(grid.Cell{X: v, Y: -v, Z: v / 3})
		for k, got := range [3]int{centreUnit(v), centreUnit(-v), centreUnit(v / 3)} {
			if want := int([3]int64{c.X, c.Y, c.Z}[k] / los.Unit); got != want {
				t.Fatalf("centreUnit of cell coordinate %d = %d, want %d (the centre %v over %d)", []int{v, -v, v / 3}[k], got, want, c, los.Unit)
			}
		}
	}
}
