package engine

import (
	"fmt"
	"slices"
	"testing"
)

// The rule set of a request (SPEC §6) is the request's "rules" when given, otherwise the
// template's own, and every rule-dependent step follows it: whether the origin square needs
// the caster's line of effect (§3.1), which line of effect the caster's view of the origin is
// judged by (§5.3), how obstacles shape the area (§2.1 not at all, §3.2, §4.3) and which cover
// grades apply (§5.5). The request's barriers, cover and applyCover then override single
// columns of §6.

// SPEC §3.1, §6: a Draw Steel cube evaluated under TDGS rules. TDGS does not require the
// caster to see the origin (§2.9), so the full block between them is no error; it is reported.
// C is at (0, 0, 0), the block at (2, 0, 0), the cube's one square at (4, 0, 0): the centre
// line y = z = 200 runs through the block's interior x ∈ [800, 1200], so originVisible is
// false. Under the template's own rules (no "rules"), every corner segment stays inside
// y, z ∈ (0, 400) and crosses the block: no_line_of_effect.
func TestRules_6_DrawSteelCubeUnderTDGSRules(t *testing.T) {
	s := parseScene(t, `C.#..`)
	req := s.request("1 cube within 5")
	req.Origin = &Pos{4, 0, 0}
	req.Rules = "tdgs"
	res, err := Evaluate(req)
	if err != nil {
		t.Fatalf(`rules "tdgs": %v; TDGS only reports whether the caster sees the origin`, err)
	}
	if res.OriginVisible {
		t.Errorf(`rules "tdgs": originVisible = true through the block`)
	}
	if got := ints(res.Cells); !slices.Equal(got, [][3]int{{4, 0, 0}}) {
		t.Errorf(`rules "tdgs": cells %v, want the cube's one square [4 0 0]`, got)
	}
	req.Rules = ""
	_, err = Evaluate(req)
	errorCode(t, err, CodeNoLineOfEffect)
}

// rulesScene is the board of the table below, level 0 drawn (x 0 … 14, y 0 … 3), z = 0
// unless said:
//
//	C............     C  the caster (0, 0, 0), 1 square
//	.............     X  (1, 0, 0), full; X' (1, 1, 0), full, only when blind is set
//	...                  O  (12, 1, 0): the origin square
//	                     P  (13, 1, z) for z = −2 … 2, a full pillar: every level a
//	                        5-cube around O spans
//	                     L  (12, 2, 0), a low wall (fill 0.5)
//	                     g  (14, 1, 0), behind the pillar; h (12, 3, 0), behind the low wall
//
//	y=0  C X . . . . . . . . . . . . .
//	y=1  . X'. . . . . . . . . . O P g
//	y=2  . . . . . . . . . . . . L . .
//	y=3  . . . . . . . . . . . . h . .
//
// Every template of the table is placed with O as its origin square and holds the cells
// O ± 2 on level 0: Cir2h1 (25 cells, 1 level), "5 cube within 20" (125 cells, O its centre,
// levels −2 … 2), "circle 2" (21 cells, §4.1).
func rulesScene(template string, blind bool) *Request {
	req := &Request{
		Template: TemplateRef{Text: template},
		Caster:   &Token{ID: "caster", Side: "party", Facing: "N"},
		Origin:   &Pos{12, 1, 0},
		Range:    Range{Kind: "squares", Squares: 20},
		Tokens: []Token{
			{ID: "g", X: 14, Y: 1, Side: "enemy"},
			{ID: "h", X: 12, Y: 3, Side: "enemy"},
		},
		Obstacles: []Obstacle{{X: 1, Y: 0, Fill: 1}, {X: 12, Y: 2, Fill: 0.5}},
	}
	for z := -2; z <= 2; z++ {
		req.Obstacles = append(req.Obstacles, Obstacle{X: 13, Y: 1, Z: z, Fill: 1})
	}
	if blind {
		req.Obstacles = append(req.Obstacles, Obstacle{X: 1, Y: 1, Fill: 1})
	}
	if template == "5 cube within 20" {
		req.Origin = &Pos{10, -1, -2} // the cube's north-west-lowest cell
		req.OriginSquare = &Pos{12, 1, 0}
	}
	return req
}

// What the table expects of each rule set, derived in lattice units (400 to a cell). O's
// centre, the area's cover source (§5.4), is (5000, 600, 200).
//
// The caster and the origin (§3.1, §5.3):
//   - The centre line (200, 200, 200) → (5000, 600, 200) is at y = 200 + (x − 200)/12 ∈
//     [216, 250] while x ∈ [400, 800]: inside X. TDGS (and circle50, judged as TDGS) do not
//     see O.
//   - Draw Steel corners: C shows its east and south faces to O, O its west and north faces.
//     The segment (1, 399, 399) → (4801, 799, 399) is at y = 399 + (x − 1)/12, past 400 from
//     x = 13 on, so it runs through the empty row y = 1 (cells (1 … 11, 1, 0)) without touching
//     X: clear, and O is seen. With X' as well, every corner segment crosses x ∈ [400, 800] at
//     y ∈ (1, 799) and z ∈ (1, 399), inside X ∪ X' (their shared face counts as inside, §5.2):
//     no line of effect, an error under Draw Steel only.
//
// The area (§2.1, §3.2, §4.3):
//   - tdgs: obstacles do not shape it: every cell, P's (13, 1, 0) and the shadow (14, 1, 0)
//     included.
//   - drawsteel (§3.2, corner to corner from O): P is solid, out. The shadow (14, 1, 0): O's
//     east-face corners and its west-face corners all have y, z ∈ (0, 400), so every segment
//     crosses P's interior: out. (14, 2, 0): the segment (4801, 799, 399) → (5601, 1199, 399)
//     has y = 799 + (x − 4801)/2, already 998 at x = 5200, so it passes over L (z = 399 > 200)
//     and through the empty (13, 2, 0), never entering P: in.
//   - circle50 (§4.3): P's cells are out; the fill goes around the pillar (through (13, 0, 0)
//     or (13, 2, 0)) and over the low wall, and nothing is closed off: every other cell is in,
//     the shadow included. The count is the template's less the pillar's cells in it: 1 for a
//     flat template, 5 for the 5-cube (the fill crosses shared faces, between levels too).
//
// The targets (§5.4, §5.5, §7.2):
//   - g shows its west face to the source: corners x = 5601, y ∈ {401, 799}, z ∈ {121, 399}
//     (low corners raised 120). Every segment crosses x ∈ [5200, 5600] with y ∈ (400, 800)
//     and z ∈ (0, 400): inside P. 4 of 4 blocked.
//   - h shows its north face: corners y = 1201, x ∈ {4801, 5199}, z ∈ {121, 399}. Segments to
//     z = 121 cross y ∈ [800, 1200] at z ∈ (121, 174) < 200, x inside (4800, 5200): inside L,
//     blocked. Segments to z = 399 are at z = 266 already at y = 800: clear. 2 of 4, f = ½.
//   - tdgs grades: g full (f ≥ ¾), not affected; h half, +4.
//   - drawsteel: g is cut off (§3.2): reason barrier. h: ½ ≤ f < 1, "cover", no bonus.
//   - circle50: tdgs grades reported, not applied: g full but affected, h half without bonus.
type rulesWant struct {
	blindErr      bool // the blind scene is a no_line_of_effect error
	visible       bool // originVisible in the open scene
	pillar, shade bool // (13, 1, 0) and (14, 1, 0) in the area
	count         int  // the number of cells, or -1 to leave it unchecked
	g, h          want
}

func wantFor(rules string, cells, pillarCells int) rulesWant {
	switch rules {
	case "tdgs":
		return rulesWant{pillar: true, shade: true, count: cells,
			g: want{inArea: true, reason: "cover", cover: "full", blocked: 4, lines: 4},
			h: want{inArea: true, affected: true, cover: "half", bonus: 4, blocked: 2, lines: 4}}
	case "drawsteel":
		return rulesWant{blindErr: true, visible: true, count: -1,
			g: want{reason: "barrier", cover: "none"},
			h: want{inArea: true, affected: true, cover: "cover", blocked: 2, lines: 4}}
	default: // circle50
		return rulesWant{shade: true, count: cells - pillarCells,
			g: want{inArea: true, affected: true, cover: "full", blocked: 4, lines: 4},
			h: want{inArea: true, affected: true, cover: "half", blocked: 2, lines: 4}}
	}
}

// SPEC §6: a template of each rule set under each rule set; no "rules" is the template's own.
// Each row checks every rule-dependent step against the rule set's column (see rulesWant).
func TestRules_6_EveryStepFollowsTheRequestsRuleSet(t *testing.T) {
	templates := []struct {
		text, own          string
		cells, pillarCells int
	}{
		{"Cir2h1", "tdgs", 25, 1},
		{"5 cube within 20", "drawsteel", 125, 5},
		{"circle 2", "circle50", 21, 1},
	}
	for _, tp := range templates {
		for _, rules := range []string{"", "tdgs", "drawsteel", "circle50"} {
			t.Run(fmt.Sprintf("%s/rules=%q", tp.text, rules), func(t *testing.T) {
				effective := rules
				if effective == "" {
					effective = tp.own
				}
				w := wantFor(effective, tp.cells, tp.pillarCells)

				blind := rulesScene(tp.text, true)
				blind.Rules = Rules(rules)
				res, err := Evaluate(blind)
				switch {
				case w.blindErr:
					errorCode(t, err, CodeNoLineOfEffect)
				case err != nil:
					t.Errorf("blind origin: %v; only Draw Steel requires line of effect to it (§3.1)", err)
				case res.OriginVisible:
					t.Errorf("blind origin: originVisible = true")
				}

				req := rulesScene(tp.text, false)
				req.Rules = Rules(rules)
				res = mustEvaluate(t, req)
				if res.OriginVisible != w.visible {
					t.Errorf("originVisible = %v, want %v (§5.3 by rule set %s)", res.OriginVisible, w.visible, effective)
				}
				cells := ints(res.Cells)
				for _, c := range []struct {
					cell [3]int
					in   bool
					what string
				}{
					{[3]int{13, 1, 0}, w.pillar, "the pillar's cell"},
					{[3]int{14, 1, 0}, w.shade, "the cell behind the pillar"},
					{[3]int{14, 2, 0}, true, "the cell beside the pillar's shadow"},
					{[3]int{12, 3, 0}, true, "the cell behind the low wall"},
				} {
					if slices.Contains(cells, c.cell) != c.in {
						t.Errorf("%s %v: in the area = %v, want %v", c.what, c.cell, !c.in, c.in)
					}
				}
				if w.count >= 0 && res.Count != w.count {
					t.Errorf("count %d, want %d", res.Count, w.count)
				}
				checkTarget(t, targetOf(t, res, "g"), w.g)
				checkTarget(t, targetOf(t, res, "h"), w.h)
			})
		}
	}
}

// SPEC §6: the request's barriers, cover and applyCover override one column each, on top of
// the request's rule set, and leave the rest of it alone: the caster's view of the origin stays
// the rule set's line of effect (§5.3) whatever the cover grades. Scene and derivations as in
// rulesScene.
func TestRules_6_OverridesOnTopOfTheRuleSet(t *testing.T) {
	on, off := true, false
	for _, c := range []struct {
		name, template, rules string
		set                   func(*Request)
		visible               bool
		pillar, shade, beside bool
		g, h                  want
	}{
		{
			// Draw Steel without barriers: the whole cube, g in the area with f = 1: full.
			name: "drawsteel barriers off", template: "5 cube within 20", rules: "drawsteel",
			set: func(r *Request) { r.Barriers = &off }, visible: true, pillar: true, shade: true, beside: true,
			g: want{inArea: true, reason: "cover", cover: "full", blocked: 4, lines: 4},
			h: want{inArea: true, affected: true, cover: "cover", blocked: 2, lines: 4},
		},
		{
			// TDGS with barriers: §3.2's test with TDGS line of effect, centre to centre from
			// O's centre (5000, 600, 200). To the shadow's centre (5800, 600, 200): through P. To
			// (14, 2, 0)'s centre (5800, 1000, 200): y = 600 + (x − 5000)/2 is below 800 for
			// x ∈ [5200, 5400): inside P, so out as well (Draw Steel's corners keep it).
			name: "tdgs barriers on", template: "Cir2h1", rules: "tdgs",
			set: func(r *Request) { r.Barriers = &on }, pillar: false, shade: false, beside: false,
			g: want{reason: "barrier", cover: "none"},
			h: want{inArea: true, affected: true, cover: "half", bonus: 4, blocked: 2, lines: 4},
		},
		{
			// circle50 without barriers: no fill, every cell.
			name: "circle50 barriers off", template: "circle 2", rules: "circle50",
			set: func(r *Request) { r.Barriers = &off }, pillar: true, shade: true, beside: true,
			g: want{inArea: true, affected: true, cover: "full", blocked: 4, lines: 4},
			h: want{inArea: true, affected: true, cover: "half", blocked: 2, lines: 4},
		},
		{
			// TDGS rules, Draw Steel grades: h ½ is "cover"; the origin is still judged centre
			// to centre (not seen), not by Draw Steel's corners.
			name: "tdgs cover drawsteel", template: "Cir2h1", rules: "tdgs",
			set: func(r *Request) { r.Cover = "drawsteel" }, pillar: true, shade: true, beside: true,
			g: want{inArea: true, reason: "cover", cover: "full", blocked: 4, lines: 4},
			h: want{inArea: true, affected: true, cover: "cover", blocked: 2, lines: 4},
		},
		{
			// Draw Steel rules, TDGS grades, applied: h half, +4; the origin still by corners.
			name: "drawsteel cover tdgs", template: "circle 2", rules: "drawsteel",
			set: func(r *Request) { r.Cover = "tdgs" }, visible: true, beside: true,
			g: want{reason: "barrier", cover: "none"},
			h: want{inArea: true, affected: true, cover: "half", bonus: 4, blocked: 2, lines: 4},
		},
		{
			// circle50 with cover applied: g's full cover leaves it unaffected, h gets +4.
			name: "circle50 applyCover", template: "Cir2h1", rules: "circle50",
			set: func(r *Request) { r.ApplyCover = &on }, shade: true, beside: true,
			g: want{inArea: true, reason: "cover", cover: "full", blocked: 4, lines: 4},
			h: want{inArea: true, affected: true, cover: "half", bonus: 4, blocked: 2, lines: 4},
		},
		{
			// TDGS without applying cover: g affected, h without bonus.
			name: "tdgs applyCover off", template: "5 cube within 20", rules: "tdgs",
			set: func(r *Request) { r.ApplyCover = &off }, pillar: true, shade: true, beside: true,
			g: want{inArea: true, affected: true, cover: "full", blocked: 4, lines: 4},
			h: want{inArea: true, affected: true, cover: "half", blocked: 2, lines: 4},
		},
		{
			// No cover at all: no lines, everything in the area affected.
			name: "drawsteel cover none", template: "Cir2h1", rules: "drawsteel",
			set: func(r *Request) { r.Cover = "none" }, visible: true, beside: true,
			g: want{reason: "barrier", cover: "none"},
			h: want{inArea: true, affected: true, cover: "none"},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			req := rulesScene(c.template, false)
			req.Rules = Rules(c.rules)
			c.set(req)
			res := mustEvaluate(t, req)
			if res.OriginVisible != c.visible {
				t.Errorf("originVisible = %v, want %v", res.OriginVisible, c.visible)
			}
			cells := ints(res.Cells)
			for _, k := range []struct {
				cell [3]int
				in   bool
			}{{[3]int{13, 1, 0}, c.pillar}, {[3]int{14, 1, 0}, c.shade}, {[3]int{14, 2, 0}, c.beside}} {
				if slices.Contains(cells, k.cell) != k.in {
					t.Errorf("%v: in the area = %v, want %v", k.cell, !k.in, k.in)
				}
			}
			checkTarget(t, targetOf(t, res, "g"), c.g)
			checkTarget(t, targetOf(t, res, "h"), c.h)
		})
	}
}

// Property (SPEC §4.3, §6): on an empty board nothing is closed off, so under circle50 rules
// every template covers its whole shape, as it does with barriers off. That holds for a cone
// or a line, whose fill starts in the caster's cell (not a cell of the shape), and for a
// diagonal one, whose cells meet the caster's and each other only along edges.
func TestProperty_4_3_EmptyBoardFillsEveryShape(t *testing.T) {
	r := newRand(31)
	off := false
	for i := 0; i < 1000; i++ {
		req := randomRequest(r)
		req.Obstacles = nil
		req.Rules = "circle50"
		filled, err := Evaluate(req)
		if err != nil {
			continue // placement errors: not the point here
		}
		req.Barriers = &off
		whole := mustEvaluate(t, req)
		if !slices.Equal(filled.Cells, whole.Cells) {
			t.Fatalf("case %d: %s under circle50 rules covers %d cells of its %d on an empty board\nrequest %s",
				i, req.Template.Text, filled.Count, whole.Count, describe(req))
		}
	}
}

// SPEC §4.3 under circle50 rules, with the engine's reading of §5.2 for cells that meet only
// along an edge (see joined in area.go). The squares of Lin3NE, (1, −1), (2, −2) and
// (3, −3) on levels −1 … 1 (§2.6, §2.8), meet only along edges. Full columns at (2, −1) and
// (1, −2), the two other cells along the edge between (1, −1) and (2, −2), close the step (no
// squeezing between solids that meet diagonally): only (1, −1) is left on each level. With
// one column the other cell is open, and every square is in.
func TestRules_4_3_DiagonalLineSqueezedShut(t *testing.T) {
	req := &Request{Template: TemplateRef{Text: "Lin3NE"}, Rules: "circle50", Caster: &Token{ID: "c"}}
	for z := -1; z <= 1; z++ {
		req.Obstacles = append(req.Obstacles, Obstacle{X: 2, Y: -1, Z: z, Fill: 1}, Obstacle{X: 1, Y: -2, Z: z, Fill: 1})
	}
	if got := ints(mustEvaluate(t, req).Cells); !slices.Equal(got, [][3]int{{1, -1, -1}, {1, -1, 0}, {1, -1, 1}}) {
		t.Errorf("squeezed shut: cells %v, want (1, -1) on levels -1 … 1", got)
	}
	req.Obstacles = req.Obstacles[:0]
	for z := -1; z <= 1; z++ {
		req.Obstacles = append(req.Obstacles, Obstacle{X: 2, Y: -1, Z: z, Fill: 1})
	}
	if res := mustEvaluate(t, req); res.Count != 9 {
		t.Errorf("one side open: %d cells %v, want all 9", res.Count, res.Cells)
	}
}
